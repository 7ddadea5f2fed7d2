"""A game's links in the HTML front door: open the link in each game URL, remember it, share it.

What a game's links share with a table's is in link_doors (LinkDoor).
"""

from __future__ import annotations

from flask import Blueprint, abort
from werkzeug.wrappers import Response

from ..games import actions
from ..games.game_links import GameAccess, check_link
from ..games.opening import open_for_change, open_for_read
from ..games.state import recent_games
from ..link_tokens import Access, role_of
from ..rules.game_state import GameState
from .link_doors import LinkDoor, role_named
from .rendering import respond

REMEMBERED_GAMES = 20
GAME = "/g/<int:game_id>/<token>"


def _check(game_id: int, token: str, changing: bool) -> Access:
    """Check the game's link, nothing more; a change's check takes the game's lock."""
    return check_link(game_id, token, change=changing)


GAMES = LinkDoor(
    id_name="game_id",
    access_key="access",
    session_key="games",
    most=REMEMBERED_GAMES,
    page="game.show",
    share_page="game.share",
    opens=_check,
    unremembered=("game.version",),  # a poll is no visit
)
# Every page of a game is nested under it (pages/__init__.py): the link is checked once here.
door = Blueprint("game", __name__, url_prefix=GAME)
GAMES.protect(door)


def current_access() -> GameAccess:
    """The game link this request came in through, with the version its check read."""
    access = GAMES.access()
    assert isinstance(access, GameAccess)  # _check made it
    return access


def openable_games() -> list[GameState]:
    """The remembered games whose link still opens them (a replaced link shows nothing)."""
    tokens = GAMES.remembered()
    return [
        state
        for state in recent_games(tokens)
        if role_of(state.facts, tokens[state.facts.id]) is not None
    ]


@door.get("/share")
def share(game_id: int) -> Response:
    """Show the game's links with QR codes: the view link to all, the edit link to editors."""
    state = open_for_read(game_id, current_access())
    return respond("games/share.html", "games/share.html", state=state)


@door.get("/links/<role>")
def confirm_replace(game_id: int, role: str) -> Response:
    """Say what replacing a link does before it is done: the old link stops working."""
    role_named(role)
    if not current_access().can_edit:
        abort(404)  # a view link is not told that its page exists
    state = open_for_read(game_id, current_access())
    return respond("games/replace_link.html", "games/replace_link.html", state=state, role=role)


@door.post("/links/<role>")
def replace_link(game_id: int, role: str) -> Response:
    """Replace the edit or view link; whoever holds the old one is locked out at once."""
    replacing = role_named(role)
    replaced = actions.rotate_link(open_for_change(game_id, current_access()), replacing).facts
    return GAMES.replaced(
        game_id, replacing, replaced.edit_token if replacing == "edit" else replaced.view_token
    )
