"""The game pages: start a game, the round screen and its regions, the score sheet, live updates."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, request, url_for
from werkzeug.wrappers import Response

from ..collation import by_name
from ..games import actions, rematch
from ..games.opening import open_for_change, open_for_read
from ..i18n import translate
from ..link_tokens import Rotatable
from ..rules.errors import RuleError
from ..rules.messages import N_, msg
from ..rules.ruleset import RuleSet
from . import live
from .forms import MAX_SEATS, NewGameForm
from .game_door import GAMES, current_access, door, openable_games
from .next_game import FOLLOWED, lead_to_next_game
from .posted import ascii_index, page_from
from .remembered_rule_sets import rules_by_key
from .rendering import respond, rules_card_page, unchanged, wants_fragment
from .ruleset_form import encode

bp = Blueprint("games", __name__)  # a new game: no link yet
SHOW = "games/show.html"


def _new_page(form: NewGameForm, status: int = 200) -> Response:
    """The new-game page offering, as they type, the names of games this browser can open.

    Only those: another table's players are no one else's business.
    """
    known = dict.fromkeys(name for state in openable_games() for name in state.names)
    return respond("games/new.html", "games/new.html", status, form=form, known=by_name(known))


@bp.get("/games/new")
def new() -> Response:
    """Show the form to start a game, with a rule set chosen from its rules card."""
    form = NewGameForm()
    if rules_by_key(request.args.get("ruleset", "")) is not None:
        form.ruleset.data = request.args["ruleset"]
    return _new_page(form)


@bp.post("/games/")
def create() -> Response:
    """Start a game, or move a player up the seat order and show the form again."""
    return start_from_form(_new_page, actions.create_game)


Start = Callable[[RuleSet, list[str], int | None, int | None], Rotatable]  # a new game


def start_from_form(page: Callable[[NewGameForm, int], Response], start: Start) -> Response:
    """Start a game from the new-game form, or show it again as typed: moved, or refused.

    One flow for a game alone and a table's game (pages/tables.py): `page` shows the form,
    `start` starts the game from a preset or a saved set this browser may open.
    """
    form = NewGameForm()
    if move := request.form.get("move", ""):
        form.move_up(ascii_index(move, MAX_SEATS))
        return page(form, 200)
    if not form.validate():
        return page(form, 422)
    first = int(form.first_dealer.data) if form.first_dealer.data else None
    decks = int(form.decks.data) if form.decks.data else None
    try:
        rules = rules_by_key(form.ruleset.data)
        if rules is None:  # deleted on another phone since the form was shown
            raise RuleError(msg(N_("There is no rule set %(key)s."), key=form.ruleset.data))
        game = start(rules, form.names(), first, decks)
    except RuleError as error:
        form.form_errors.append(translate(error.message))
        return page(form, 422)
    return GAMES.open_in_browser(game.id, game.edit_token)


@door.get("")
def show(game_id: int) -> Response:
    """Show the round screen: what to deal, the contract, buys, the stock, the standings."""
    return respond(SHOW, SHOW, state=open_for_read(game_id, current_access()), kept=True)


@door.get("/header")
def header(game_id: int) -> Response:
    """Show the current round's contract and deal."""
    return respond(SHOW, "games/_round_header.html", state=open_for_read(game_id, current_access()))


@door.get("/standings")
def standings(game_id: int) -> Response:
    """Show the running or final standings."""
    return respond(SHOW, "games/_standings.html", state=open_for_read(game_id, current_access()))


@door.get("/sheet")
def sheet(game_id: int) -> Response:
    """Show the score sheet: rounds by players, running totals, and the history."""
    state = open_for_read(game_id, current_access())
    before = page_from()
    names = live.REGIONS["sheet"][:1] if wants_fragment() else live.REGIONS["sheet"]
    regions = [live.sheet_region(name, state, before) for name in names]
    return respond("games/sheet.html", "games/_regions.html", state=state, regions=regions)


@door.get("/version")
def version(game_id: int) -> Response:
    """Answer "unchanged" while the game is, else the asking page's regions, up to date."""
    seen, access = request.args.get("v", type=int), current_access()
    if seen == access.version:  # read by the link check: one query per poll
        return unchanged()
    page = live.asked_page()
    state = open_for_read(game_id, access)
    if page in FOLLOWED and (lead := lead_to_next_game(state, page)) is not None:
        return lead
    if page is not None:
        return live.poll_answer(page, state)
    # A page without live regions (the end-of-round form) refreshes its notice on the event.
    return respond(
        "games/_poller.html", "games/_poller.html", trigger="game-changed", game=state.facts
    )


@door.post("/again")
def replay(game_id: int) -> Response:
    """Start a new game with the same players, seats and rules (the app cuts for deal); every
    phone still on this one is led to it."""
    game = rematch.play_again(open_for_change(game_id, current_access()))
    return GAMES.open_in_browser(game.id, game.edit_token)


@door.get("/rules")
def rules(game_id: int) -> Response:
    """Show the rules card of the rules this game is played under."""
    state = open_for_read(game_id, current_access())
    return rules_card_page(
        state.rules,
        back=url_for("game.show", game_id=game_id),
        edit_link=url_for("house_rules.new", rules=encode(state.facts.rules_json)),
        sheet_link=url_for(
            "printed_sheets.packed", r=encode(state.facts.rules_json), players=len(state.names)
        ),
    )
