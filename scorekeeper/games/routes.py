"""The game screens: start a game, the round screen, buys, the stock, undo, play again."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..extensions import db
from ..i18n import translate
from ..models import Player
from ..rules.errors import RuleError
from ..rules.presets import PRESETS
from ..web import after_change, field_errors, go_to, respond
from . import actions, history
from .calls import rule_on_call
from .forms import NewGameForm
from .state import game_state, load_game

bp = Blueprint("games", __name__, url_prefix="/games")
ARBITER_PAGE, ARBITER = "games/show.html", "games/_arbiter.html"


def _new_page(form: NewGameForm, status: int = 200) -> Response:
    """The new-game page with the names players used before offered as they type."""
    known = db.session.scalars(select(Player.name).order_by(Player.id.desc()).limit(200))
    return respond("games/new.html", "games/new.html", status, form=form, known=list(known))


@bp.get("/new")
def new() -> Response:
    """Show the form to start a game."""
    return _new_page(NewGameForm())


@bp.post("/")
def create() -> Response:
    """Start a game, or move a player up the seat order and show the form again."""
    form = NewGameForm()
    if move := request.form.get("move", ""):
        form.move_up(move)
        return _new_page(form)
    if not form.validate():
        return _new_page(form, 422)
    first = int(form.first_dealer.data) if form.first_dealer.data else None
    decks = int(form.decks.data) if form.decks.data else None
    try:
        game = actions.create_game(PRESETS[form.ruleset.data], form.names(), first, decks)
    except RuleError as error:
        form.form_errors.append(translate(error.message))
        return _new_page(form, 422)
    return redirect(url_for("games.show", game_id=game.id), code=303)


@bp.get("/<int:game_id>")
def show(game_id: int) -> Response:
    """Show the round screen: what to deal, the contract, buys, the stock, the standings."""
    state = game_state(load_game(game_id))
    return respond("games/show.html", "games/show.html", state=state)


@bp.get("/<int:game_id>/buys")
def buys(game_id: int) -> Response:
    """Show each player's buys this round."""
    state = game_state(load_game(game_id))
    return respond("games/show.html", "games/_buys.html", state=state)


@bp.post("/<int:game_id>/buys")
def buy(game_id: int) -> Response:
    """Record a "May I?" buy for a player, or say why the rules refuse it."""
    game = load_game(game_id)
    seat = request.form.get("seat", type=int)
    try:
        actions.record_buy(game, -1 if seat is None else seat, request.form.get("action_id"))
    except RuleError as error:
        state = game_state(load_game(game_id))
        return respond(
            "games/show.html",
            "games/_buys.html",
            422,
            state=state,
            buy_error=(seat, field_errors(error)),
            page_errors=field_errors(error).get("game", []),
        )
    state = game_state(load_game(game_id))
    return after_change(
        url_for("games.show", game_id=game_id), "games/show.html", "games/_buys.html", state=state
    )


@bp.post("/<int:game_id>/buys/remove")
def remove_buy(game_id: int) -> Response:
    """Take back a player's last buy this round."""
    game = load_game(game_id)
    seat = request.form.get("seat", type=int)
    try:
        actions.remove_buy(game, -1 if seat is None else seat, request.form.get("action_id"))
    except RuleError as error:
        state = game_state(load_game(game_id))
        return respond(
            "games/show.html",
            "games/_buys.html",
            422,
            state=state,
            buy_error=(seat, field_errors(error)),
            page_errors=field_errors(error).get("game", []),
        )
    state = game_state(load_game(game_id))
    return after_change(
        url_for("games.show", game_id=game_id), "games/show.html", "games/_buys.html", state=state
    )


@bp.post("/<int:game_id>/arbiter")
def arbiter(game_id: int) -> Response:
    """Say who gets a discard among the players who called "May I?"."""
    state = game_state(load_game(game_id))
    discarder = request.form.get("discarder", type=int)
    callers = request.form.getlist("callers", type=int)
    draws = bool(request.form.get("turn_player_draws"))
    if discarder is None:
        errors = {"discarder": [_("Choose who discarded.")]}
        return respond(ARBITER_PAGE, ARBITER, 422, state=state, arbiter_errors=errors)
    try:
        ruling = rule_on_call(state, discarder, callers, draws)
    except RuleError as error:
        errors = field_errors(error)
        return respond(ARBITER_PAGE, ARBITER, 422, state=state, arbiter_errors=errors)
    return respond(ARBITER_PAGE, ARBITER, state=state, ruling=ruling)


@bp.post("/<int:game_id>/arbiter/buys")
def arbiter_buy(game_id: int) -> Response:
    """Record the buy the arbiter gave, and close its ruling."""
    game = load_game(game_id)
    seat = request.form.get("seat", type=int)
    try:
        actions.record_buy(game, -1 if seat is None else seat, request.form.get("action_id"))
    except RuleError as error:
        state = game_state(load_game(game_id))
        errors = {"discarder": [translate(error.message)]}
        return respond(ARBITER_PAGE, ARBITER, 422, state=state, arbiter_errors=errors)
    state = game_state(load_game(game_id))
    location = url_for("games.show", game_id=game_id)
    return after_change(location, ARBITER_PAGE, ARBITER, state=state, recorded=seat)


@bp.get("/<int:game_id>/stock")
def stock(game_id: int) -> Response:
    """Show how often the stock ran out this round."""
    state = game_state(load_game(game_id))
    return respond("games/show.html", "games/_stock.html", state=state)


@bp.post("/<int:game_id>/run-outs")
def run_out(game_id: int) -> Response:
    """Record that the stock ran out: re-form it, or end the round and go to scoring."""
    game = load_game(game_id)
    seen = request.form.get("seen", type=int)
    try:
        outcome = actions.record_run_out(game, seen, request.form.get("action_id"))
    except RuleError as error:
        state = game_state(load_game(game_id))
        return respond(
            "games/show.html",
            "games/_stock.html",
            422,
            state=state,
            stock_errors=field_errors(error),
        )
    state = game_state(load_game(game_id))
    if outcome.ends_round and state.current is not None:
        return go_to(url_for("rounds.edit", game_id=game_id, number=state.current.number))
    return after_change(
        url_for("games.show", game_id=game_id),
        "games/show.html",
        "games/_stock.html",
        state=state,
        instruction=outcome.instruction,
    )


@bp.get("/<int:game_id>/standings")
def standings(game_id: int) -> Response:
    """Show the running or final standings."""
    state = game_state(load_game(game_id))
    return respond("games/show.html", "games/_standings.html", state=state)


@bp.get("/<int:game_id>/sheet")
def sheet(game_id: int) -> Response:
    """Show the score sheet: rounds by players, running totals, and the history."""
    game = load_game(game_id)
    state = game_state(game)
    return respond(
        "games/sheet.html", "games/_sheet.html", state=state, changes=history.changes(game)
    )


@bp.post("/<int:game_id>/undo")
def undo(game_id: int) -> Response:
    """Undo the last change made to the game."""
    game = load_game(game_id)
    try:
        actions.undo_last(game, request.form.get("action_id"))
    except RuleError as error:
        flash(translate(error.message), "error")
    target = request.form.get("next", "")
    if not target.startswith("/") or target.startswith("//"):
        target = url_for("games.show", game_id=game_id)
    return redirect(target, code=303)


@bp.post("/<int:game_id>/again")
def again(game_id: int) -> Response:
    """Start a new game with the same players, seats and rules; the app cuts for deal."""
    state = game_state(load_game(game_id))
    game = actions.create_game(state.rules, list(state.names), None, state.game.decks)
    return redirect(url_for("games.show", game_id=game.id), code=303)
