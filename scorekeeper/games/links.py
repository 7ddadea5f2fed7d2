"""Capability links: a secret edit link and view link per game, rotatable, no accounts.

Both front doors open a game here, in one way: check the link, and for a change take the
game's lock first, so a second phone's change waits and then sees the first one's.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Literal, Protocol

from sqlalchemy import select

from ..database import lock_game, lock_game_row
from ..extensions import db
from ..models import Game, RetiredLink
from ..rules.messages import N_, Message, msg
from .state import GameState, game_with_facts
from .writes import state_for_change

TOKEN_BYTES = 24  # 192 bits from the OS's CSPRNG; a link is as strong as a password
LARGEST_ID = 2**31 - 1  # the id column's range: a larger id names no game
Role = Literal["edit", "view"]

NO_LINK = N_("Send the game's link token in an Authorization: Bearer header.")
REPLACED = N_("This link was replaced; ask the table for the new one.")
VIEW_ONLY = N_("A view link cannot change the game.")


class LinkRefused(Exception):
    """A link that opens nothing: 401 none given, 404 unknown, 410 replaced, 403 view only."""

    def __init__(self, status: int, message: Message) -> None:
        super().__init__(status)
        self.status = status
        self.message = message


class Links(Protocol):
    """A game's two links: a Game, or a row of its link columns."""

    edit_token: str
    view_token: str


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


def open_game(
    game_id: int, token: str | None, *, change: bool, facts: bool = False
) -> tuple[Game, Access]:
    """The game a link opens (with `facts`, all of them in the same read); a change locks the
    game before anything reads it."""
    if token is None:
        raise LinkRefused(401, msg(NO_LINK))
    if change and game_id <= LARGEST_ID:
        # Locked whatever the link turns out to be: a later change then sees this one's.
        lock_game(game_id)
    game = None
    if game_id <= LARGEST_ID:
        game = game_with_facts(game_id) if facts else db.session.get(Game, game_id)
    return game, _access(game_id, game, token, change)


def open_change(game_id: int, token: str | None) -> tuple[GameState, Access]:
    """The game a link opens for a change to the round being played (games/writes.py): locked
    first, its version and links read with the lock, then its state at that version."""
    if token is None:
        raise LinkRefused(401, msg(NO_LINK))
    row = lock_game_row(game_id) if game_id <= LARGEST_ID else None
    access = _access(game_id, row, token, change=True)
    assert row is not None  # _access refused a missing game
    return state_for_change(game_id, int(row.version)), access


def open_version(game_id: int, token: str | None) -> tuple[int, Access]:
    """The game's version through a link, from its version and links alone: a poll's one query.

    No ORM object is built and the rules are not decoded: a poll is most of a server's work.
    """
    if token is None:
        raise LinkRefused(401, msg(NO_LINK))
    row = None
    if game_id <= LARGEST_ID:
        query = select(Game.id, Game.version, Game.edit_token, Game.view_token)
        row = db.session.execute(query.where(Game.id == game_id)).one_or_none()
    access = _access(game_id, row, token, change=False)
    return int(row.version) if row is not None else 0, access


def _access(game_id: int, game: Links | None, token: str, change: bool) -> Access:
    """What the token may do with this game (None: no such game); refused as LinkRefused."""
    role = None if game is None else role_of(game, token)
    if game is not None and role is None and was_retired(game_id, token):
        raise LinkRefused(410, msg(REPLACED))
    if game is None or role is None:
        # The same answer for a missing game and a wrong link: ids are no secret, links are.
        raise LinkRefused(404, msg(N_("No game %(id)s opens with that link."), id=game_id))
    if change and role != "edit":
        raise LinkRefused(403, msg(VIEW_ONLY))
    return Access(game_id, token, role)


def new_token() -> str:
    """A fresh unguessable link token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def role_of(game: Links, token: str) -> Role | None:
    """Which of the game's links this token is, compared in constant time."""
    edit = secrets.compare_digest(token.encode(), game.edit_token.encode())
    view = secrets.compare_digest(token.encode(), game.view_token.encode())
    return "edit" if edit else "view" if view else None


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


def was_retired(game_id: int, token: str) -> bool:
    """Whether this token was one of the game's links before a rotation."""
    query = select(RetiredLink.token).where(RetiredLink.game_id == game_id)
    retired = db.session.scalars(query)
    return any(secrets.compare_digest(token.encode(), old.encode()) for old in retired)
