"""The table display: a propped-up tablet showing the round in big type, updating live."""

from __future__ import annotations

from flask import Blueprint
from werkzeug.wrappers import Response

from ..games.state import game_state, load_game
from .links import GAME, protect
from .rendering import respond

bp = Blueprint("display", __name__, url_prefix=GAME)
protect(bp)


@bp.get("/display")
def show(game_id: int) -> Response:
    """Show the round for the whole table: contract, dealer, buys left, stock, standings."""
    state = game_state(load_game(game_id))
    return respond("games/display.html", "games/_display.html", state=state)
