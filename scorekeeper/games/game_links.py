"""A game's capability links: its edit and view link, opened the one way both front doors use.

Both front doors open a game here: check the link, and for a change take the game's lock
first, so a second phone's change waits and then sees the first one's. What a game's links
share with a table's (tokens, refusals, retiring a replaced link) is in link_tokens; a game's
new link is written here, in plain statements, as every change of a game is (games/writes.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, update

from ..database import lock_game, lock_game_row
from ..extensions import db
from ..link_tokens import Access, LinkKind, LinkRefused, Role, checked, retire
from ..models import LARGEST_INTEGER, Game, RetiredLink
from ..rules.game_facts import GameFacts
from ..rules.messages import N_, msg

NO_LINK = N_("Send the game's link token in an Authorization: Bearer header.")
GAME_LINKS = LinkKind(
    retired=RetiredLink,
    owner="game_id",
    lock=lock_game,
    unknown=N_("No game %(id)s opens with that link."),
    view_only=N_("A view link cannot change the game."),
)


@dataclass(frozen=True)
class GameAccess(Access):
    """A game's link as checked: the game, the role, and the version read with the check
    (`locked`: read with the game's lock, for a change)."""

    version: int = 0
    locked: bool = False

    @property
    def game_id(self) -> int:
        """The game the link opens."""
        return self.id


def check_link(game_id: int, token: str | None, *, change: bool) -> GameAccess:
    """What a link may do with a game, from its version and links alone, compared in constant
    time; a change reads them with the game's lock (database.lock_game_row), so nothing it
    reads later can be older. One query: no facts, no rule set, no ORM object."""
    if token is None:
        raise LinkRefused(401, msg(NO_LINK))
    row = None
    if game_id <= LARGEST_INTEGER:
        if change:
            row = lock_game_row(game_id)
        else:
            query = select(Game.id, Game.version, Game.edit_token, Game.view_token)
            row = db.session.execute(query.where(Game.id == game_id)).one_or_none()
    found, access = checked(GAME_LINKS, game_id, row, token, change=change)
    return GameAccess(game_id, token, access.role, int(found.version), locked=change)


def rotate(game: GameFacts, role: Role) -> str:
    """Replace one of the game's links in plain statements: the old one retired as a table's
    is (link_tokens.retire), the new one written. The caller writes the history entry and
    commits."""
    token = retire(GAME_LINKS, game.id, game.edit_token if role == "edit" else game.view_token)
    column = Game.edit_token if role == "edit" else Game.view_token
    db.session.connection().execute(update(Game).where(Game.id == game.id).values({column: token}))
    return token
