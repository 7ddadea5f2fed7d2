"""Ending a round: who went out and what everyone else held; corrections of past rounds."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from ..games import round_end
from ..games.opening import open_for_change, open_for_read
from ..games.refusals import Conflict
from ..games.spoken_numbers import number_words
from ..games.undone import undone_round_end
from ..i18n import current_locale, translate
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.hand_warnings import HandWarning, acknowledgement
from ..rules.messages import Message
from ..rules.quick_entry import MAX_TEXT, read_round
from ..rules.sheet_words import worded
from ..rules.stock import stock_can_end_round
from ..rules.tally import points_from_counts
from .forms import STOCK, round_form
from .game_door import GAME, current_access, protect, require_edit
from .rendering import go_to, respond, wants_fragment

bp = Blueprint("rounds", __name__, url_prefix=f"{GAME}/rounds")
protect(bp)


def _form_for(state: GameState, number: int, fresh: bool = False) -> FlaskForm:
    """The end-of-round form for this table, filled from a past result when correcting one.

    A fresh form ignores what was posted and shows what is stored now (after a conflict).
    """
    seats = _seats(state, number)
    ended = state.current is not None and state.current.number == number
    allow_stock = stock_can_end_round(state.rules)
    cutter = state.cutter_of(number)
    bonus = state.rules.scoring.cut_bonus
    form_class = round_form(
        [(seat, state.names[seat]) for seat in seats],
        allow_stock,
        None if cutter is None or bonus <= 0 else (cutter, state.names[cutter], bonus),
    )
    form = form_class(formdata=None) if fresh else form_class()
    if fresh or request.method == "GET":
        _fill(form, state, number, stock_ended=ended and state.current.ended_by_stock)
    return form


def _refill(form: FlaskForm, end: dict[str, Any]) -> None:
    """Put a round's end back into the form as it was entered (an undone save): who went out
    or the stock, the typed points or the tapped cards of every hand, the exact cut."""
    out = next((r["seat"] for r in end["results"] if r["went_out"]), None)
    form.went_out.data = STOCK if end["ended_by_stock"] or out is None else str(out)
    for result in end["results"]:
        seat, cards = result["seat"], result["cards"]
        typed = None if cards or result["went_out"] else result["points"]
        getattr(form, f"points_{seat}").data = typed
        getattr(form, f"cards_{seat}").data = cards or {}
    if hasattr(form, "cut_bonus_seat") and end["cut_bonus_seat"] is not None:
        form.cut_bonus_seat.data = str(end["cut_bonus_seat"])


def _seats(state: GameState, number: int) -> tuple[int, ...]:
    """The seats that play this round; 404 for a round not reached yet."""
    seats = state.seats_of(number)
    if seats is None:
        abort(404)
    return seats


def _fill(form: FlaskForm, state: GameState, number: int, stock_ended: bool) -> None:
    """Put a recorded result into the form, or the stock's verdict into a fresh one."""
    record = state.rounds.get(number)
    if stock_ended:
        form.went_out.data = STOCK
    if record is None or not record.results:
        return
    form.went_out.data = (
        STOCK if record.ended_by_stock else next(str(r.seat) for r in record.results if r.went_out)
    )
    for result in record.results:
        getattr(form, f"points_{result.seat}").data = None if result.cards else result.points
        getattr(form, f"cards_{result.seat}").data = result.cards or {}
    if hasattr(form, "cut_bonus_seat") and record.cut_bonus_seat is not None:
        form.cut_bonus_seat.data = str(record.cut_bonus_seat)


