"""A game's capability links: its edit and view link, opened the one way both front doors use.

Both front doors open a game here: check the link, and for a change take the game's lock
first, so a second phone's change waits and then sees the first one's. What a game's links
share with a table's (tokens, refusals, rotation) is in capability_links.
"""

from __future__ import annotations

from sqlalchemy import select

from ..capability_links import (
    LARGEST_ID,
    Access,
    LinkKind,
    LinkRefused,
    Role,
    checked,
    open_link,
)
from ..capability_links import rotate as rotate_link
from ..database import lock_game, lock_game_row
from ..extensions import db
from ..models import Game, RetiredLink
from ..rules.messages import N_, msg
from .state import GameState, game_with_facts
from .writes import state_for_change

NO_LINK = N_("Send the game's link token in an Authorization: Bearer header.")
GAME_LINKS = LinkKind(
    retired=RetiredLink,
    owner="game_id",
    lock=lock_game,
    unknown=N_("No game %(id)s opens with that link."),
    view_only=N_("A view link cannot change the game."),
)


def open_game(
    game_id: int, token: str | None, *, change: bool, facts: bool = False
) -> tuple[Game, Access]:
    """The game a link opens (with `facts`, all of them in the same read); a change locks the
    game before anything reads it."""
    if token is None:
        raise LinkRefused(401, msg(NO_LINK))
    load = game_with_facts if facts else _game_row
    return open_link(GAME_LINKS, game_id, token, change=change, load=load)


def open_change(game_id: int, token: str | None) -> tuple[GameState, Access]:
    """The game a link opens for a change to the round being played (games/writes.py): locked
    first, its version and links read with the lock, then its state at that version."""
    if token is None:
        raise LinkRefused(401, msg(NO_LINK))
    row = lock_game_row(game_id) if game_id <= LARGEST_ID else None
    found, access = checked(GAME_LINKS, game_id, row, token, change=True)
    return state_for_change(game_id, int(found.version)), access


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
    found, access = checked(GAME_LINKS, game_id, row, token, change=False)
    return int(found.version), access


def rotate(game: Game, role: Role) -> str:
    """Replace one of the game's links; the old one stops working at once."""
    return rotate_link(GAME_LINKS, game, role)


def _game_row(game_id: int) -> Game | None:
    """The game's own row, without its facts."""
    return db.session.get(Game, game_id)
