"""The table display: a propped-up tablet showing the round in big type, updating live."""

from __future__ import annotations

from flask import Blueprint
from werkzeug.wrappers import Response

from .links import GAME, protect, shown_state
from .rendering import respond

bp = Blueprint("display", __name__, url_prefix=GAME)
protect(bp)


@bp.get("/display")
def show(game_id: int) -> Response:
    """Show the round for the whole table: contract, dealer, buys left, stock, standings."""
    state = shown_state(game_id)
    return respond("games/display.html", "games/_display.html", state=state)