def _page(
    state: GameState,
    number: int,
    form: FlaskForm,
    status: int = 200,
    notes: dict[int, str] | None = None,
    said: str = "",
    read_problems: list[str] | None = None,
    warnings: tuple[HandWarning, ...] = (),
) -> Response:
    """The end-of-round page; `notes` say per hand what a tap did to typed points.

    `said` is the round in one line as typed, `read_problems` what could not be read of it,
    `warnings` the hands to look at again before the round is saved as entered.
    """
    warned: dict[int, list[str]] = {}
    for warning in warnings:
        warned.setdefault(warning.seat, []).append(translate(worded(state.rules, warning.message)))
    return respond(
        "rounds/edit.html",
        "rounds/edit.html",
        status,
        state=state,
        number=number,
        form=form,
        seats=_seats(state, number),
        tallies=_tallies(state, number, form),
        notes=notes or {},
        said=said,
        said_limit=MAX_TEXT,
        read_problems=read_problems or [],
        warned=warned,
        acknowledgement=acknowledgement(warnings),
    )


def _tallies(state: GameState, number: int, form: FlaskForm) -> dict[int, int | None]:
    """The running sum of each hand's tapped cards, from the rules engine."""
    setup = round_end.setup_for(state, number)
    sums: dict[int, int | None] = {}
    for seat in _seats(state, number):
        counts = getattr(form, f"cards_{seat}").data or {}
        try:
            sums[seat] = points_from_counts(counts, state.rules, setup.decks, setup.jokers)
        except RuleError as error:
            getattr(form, f"cards_{seat}").errors = [translate(worded(state.rules, error.message))]
            sums[seat] = None
    return sums


@bp.get("/current")
def current(game_id: int) -> Response:
    """Go to the form that ends the round being played now (the sheet once the game is over)."""
    require_edit()
    state = open_for_read(game_id, current_access())
    if state.current is None:
        return redirect(url_for("games.sheet", game_id=game_id), code=303)
    return redirect(url_for("rounds.edit", game_id=game_id, number=state.current.number), code=303)


@bp.get("/<int:number>")
def edit(game_id: int, number: int) -> Response:
    """Show the form to end a round, or to correct one already recorded."""
    require_edit()
    state = open_for_read(game_id, current_access())
    form = _form_for(state, number)
    # After Undo of a saved round: what was entered, to fix one number and save again.
    undone = undone_round_end(game_id, request.args.get("undone", type=int), number)
    if undone is not None:
        _refill(form, undone)
    return _page(state, number, form)


@bp.post("/<int:number>/tap")
def tap(game_id: int, number: int) -> Response:
    """Add a tapped card (or clear the cards) of one hand and show the running sum."""
    state = open_for_read(game_id, current_access())
    form = _form_for(state, number)
    seat, _sep, code = request.form.get("tap", "").partition(":")
    field = getattr(form, f"cards_{seat}", None) if seat.isdigit() else None
    notes = {}
    if field is not None:
        counts = dict(field.data or {})
        if code == "clear":
            counts = {}
        elif code:
            counts[code] = counts.get(code, 0) + 1
            notes = _drop_typed_points(form, int(seat))
        field.data = counts
    return _page(state, number, form, notes=notes)


@bp.post("/<int:number>/reading")
def read_said(game_id: int, number: int) -> Response:
    """Fill the form from a round said in one line ("Anna out, Bob 35"); never saves it."""
    state = open_for_read(game_id, current_access())
    form = _form_for(state, number)
    seats = _seats(state, number)
    said = request.form.get("said", "")
    reading = read_round(
        said, [state.names[seat] for seat in seats], current_locale(), number_words
    )
    for hand in reading.hands:
        seat = seats[hand.seat]
        points, cards = getattr(form, f"points_{seat}"), getattr(form, f"cards_{seat}")
        cards.data = {}
        if hand.went_out:
            form.went_out.data = str(seat)
            points.data, points.raw_data = None, []
        else:
            points.data, points.raw_data = hand.points, [str(hand.points)]
    problems = [translate(problem) for problem in reading.problems]
    status = 422 if problems else 200
    return _page(state, number, form, status, said=said, read_problems=problems)


def _drop_typed_points(form: FlaskForm, seat: int) -> dict[int, str]:
    """One answer per hand: a tapped card replaces typed points, and the hand says so."""
    points = getattr(form, f"points_{seat}")
    if points.data is None:
        return {}
    typed = points.data
    points.data, points.raw_data = None, []
    return {seat: gettext("The tapped cards replace the %(points)s points typed.", points=typed)}


