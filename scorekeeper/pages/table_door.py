"""A table's links in the HTML front door: open the link in each table URL, remember it, share it.

What a table's links share with a game's is in link_doors (LinkDoor).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint
from werkzeug.wrappers import Response

from ..link_tokens import Access
from ..models import CardTable
from ..tables.table_links import open_table, rotate
from .link_doors import LinkDoor, role_named
from .rendering import respond

TABLE = "/t/<int:table_id>/<token>"
REMEMBERED_TABLES = 10


@dataclass(frozen=True)
class TableAccess(Access):
    """A table's link, with the table its check read (and locked, for a change)."""

    table: CardTable


def _check(table_id: int, token: str, changing: bool) -> Access:
    """Check the table's link; a change's check takes the table's lock."""
    table, access = open_table(table_id, token, change=changing)
    return TableAccess(access.id, access.token, access.role, table)


TABLES = LinkDoor(
    id_name="table_id",
    access_key="table_access",
    session_key="tables",
    most=REMEMBERED_TABLES,
    page="table.show",
    share_page="table.share",
    opens=_check,
)
# Every page of a table is nested under it (pages/__init__.py): the link is checked once here.
door = Blueprint("table", __name__, url_prefix=TABLE)
TABLES.protect(door)


def current_table() -> CardTable:
    """The table this request's link opened (TABLES checked it before the view)."""
    access = TABLES.access()
    assert isinstance(access, TableAccess)  # _check made it
    return access.table


@door.get("/share")
def share(table_id: int) -> Response:
    """Show the table's links with QR codes: the view link to all, the edit link to editors."""
    editable = TABLES.access().can_edit
    return respond(
        "tables/share.html", "tables/share.html", table=current_table(), editable=editable
    )


@door.post("/links/<role>")
def replace_link(table_id: int, role: str) -> Response:
    """Replace the edit or view link; whoever holds the old one is locked out at once."""
    replacing = role_named(role)
    TABLES.require_edit()
    return TABLES.replaced(table_id, replacing, rotate(current_table(), replacing))
