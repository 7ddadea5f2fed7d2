"""The HTML side of a table's links: open the link in each table URL, remember it, share it."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, g, redirect, request, session, url_for
from werkzeug.wrappers import Response

from ..games.links import LinkRefused
from ..tables.links import TableAccess, open_table, rotate
from .rendering import respond

TABLE = "/t/<int:table_id>/<token>"
REMEMBERED_TABLES = 10
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def protect_table(blueprint: Blueprint) -> None:
    """Open the table link in each of the blueprint's URLs; a view link changes nothing."""
    blueprint.url_value_preprocessor(_open_from_url)
    blueprint.url_defaults(_link_in_url)


def table_access() -> TableAccess:
    """The table link this request came in through."""
    access: TableAccess = g.table_access
    return access


def require_table_edit() -> None:
    """Refuse a page that only an editor uses (403) to a view link."""
    if not table_access().can_edit:
        abort(403)


def remembered_tables() -> dict[int, str]:
    """The tables this browser has opened, newest first, with the link it used."""
    return {int(table_id): str(token) for table_id, token in session.get("tables", [])}


def open_table_in_browser(table_id: int, token: str) -> Response:
    """Go to a table through its edit link, and remember the link in this browser."""
    _remember(TableAccess(table_id, token, "edit"))
    return redirect(url_for("tables.show", table_id=table_id, token=token), code=303)


def _remember(access: TableAccess) -> None:
    """Keep the link in this browser's session, so the home page can offer it again."""
    kept = [entry for entry in session.get("tables", []) if entry[0] != access.table_id]
    session["tables"] = [[access.table_id, access.token], *kept][:REMEMBERED_TABLES]


def _open_from_url(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Resolve /t/<table_id>/<token>/…; changes lock the table before they read it."""
    if not values or "token" not in values or "table_id" not in values:
        return
    changing = request.method not in SAFE_METHODS
    try:
        g.table, g.table_access = open_table(
            values["table_id"], values.pop("token"), change=changing
        )
    except LinkRefused as refusal:
        abort(refusal.status)
    if not changing and not request.headers.get("HX-Request"):
        _remember(g.table_access)


def _link_in_url(endpoint: str, values: dict[str, Any]) -> None:
    """Build this table's URLs with the link the request came in through."""
    access: TableAccess | None = g.get("table_access")
    if access is None or "token" in values or values.get("table_id") != access.table_id:
        return
    if current_app.url_map.is_endpoint_expecting(endpoint, "token"):
        values["token"] = access.token


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
    if role not in ("edit", "view"):
        abort(404)
    require_table_edit()
    token = rotate(g.table, "edit" if role == "edit" else "view")
    current = token if role == "edit" else table_access().token
    if role == "edit":
        _remember(TableAccess(table_id, token, "edit"))
    return redirect(url_for("table_links.show", table_id=table_id, token=current), code=303)
