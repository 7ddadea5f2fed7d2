"""Buying at the table: each player's "May I?" buys, and the arbiter among several callers."""

from __future__ import annotations

from flask import Blueprint, request, url_for
from werkzeug.wrappers import Response

from ..games import actions
from ..games.may_i import rule_on_call
from ..games.opening import open_for_change, open_for_read
from ..games.refusals import status_of
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from .game_door import current_access
from .posted import posted_action_id, posted_int, posted_version, tap_id
from .rendering import after_change, field_errors, respond

bp = Blueprint("buys", __name__)
arbiter_bp = Blueprint("arbiter", __name__)
PAGE = "games/show.html"
MAX_SEAT = 1_000  # far past any table; the rules say which seats play


def posted_seat() -> int:
    """The seat a form names; -1 (no such seat) when it names none."""
    seat = posted_int("seat", high=MAX_SEAT)
    return -1 if seat is None else seat


def posted_bought_above() -> int | None:
    """Who bought the card above, when the arbiter rules on the next card down; else None."""
    return posted_int("bought_above", high=MAX_SEAT)


@bp.get("/buys")
def index(game_id: int) -> Response:
    """Show each player's buys this round."""
    return respond(PAGE, "games/_buys.html", state=open_for_read(game_id, current_access()))


@bp.post("/buys")
def create(game_id: int) -> Response:
    """Add a "May I?" buy for a player, or say why it is refused."""
    state, seat = open_for_change(game_id, current_access()), posted_seat()
    try:
        changed = actions.add_buy(state, seat, tap_id("buy", seat), posted_version())
    except RuleError as error:
        return _refused(state, seat, error)
    return _changed(changed)


@bp.post("/buys/remove")
def remove(game_id: int) -> Response:
    """Take back a player's last buy this round."""
    state, seat = open_for_change(game_id, current_access()), posted_seat()
    try:
        changed = actions.remove_buy(state, seat, tap_id("take-back", seat), posted_version())
    except RuleError as error:
        return _refused(state, seat, error)
    return _changed(changed)


@bp.post("/down")
def down(game_id: int) -> Response:
    """Mark that a player's contract is down this round, or take the mark back.

    `down` comes in the form, or in the URL of the button that posts the buys region's form.
    """
    state, seat = open_for_change(game_id, current_access()), posted_seat()
    try:
        changed = actions.mark_down(
            state, seat, request.values.get("down") == "1", tap_id("down", seat)
        )
    except RuleError as error:
        return _refused(state, seat, error)
    return _changed(changed)


def _refused(state: GameState, seat: int, error: RuleError) -> Response:
    """The buys region with the refusal at the player it names (nothing was written)."""
    errors = field_errors(error, state.rules)
    return respond(
        PAGE,
        "games/_buys.html",
        status_of(error),
        state=state,
        buy_error=(seat, errors),
        page_errors=errors.get("game", []),
    )


def _changed(state: GameState) -> Response:
    """The buys region after a change (or the page, for a plain form)."""
    location = url_for("game.show", game_id=state.facts.id)
    return after_change(location, "games/_buys.html", state)


@arbiter_bp.post("/arbiter")
def rule(game_id: int) -> Response:
    """Say who gets a discard among the players who called "May I?"."""
    state = open_for_read(game_id, current_access())
    discarder = request.form.get("discarder", type=int)
    callers = request.form.getlist("callers", type=int)
    draws = bool(request.form.get("turn_player_draws"))
    try:
        if discarder is None:
            raise RuleError(actions.CHOOSE_DISCARDER, field="discarder")
        ruling = rule_on_call(state, discarder, callers, draws, posted_bought_above())
    except RuleError as error:
        errors = field_errors(error, state.rules)
        return respond(PAGE, "games/_arbiter.html", 422, state=state, arbiter_errors=errors)
    return respond(PAGE, "games/_arbiter.html", state=state, ruling=ruling)


@arbiter_bp.post("/arbiter/buys")
def add_buy(game_id: int) -> Response:
    """Add the buy the arbiter gave, and close its ruling."""
    state, seat = open_for_change(game_id, current_access()), posted_seat()
    try:
        action_id, version, above = (
            posted_action_id(),
            posted_version(),
            posted_bought_above(),
        )
        changed = actions.add_buy(state, seat, action_id, version, above)
    except RuleError as error:
        errors = {"discarder": field_errors(error, state.rules).popitem()[1]}
        return respond(
            PAGE, "games/_arbiter.html", status_of(error), state=state, arbiter_errors=errors
        )
    location = url_for("game.show", game_id=game_id)
    return after_change(location, "games/_arbiter.html", changed, added=seat)
