"""A table's links in the HTML front door: open the link in each table URL, remember it, share it.

What a table's links share with a game's is in link_doors (LinkDoor).
"""

from __future__ import annotations

from flask import Blueprint, g
from werkzeug.wrappers import Response

from ..link_tokens import Access
from ..tables.table_links import open_table, rotate
from .link_doors import LinkDoor, role_named
from .rendering import respond

TABLE = "/t/<int:table_id>/<token>"
REMEMBERED_TABLES = 10


def _open(table_id: int, token: str, changing: bool) -> Access:
    """Check the table's link and keep the table on g for the page."""
    g.table, access = open_table(table_id, token, change=changing)
    return access


TABLES = LinkDoor(
    id_name="table_id",
    access_key="table_access",
    session_key="tables",
    most=REMEMBERED_TABLES,
    page="tables.show",
    share_page="table_links.show",
    opens=_open,
)
protect_table = TABLES.protect
table_access = TABLES.access
require_table_edit = TABLES.require_edit
remembered_tables = TABLES.remembered
open_table_in_browser = TABLES.open_in_browser

bp = Blueprint("table_links", __name__, url_prefix=TABLE)
protect_table(bp)


@bp.get("/share")
def show(table_id: int) -> Response:
    """Show the table's links with QR codes: the view link to all, the edit link to editors."""
    editable = table_access().can_edit
    return respond("tables/share.html", "tables/share.html", table=g.table, editable=editable)


@bp.post("/links/<role>")
def replace(table_id: int, role: str) -> Response:
    """Replace the edit or view link; whoever holds the old one is locked out at once."""
    replacing = role_named(role)
    require_table_edit()
    return TABLES.replaced(table_id, replacing, rotate(g.table, replacing))