@bp.post("/<int:number>")
def update(game_id: int, number: int) -> Response:
    """Record how the round ended, or correct it; refuse impossible hands at the field."""
    state = open_for_change(game_id, current_access())
    form = _form_for(state, number)
    if not form.validate():
        if not form.went_out.errors:  # who went out decides what every other hand needs
            _attach_hand_refusals(state, number, form, _went_out(form))
        return _page(state, number, form, 422)
    went_out, hands, cut_seat = _went_out(form), _hands(state, number, form), _cut_seat(form)
    record = state.rounds.get(number)
    correcting = record is not None and bool(record.results)
    # Only "Save anyway" sends this: the warnings it was shown, which must still be the ones.
    confirmed = request.form.get("confirm_warnings", "")
    try:
        round_end.record_result(
            state, number, went_out, hands, cut_seat, form.action_id.data, form.version.data,
            confirmed,
        )  # fmt: skip
    except round_end.Unconfirmed as unconfirmed:
        return _page(state, number, form, 422, warnings=unconfirmed.warnings)  # nothing saved
    except Conflict as error:
        state = open_for_read(game_id, current_access())
        form = _form_for(state, number, fresh=True)
        form.form_errors.append(translate(error.message))
        return _page(state, number, form, 409)
    except RuleError as error:
        state = open_for_read(game_id, current_access())
        _attach(form, worded(state.rules, error.message), error.field)
        _attach_hand_refusals(state, number, form, went_out)
        return _page(state, number, form, 422)
    # A correction is made from the sheet: go back there to see it.
    back = "games.sheet" if correcting else "games.show"
    return go_to(url_for(back, game_id=game_id))


@bp.get("/<int:number>/notice")
def notice(game_id: int, number: int) -> Response:
    """Tell a phone with the form open that the game changed, without touching its form."""
    if not wants_fragment():
        return redirect(url_for("rounds.edit", game_id=game_id, number=number), code=303)
    state = open_for_read(game_id, current_access())
    seen = request.args.get("v", type=int)
    return respond("rounds/edit.html", "rounds/_notice.html", state=state, number=number, seen=seen)


def _went_out(form: FlaskForm) -> int | None:
    """The seat that went out, or None when the stock ended the round."""
    return None if form.went_out.data == STOCK else int(form.went_out.data)


def _hands(state: GameState, number: int, form: FlaskForm) -> dict[int, round_end.Hand]:
    """Each hand as entered; those whose fields hold no well-formed value are left out."""
    hands = {}
    for seat in _seats(state, number):
        points, cards = getattr(form, f"points_{seat}"), getattr(form, f"cards_{seat}")
        if not points.errors and not cards.errors:
            hands[seat] = round_end.Hand(points=points.data, counts=cards.data or None)
    return hands


def _cut_seat(form: FlaskForm) -> int | None:
    """Who made the exact cut, if the rules have a cut bonus and someone did."""
    cut = getattr(form, "cut_bonus_seat", None)
    return int(cut.data) if cut is not None and cut.data and not cut.errors else None


def _attach_hand_refusals(
    state: GameState, number: int, form: FlaskForm, went_out: int | None
) -> None:
    """Show every hand's refusal with the form's other errors, not only the first one found."""
    hands = _hands(state, number, form)
    refusals = round_end.hand_refusals(state, number, went_out, hands, _cut_seat(form))
    for seat, error in refusals.items():
        # A hand whose field is refused already says that first.
        if seat in hands and not getattr(form, f"points_{seat}").errors:
            _attach(form, worded(state.rules, error.message), error.field)


def _attach(form: FlaskForm, message: Message, named: str | None) -> None:
    """Show a rules refusal under the field it names ("hands.2" → the points of seat 2)."""
    field_name = (named or "").replace("hands.", "points_").replace("points.", "points_")
    field = getattr(form, field_name, None) or form.went_out
    field.errors = [*field.errors, translate(message)]
