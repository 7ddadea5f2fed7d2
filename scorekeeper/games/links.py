"""Capability links: a secret edit link and view link per game, rotatable, no accounts."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Literal

from flask import Blueprint, abort, current_app, g, request, session
from sqlalchemy import select

from ..database import lock_game
from ..extensions import db
from ..models import Game, RetiredLink

TOKEN_BYTES = 24  # 192 bits from the OS's CSPRNG; a link is as strong as a password
REMEMBERED_GAMES = 20
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
Role = Literal["edit", "view"]


@dataclass(frozen=True)
class Access:
    """Which game a link opens and whether it may change it."""

    game_id: int
    token: str
    role: Role

    @property
    def can_edit(self) -> bool:
        """Only the edit link changes anything."""
        return self.role == "edit"


def require_edit() -> None:
    """Refuse a page that only an editor uses (403) to a view link."""
    if not current_access().can_edit:
        abort(403)


def new_token() -> str:
    """A fresh unguessable link token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def role_of(game: Game, token: str) -> Role | None:
    """Which of the game's links this token is, compared in constant time."""
    edit = secrets.compare_digest(token.encode(), game.edit_token.encode())
    view = secrets.compare_digest(token.encode(), game.view_token.encode())
    return "edit" if edit else "view" if view else None


def open_link(game: Game | None, token: str) -> Access:
    """The access a link gives; a replaced link gets its own page, an unknown one 404."""
    role = role_of(game, token) if game is not None else None
    if game is None or role is None:
        abort(410 if game is not None and was_retired(game.id, token) else 404)
    return Access(game.id, token, role)


def rotate(game: Game, role: Role) -> str:
    """Replace one of the game's links; the old one stops working at once."""
    old = game.edit_token if role == "edit" else game.view_token
    db.session.add(RetiredLink(game_id=game.id, token=old))
    token = new_token()
    if role == "edit":
        game.edit_token = token
    else:
        game.view_token = token
    return token


def remember(access: Access) -> None:
    """Keep the link in this browser's session, so the home page can offer it again."""
    kept = [entry for entry in session.get("games", []) if entry[0] != access.game_id]
    session["games"] = [[access.game_id, access.token], *kept][:REMEMBERED_GAMES]


def remembered() -> dict[int, str]:
    """The games this browser has opened, newest first, with the link it used."""
    return {int(game_id): str(token) for game_id, token in session.get("games", [])}


def was_retired(game_id: int, token: str) -> bool:
    """Whether this token was one of the game's links before a rotation."""
    query = select(RetiredLink.token).where(RetiredLink.game_id == game_id)
    retired = db.session.scalars(query)
    return any(secrets.compare_digest(token.encode(), old.encode()) for old in retired)


def protect(bp: Blueprint) -> None:
    """Open the game link in each of the blueprint's URLs; a view link changes nothing."""
    bp.url_value_preprocessor(_open_from_url)
    bp.url_defaults(_link_in_url)


def current_access() -> Access:
    """The link this request came in through."""
    access: Access = g.access
    return access


def _open_from_url(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Resolve /g/<game_id>/<token>/…; changes lock the game before they read it."""
    if not values or "token" not in values:
        return
    game_id, token = values["game_id"], values.pop("token")
    changing = request.method not in SAFE_METHODS
    if changing:
        lock_game(game_id)
    g.access = open_link(db.session.get(Game, game_id), token)
    if changing and not g.access.can_edit:
        abort(403)
    if not changing and not request.headers.get("HX-Request"):
        remember(g.access)


def _link_in_url(endpoint: str, values: dict[str, Any]) -> None:
    """Build this game's URLs with the link the request came in through."""
    access: Access | None = g.get("access")
    if access is None or "token" in values or values.get("game_id") != access.game_id:
        return
    if current_app.url_map.is_endpoint_expecting(endpoint, "token"):
        values["token"] = access.token
