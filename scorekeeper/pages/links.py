"""A game's links in the HTML front door: open the link in each game URL, remember it, share it.

What a game's links share with a table's is in capability_links (LinkDoor).
"""

from __future__ import annotations

from flask import Blueprint, abort, g, request
from werkzeug.wrappers import Response

from ..capability_links import Access, role_of
from ..games import actions
from ..games.links import open_change, open_game, open_version
from ..games.state import GameState, game_state, kept_states, load_game, recent_games
from .capability_links import LinkDoor, role_named
from .rendering import respond

REMEMBERED_GAMES = 20
GAME = "/g/<int:game_id>/<token>"
POLL = "games.version"  # reads the game's version and links alone: one light query
# Pages that show a game's state alone: a kept state (per game and version) spares its facts.
KEEPING = frozenset(
    {
        "games.show",
        "games.header",
        "games.standings",
        "games.sheet",
        "buys.index",
        "stock.show",
        "display.show",
    }
)
# Changes to the round being played: they start from the state at the version read with the
# lock (games/writes.py), kept or derived, and write past the ORM.
ROUND_CHANGES = frozenset(
    {
        "buys.create",
        "buys.remove",
        "buys.down",
        "arbiter.record_buy",
        "stock.run_out",
        "calls.record",  # a seat's call recorded as a buy (pages/seats.py)
    }
)


def _open(game_id: int, token: str, changing: bool) -> Access:
    """Check the game's link; the poll and kept pages spare the game's facts when they can."""
    if request.endpoint == POLL:
        g.version, access = open_version(game_id, token)
        return access
    if request.endpoint in ROUND_CHANGES:
        g.locked_state, access = open_change(game_id, token)
        return access
    if request.endpoint in KEEPING:
        version, access = open_version(game_id, token)
        g.state = kept_states().get(game_id, version)
        if g.state is not None:
            return access
    # Kept on g: the session holds loaded rows weakly, and a view reads this one again.
    g.game, access = open_game(game_id, token, change=changing, facts=True)
    return access


GAMES = LinkDoor(
    id_name="game_id",
    access_key="access",
    session_key="games",
    most=REMEMBERED_GAMES,
    page="games.show",
    share_page="links.show",
    opens=_open,
    unremembered=(POLL,),
)
protect = GAMES.protect
current_access = GAMES.access
require_edit = GAMES.require_edit
remember = GAMES.remember
remembered = GAMES.remembered
open_in_browser = GAMES.open_in_browser


def openable_games() -> list[GameState]:
    """The remembered games whose link still opens them (a replaced link shows nothing)."""
    tokens = remembered()
    return [
        state
        for state in recent_games(tokens)
        if role_of(state.game, tokens[state.game.id]) is not None
    ]


def locked_state() -> GameState:
    """The state a round change starts from: the game's at the version read with its lock."""
    state: GameState = g.locked_state
    return state


def shown_state(game_id: int, version: int | None = None) -> GameState:
    """The state a page shows: kept for this version, else derived from the facts and kept.

    For the pages in KEEPING and the poll (which names the version it read) only: they change
    nothing, so the state they keep is never written through.
    """
    state: GameState | None = g.get("state")
    if state is None and version is not None:
        state = kept_states().get(game_id, version)
    if state is None:
        state = game_state(load_game(game_id))
        kept_states().keep(state)
    return state


bp = Blueprint("links", __name__, url_prefix=GAME)
protect(bp)


@bp.get("/share")
def show(game_id: int) -> Response:
    """Show the game's links with QR codes: the view link to all, the edit link to editors."""
    state = game_state(load_game(game_id))
    return respond("games/share.html", "games/share.html", state=state)


@bp.get("/links/<role>")
def confirm_replace(game_id: int, role: str) -> Response:
    """Say what replacing a link does before it is done: the old link stops working."""
    role_named(role)
    if not current_access().can_edit:
        abort(404)  # a view link is not told that its page exists
    state = game_state(load_game(game_id))
    return respond("games/replace_link.html", "games/replace_link.html", state=state, role=role)


@bp.post("/links/<role>")
def replace(game_id: int, role: str) -> Response:
    """Replace the edit or view link; whoever holds the old one is locked out at once."""
    replacing = role_named(role)
    token = actions.rotate_link(load_game(game_id), replacing)
    return GAMES.replaced(game_id, replacing, token)
