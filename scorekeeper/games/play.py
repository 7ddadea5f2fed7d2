"""Play at the table: "May I?" buys, the arbiter, and the stock running out."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, request, url_for
from werkzeug.wrappers import Response

from ..i18n import translate
from ..rules.errors import RuleError
from ..web import after_change, field_errors, go_to, respond
from . import actions, links
from .calls import rule_on_call
from .state import game_state, load_game

bp = Blueprint("play", __name__, url_prefix="/g/<int:game_id>/<token>")
links.protect(bp)
PAGE = "games/show.html"


def _status(error: RuleError) -> int:
    """409 when another phone got there first, else 422."""
    return 409 if isinstance(error, actions.Conflict) else 422


def _seat() -> int:
    """The seat a form names; -1 (no such seat) when it names none."""
    seat = request.form.get("seat", type=int)
    return -1 if seat is None else seat


def _base_version() -> int | None:
    """The game version the phone saw when it showed the form."""
    return request.form.get("version", type=int)


@bp.get("/buys")
def buys(game_id: int) -> Response:
    """Show each player's buys this round."""
    return respond(PAGE, "games/_buys.html", state=game_state(load_game(game_id)))


@bp.post("/buys")
def buy(game_id: int) -> Response:
    """Record a "May I?" buy for a player, or say why it is refused."""
    return _change_buys(game_id, actions.record_buy)


@bp.post("/buys/remove")
def remove_buy(game_id: int) -> Response:
    """Take back a player's last buy this round."""
    return _change_buys(game_id, actions.remove_buy)


def _change_buys(game_id: int, action: Callable[..., None]) -> Response:
    """Run a buy action and answer the buys fragment (or the page), refusals at the player."""
    seat = _seat()
    try:
        action(load_game(game_id), seat, request.form.get("action_id"), _base_version())
    except RuleError as error:
        state = game_state(load_game(game_id))
        errors = field_errors(error)
        return respond(
            PAGE,
            "games/_buys.html",
            _status(error),
            state=state,
            buy_error=(seat, errors),
            page_errors=errors.get("game", []),
        )
    state = game_state(load_game(game_id))
    location = url_for("games.show", game_id=game_id)
    return after_change(location, PAGE, "games/_buys.html", state=state)


@bp.post("/arbiter")
def arbiter(game_id: int) -> Response:
    """Say who gets a discard among the players who called "May I?"."""
    state = game_state(load_game(game_id))
    discarder = request.form.get("discarder", type=int)
    callers = request.form.getlist("callers", type=int)
    draws = bool(request.form.get("turn_player_draws"))
    try:
        if discarder is None:
            raise RuleError(actions.CHOOSE_DISCARDER, field="discarder")
        ruling = rule_on_call(state, discarder, callers, draws)
    except RuleError as error:
        errors = field_errors(error)
        return respond(PAGE, "games/_arbiter.html", 422, state=state, arbiter_errors=errors)
    return respond(PAGE, "games/_arbiter.html", state=state, ruling=ruling)


@bp.post("/arbiter/buys")
def arbiter_buy(game_id: int) -> Response:
    """Record the buy the arbiter gave, and close its ruling."""
    seat = _seat()
    try:
        actions.record_buy(load_game(game_id), seat, request.form.get("action_id"), _base_version())
    except RuleError as error:
        state = game_state(load_game(game_id))
        errors = {"discarder": [translate(error.message)]}
        return respond(
            PAGE, "games/_arbiter.html", _status(error), state=state, arbiter_errors=errors
        )
    state = game_state(load_game(game_id))
    location = url_for("games.show", game_id=game_id)
    return after_change(location, PAGE, "games/_arbiter.html", state=state, recorded=seat)


@bp.get("/stock")
def stock(game_id: int) -> Response:
    """Show how often the stock ran out this round."""
    return respond(PAGE, "games/_stock.html", state=game_state(load_game(game_id)))


@bp.post("/run-outs")
def run_out(game_id: int) -> Response:
    """Record that the stock ran out: re-form it, or end the round and go to scoring."""
    seen = request.form.get("seen", type=int)
    try:
        outcome = actions.record_run_out(load_game(game_id), seen, request.form.get("action_id"))
    except RuleError as error:
        state = game_state(load_game(game_id))
        return respond(
            PAGE, "games/_stock.html", 422, state=state, stock_errors=field_errors(error)
        )
    state = game_state(load_game(game_id))
    if outcome.ends_round and state.current is not None:
        return go_to(url_for("rounds.edit", game_id=game_id, number=state.current.number))
    location = url_for("games.show", game_id=game_id)
    return after_change(
        location, PAGE, "games/_stock.html", state=state, instruction=outcome.instruction
    )
