"""Opening a game for a view: the one place both front doors get a game's state from.

The link was checked first (games.game_links.check_link, a GameAccess with the version it read);
a read then takes the state kept for that version, else reads the facts and derives them; a
change locks the game first (unless its link check already did), then does the same at the
version read with the lock. Only here are states kept (kept.keep_state, the one cache).
"""

from __future__ import annotations

from sqlalchemy import select

from ..database import lock_game_row
from ..extensions import db
from ..kept import keep_state, state_at
from ..models import LARGEST_INTEGER, Game
from ..rules.game_state import GameState
from .game_links import GameAccess
from .state import game_state, load_game


def open_for_read(game_id: int, access: GameAccess) -> GameState:
    """The game's state at the version its link check read: kept, else derived and kept."""
    return _at(game_id, access.version)


def open_for_change(game_id: int, access: GameAccess) -> GameState:
    """The game's state for a change: locked (database.lock_game) before its facts are read,
    at the version read with the lock."""
    version = access.version
    if not access.locked:
        row = lock_game_row(game_id) if game_id <= LARGEST_INTEGER else None
        if row is None or row.version is None:
            raise LookupError(f"game {game_id} went away")  # a checked link names a game
        version = int(row.version)
    return _at(game_id, version)


def changed(state: GameState) -> None:
    """Keep the state a change made, after its commit, for the next request to start from."""
    keep_state(state)


def _at(game_id: int, version: int) -> GameState:
    """The state at `version`: kept, else read (in this request's snapshot) and kept."""
    state = state_at(game_id, version)
    if state is None:
        state = game_state(load_game(game_id))
        keep_state(state)
    return state


def as_it_stands(game_id: int) -> GameState:
    """The game's state now, after a refused change rolled back: its version read (one query),
    then the state kept for it (the refused request's own, read with the lock, unless another
    change came since), else the facts read and derived."""
    version = db.session.scalar(select(Game.version).where(Game.id == game_id))
    return reread(game_id) if version is None else _at(game_id, version)


def reread(game_id: int) -> GameState:
    """The game's state as it stands now, its facts read again: after a change that answers no
    state (a new game, a hand sent back to its phone) committed, or after a refusal rolled back."""
    state = game_state(load_game(game_id))
    keep_state(state)
    return state
