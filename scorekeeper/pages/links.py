"""The HTML side of capability links: open the link in each game URL, remember it, share it."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, g, redirect, request, session, url_for
from werkzeug.wrappers import Response

from ..games import actions
from ..games.links import Access, LinkRefused, open_change, open_game, open_version, role_of
from ..games.state import GameState, game_state, kept_states, load_game, recent_games
from .rendering import respond

REMEMBERED_GAMES = 20
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
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
    {"buys.create", "buys.remove", "buys.down", "arbiter.record_buy", "stock.run_out"}
)


def protect(blueprint: Blueprint) -> None:
    """Open the game link in each of the blueprint's URLs; a view link changes nothing."""
    blueprint.url_value_preprocessor(_open_from_url)
    blueprint.url_defaults(_link_in_url)


def current_access() -> Access:
    """The link this request came in through."""
    access: Access = g.access
    return access


def require_edit() -> None:
    """Refuse a page that only an editor uses (403) to a view link."""
    if not current_access().can_edit:
        abort(403)


def locked_state() -> GameState:
    """The state a round change starts from: the game's at the version read with its lock."""
    state: GameState = g.locked_state
    return state


def remember(access: Access) -> None:
    """Keep the link in this browser's session, so the home page can offer it again."""
    kept = [entry for entry in session.get("games", []) if entry[0] != access.game_id]
    session["games"] = [[access.game_id, access.token], *kept][:REMEMBERED_GAMES]


def remembered() -> dict[int, str]:
    """The games this browser has opened, newest first, with the link it used."""
    return {int(game_id): str(token) for game_id, token in session.get("games", [])}


def openable_games() -> list[GameState]:
    """The remembered games whose link still opens them (a replaced link shows nothing)."""
    tokens = remembered()
    return [
        state
        for state in recent_games(tokens)
        if role_of(state.game, tokens[state.game.id]) is not None
    ]


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


def open_in_browser(game_id: int, token: str) -> Response:
    """Go to a game through its edit link, and remember the link in this browser."""
    remember(Access(game_id, token, "edit"))
    return redirect(url_for("games.show", game_id=game_id, token=token), code=303)


def _open_from_url(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Resolve /g/<game_id>/<token>/…; changes lock the game before they read it."""
    if not values or "token" not in values:
        return
    changing = request.method not in SAFE_METHODS
    game_id, token = values["game_id"], values.pop("token")
    try:
        if request.endpoint == POLL:
            g.version, g.access = open_version(game_id, token)
            return
        if request.endpoint in ROUND_CHANGES:
            g.locked_state, g.access = open_change(game_id, token)
            return
        if request.endpoint in KEEPING:
            version, g.access = open_version(game_id, token)
            g.state = kept_states().get(game_id, version)
        if g.get("state") is None:
            # Kept on g: the session holds loaded rows weakly, and a view reads this one again.
            g.game, g.access = open_game(game_id, token, change=changing, facts=True)
    except LinkRefused as refusal:
        abort(refusal.status)
    if not changing and not request.headers.get("HX-Request"):
        remember(g.access)


def _link_in_url(endpoint: str, values: dict[str, Any]) -> None:
    """Build this game's URLs with the link the request came in through."""
    access: Access | None = g.get("access")
    if access is None or "token" in values or values.get("game_id") != access.game_id:
        return
    if current_app.url_map.is_endpoint_expecting(endpoint, "token"):
        values["token"] = access.token


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
    if role not in ("edit", "view") or not current_access().can_edit:
        abort(404)
    state = game_state(load_game(game_id))
    return respond("games/replace_link.html", "games/replace_link.html", state=state, role=role)


@bp.post("/links/<role>")
def replace(game_id: int, role: str) -> Response:
    """Replace the edit or view link; whoever holds the old one is locked out at once."""
    if role not in ("edit", "view"):
        abort(404)
    game = load_game(game_id)
    token = actions.rotate_link(game, "edit" if role == "edit" else "view")
    current = token if role == "edit" else current_access().token
    if role == "edit":
        remember(Access(game.id, token, "edit"))
    return redirect(url_for("links.show", game_id=game_id, token=current), code=303)
