"""The HTML side of capability links, games' and tables' alike: open the link in each URL,
remember it in this browser, and come back to the share page after a replacement."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, current_app, g, redirect, request, session, url_for
from werkzeug.wrappers import Response

from ..link_tokens import ROLES, Access, LinkRefused, Role

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def remember_link(key: str, owner_id: int, token: str, most: int) -> None:
    """Keep a link in this browser's session, newest first, so the home page offers it again.

    The session is a cookie: a browser keeps its `most` newest links of a kind only. A link
    already the newest leaves it as it is, so the cookie is not signed and sent again.

    Measured (issue 37 step 3, callgrind as `bench/cost_table.py` counts, SQLite,
    2026-12-05, taken out of the finished step): the round screen 12.51M -> 11.89M
    instructions a request (-5.0 %), the score sheet 11.82M -> 11.18M (-5.4 %).
    """
    known = session.get(key, [])
    if known[:1] == [[owner_id, token]]:
        return
    kept = [entry for entry in known if entry[0] != owner_id]
    session[key] = [[owner_id, token], *kept][:most]


def remembered_links(key: str) -> dict[int, str]:
    """The links of a kind this browser has kept, newest first, by the id they open."""
    return {int(owner_id): str(token) for owner_id, token in session.get(key, [])}


@dataclass(frozen=True)
class LinkDoor:
    """One kind of link's URLs (/g/<game_id>/<token>/…, /t/<table_id>/<token>/…), opened once.

    `opens` checks the link (a game's views then open the game themselves, a table's take the
    row its check read); LinkRefused becomes its status. Reads through a link remember it,
    except on the `unremembered` endpoints.
    """

    id_name: str  # the URL value naming the game or table
    access_key: str  # where on g the request's Access is kept
    session_key: str
    most: int  # how many links of this kind a browser remembers
    page: str  # the endpoint a link opens
    share_page: str
    opens: Callable[[int, str, bool], Access]
    unremembered: Collection[str] = ()

    def protect(self, blueprint: Blueprint) -> None:
        """Open the link in each URL of the blueprint and those nested under it, once; a view
        link changes nothing."""
        blueprint.url_value_preprocessor(self._open_from_url)
        blueprint.url_defaults(self._link_in_url)

    def access(self) -> Access:
        """The link this request came in through."""
        access: Access = g.get(self.access_key)
        return access

    def require_edit(self) -> None:
        """Refuse a page that only an editor uses (403) to a view link."""
        if not self.access().can_edit:
            abort(403)

    def remember(self, access: Access) -> None:
        """Keep the link in this browser's session, so the home page can offer it again."""
        remember_link(self.session_key, access.id, access.token, self.most)

    def remembered(self) -> dict[int, str]:
        """What this browser has opened, newest first, with the link it used."""
        return remembered_links(self.session_key)

    def open_in_browser(self, owner_id: int, token: str) -> Response:
        """Go to it through its edit link, and remember the link in this browser."""
        self.remember(Access(owner_id, token, "edit"))
        values: dict[str, Any] = {self.id_name: owner_id, "token": token}
        return redirect(url_for(self.page, **values), code=303)

    def replaced(self, owner_id: int, role: Role, token: str) -> Response:
        """Back to the share page after a replacement, through the link this browser holds now."""
        current = token if role == "edit" else self.access().token
        if role == "edit":
            self.remember(Access(owner_id, token, "edit"))
        values: dict[str, Any] = {self.id_name: owner_id, "token": current}
        return redirect(url_for(self.share_page, **values), code=303)

    def _open_from_url(self, _endpoint: str | None, values: dict[str, Any] | None) -> None:
        """Resolve the link in the URL; changes lock before they read."""
        if not values or "token" not in values or self.id_name not in values:
            return
        changing = request.method not in SAFE_METHODS
        try:
            access = self.opens(values[self.id_name], values.pop("token"), changing)
        except LinkRefused as refusal:
            abort(refusal.status)
        setattr(g, self.access_key, access)
        if changing or request.headers.get("HX-Request"):
            return
        if request.endpoint not in self.unremembered:
            self.remember(access)

    def _link_in_url(self, endpoint: str, values: dict[str, Any]) -> None:
        """Build URLs with the link the request came in through."""
        access: Access | None = g.get(self.access_key)
        if access is None or "token" in values or values.get(self.id_name) != access.id:
            return
        if current_app.url_map.is_endpoint_expecting(endpoint, "token"):
            values["token"] = access.token


def role_named(name: str) -> Role:
    """The link a URL names, edit or view; 404 for any other word."""
    if name not in ROLES:
        abort(404)
    return "edit" if name == "edit" else "view"
