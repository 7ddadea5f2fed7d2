"""The table display: a propped-up tablet showing the round in big type, updating live."""

from __future__ import annotations

from flask import Blueprint
from werkzeug.wrappers import Response

from ..games.opening import open_for_read
from .game_door import current_access
from .rendering import respond

bp = Blueprint("display", __name__)


@bp.get("/display")
def show(game_id: int) -> Response:
    """Show the round for the whole table: contract, dealer, buys left, stock, standings."""
    state = open_for_read(game_id, current_access())
    return respond("games/display.html", "games/_display.html", state=state)
