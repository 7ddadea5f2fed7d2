"""The game pages: start a game, the round screen, the score sheet, sharing, live updates."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..extensions import db
from ..i18n import translate
from ..models import Game, Player
from ..rules.card import rules_card, summary
from ..rules.errors import RuleError
from ..rules.presets import PRESETS
from ..web import respond
from . import actions, history, links
from .forms import NewGameForm
from .state import game_state, load_game

bp = Blueprint("games", __name__)
links.protect(bp)
GAME = "/g/<int:game_id>/<token>"


def _new_page(form: NewGameForm, status: int = 200) -> Response:
    """The new-game page with the names players used before offered as they type."""
    known = db.session.scalars(select(Player.name).order_by(Player.id.desc()).limit(200))
    return respond("games/new.html", "games/new.html", status, form=form, known=list(known))


def _open(game: Game) -> Response:
    """Go to a game through its edit link, and remember the link in this browser."""
    links.remember(links.Access(game.id, game.edit_token, "edit"))
    return redirect(url_for("games.show", game_id=game.id, token=game.edit_token), code=303)


@bp.get("/games/new")
def new() -> Response:
    """Show the form to start a game, with a rule set chosen from its rules card."""
    form = NewGameForm()
    if request.args.get("ruleset") in PRESETS:
        form.ruleset.data = request.args["ruleset"]
    return _new_page(form)


@bp.post("/games/")
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
    return _open(game)


@bp.get(GAME)
def show(game_id: int) -> Response:
    """Show the round screen: what to deal, the contract, buys, the stock, the standings."""
    state = game_state(load_game(game_id))
    return respond("games/show.html", "games/show.html", state=state)


@bp.get(f"{GAME}/header")
def header(game_id: int) -> Response:
    """Show the current round's contract and table set-up."""
    state = game_state(load_game(game_id))
    return respond("games/show.html", "games/_round_header.html", state=state)


@bp.get(f"{GAME}/standings")
def standings(game_id: int) -> Response:
    """Show the running or final standings."""
    state = game_state(load_game(game_id))
    return respond("games/show.html", "games/_standings.html", state=state)


@bp.get(f"{GAME}/sheet")
def sheet(game_id: int) -> Response:
    """Show the score sheet: rounds by players, running totals, and the history."""
    game = load_game(game_id)
    return respond(
        "games/sheet.html",
        "games/_sheet.html",
        state=game_state(game),
        changes=history.changes(game),
    )


@bp.get(f"{GAME}/version")
def version(game_id: int) -> Response:
    """Answer 204 while the game is unchanged, else announce the change to the page."""
    game = db.session.get(Game, game_id)
    seen = request.args.get("v", type=int)
    if game is None or seen == game.version:
        return Response(status=204)
    return respond("games/_poller.html", "games/_poller.html", trigger="game-changed", game=game)


@bp.post(f"{GAME}/undo")
def undo(game_id: int) -> Response:
    """Undo the last change made to the game, if it is still the one this phone saw."""
    game = load_game(game_id)
    try:
        actions.undo_last(
            game, request.form.get("action_id"), request.form.get("version", type=int)
        )
    except RuleError as error:
        flash(translate(error.message), "error")
    target = request.form.get("next", "")
    if not target.startswith("/") or target.startswith("//"):
        target = url_for("games.show", game_id=game_id)
    return redirect(target, code=303)


@bp.post(f"{GAME}/again")
def again(game_id: int) -> Response:
    """Start a new game with the same players, seats and rules; the app cuts for deal."""
    state = game_state(load_game(game_id))
    return _open(actions.create_game(state.rules, list(state.names), None, state.game.decks))


@bp.get(f"{GAME}/rules")
def rules(game_id: int) -> Response:
    """Show the rules card of the rules this game is played under."""
    state = game_state(load_game(game_id))
    return respond(
        "rules/card.html",
        "rules/card.html",
        rules=state.rules,
        sections=rules_card(state.rules),
        card_summary=summary(state.rules),
        back=url_for("games.show", game_id=game_id),
    )


@bp.get(f"{GAME}/share")
def share(game_id: int) -> Response:
    """Show the game's links with QR codes: the view link to all, the edit link to editors."""
    game = load_game(game_id)
    return respond("games/share.html", "games/share.html", state=game_state(game))


@bp.post(f"{GAME}/links/<role>")
def rotate(game_id: int, role: str) -> Response:
    """Replace the edit or view link; whoever holds the old one is locked out at once."""
    if role not in ("edit", "view"):
        abort(404)
    game = load_game(game_id)
    token = actions.rotate_link(game, "edit" if role == "edit" else "view")
    current = token if role == "edit" else links.current_access().token
    if role == "edit":
        links.remember(links.Access(game.id, token, "edit"))
    return redirect(url_for("games.share", game_id=game_id, token=current), code=303)
