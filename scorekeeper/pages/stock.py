"""The stock at the table: how often it ran out this round, and noting a run-out."""

from __future__ import annotations

from flask import Blueprint, url_for
from werkzeug.wrappers import Response

from ..games import actions
from ..games.opening import open_for_change, open_for_read
from ..rules.errors import RuleError
from .game_door import current_access
from .posted import posted_action_id, posted_int
from .rendering import after_change, field_errors, go_to, respond

bp = Blueprint("stock", __name__)
PAGE = "games/show.html"


@bp.get("/stock")
def show(game_id: int) -> Response:
    """Show how often the stock ran out this round."""
    return respond(PAGE, "games/_stock.html", state=open_for_read(game_id, current_access()))


@bp.post("/run-outs")
def run_out(game_id: int) -> Response:
    """Note that the stock ran out: re-form it, or end the round and go to scoring."""
    state, seen = open_for_change(game_id, current_access()), posted_int("seen")
    try:
        outcome, changed = actions.add_run_out(state, seen, posted_action_id())
    except RuleError as error:
        return respond(
            PAGE,
            "games/_stock.html",
            422,
            state=state,
            stock_errors=field_errors(error, state.rules),
        )
    if outcome.ends_round and changed.current is not None:
        return go_to(url_for("game.rounds.edit", game_id=game_id, number=changed.current.number))
    location = url_for("game.show", game_id=game_id)
    return after_change(location, "games/_stock.html", changed)
