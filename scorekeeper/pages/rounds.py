"""Ending a round: who went out and what everyone else held; corrections of past rounds."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import Field

from ..games.opening import open_for_change, open_for_read
from ..games.refusals import Conflict
from ..games.round_end import Unconfirmed, save_result
from ..games.spoken_numbers import number_words
from ..games.undone import undone_round_end
from ..i18n import current_locale, translate
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.hand_warnings import HandWarning, acknowledgement
from ..rules.messages import Message
from ..rules.quick_entry import MAX_TEXT, read_round
from ..rules.round_end import Hand, hand_refusals
from ..rules.sheet_words import worded
from ..rules.stock import stock_can_end_round
from .forms import STOCK, hand_tallies, round_form
from .game_door import GAME, current_access, protect, require_edit
from .pending_hands import entries_of, fill_round_form
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
    cutter = state.cutter_of(number)  # None in a game without a cut bonus
    form_class = round_form(
        [(seat, state.names[seat]) for seat in seats],
        allow_stock,
        None if cutter is None else (cutter, state.names[cutter], state.rules.scoring.cut_bonus),
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
    hands = form.hands
    for result in end["results"]:
        hand, cards = hands[result["seat"]], result["cards"]
        hand.points.data = None if cards or result["went_out"] else result["points"]
        hand.cards.data = cards or {}
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
    hands = form.hands
    for result in record.results:
        hands[result.seat].points.data = None if result.cards else result.points
        hands[result.seat].cards.data = result.cards or {}
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
    read_from: dict[int, str] | None = None,
    warnings: tuple[HandWarning, ...] = (),
    from_phones: list[int] | None = None,
) -> Response:
    """The end-of-round page; `notes` say per hand what a tap did to typed points.

    `said` is the round in one line as typed, `read_problems` what could not be read of it,
    `read_from` the words each hand it filled came from (by seat),
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
        tallies=hand_tallies(state, number, form.hands),
        notes=notes or {},
        said=said,
        said_limit=MAX_TEXT,
        read_problems=read_problems or [],
        read_from=read_from or {},
        warned=warned,
        acknowledgement=acknowledgement(warnings),
        from_phones=from_phones or [],
    )


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
    # The hands entered on the players' phones, in a round not saved yet: to check and save.
    record = state.rounds.get(number)
    saved = record is not None and bool(record.results)
    phones = [] if undone is not None or saved else fill_round_form(form, entries_of(state, number))
    return _page(state, number, form, from_phones=phones)


@bp.post("/<int:number>/tap")
def tap(game_id: int, number: int) -> Response:
    """Add a tapped card (or clear the cards) of one hand and show the running sum."""
    state = open_for_read(game_id, current_access())
    form = _form_for(state, number)
    seat, _sep, code = request.form.get("tap", "").partition(":")
    hand = form.hands.get(int(seat)) if seat.isdecimal() and len(seat) < 3 else None
    notes = {}
    if hand is not None:
        counts = dict(hand.cards.data or {})
        if code == "clear":
            counts = {}
        elif code:
            counts[code] = counts.get(code, 0) + 1
            notes = _drop_typed_points(hand.points, int(seat))
        hand.cards.data = counts
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
    hands = form.hands
    read_from = {seats[said_hand.seat]: said_hand.words for said_hand in reading.hands}
    for said_hand in reading.hands:
        seat = seats[said_hand.seat]
        points = hands[seat].points
        hands[seat].cards.data = {}
        if said_hand.went_out:
            form.went_out.data = str(seat)
            points.data, points.raw_data = None, []
        else:
            points.data, points.raw_data = said_hand.points, [str(said_hand.points)]
    problems = [translate(problem) for problem in reading.problems]
    status = 422 if problems else 200
    return _page(
        state, number, form, status, said=said, read_problems=problems, read_from=read_from
    )


def _drop_typed_points(points: Field, seat: int) -> dict[int, str]:
    """One answer per hand: a tapped card replaces typed points, and the hand says so."""
    if points.data is None:
        return {}
    typed = points.data
    points.data, points.raw_data = None, []
    return {seat: gettext("The tapped cards replace the %(points)s points typed.", points=typed)}


@bp.post("/<int:number>")
def update(game_id: int, number: int) -> Response:
    """Save how the round ended, or correct it; refuse impossible hands at the field."""
    state = open_for_change(game_id, current_access())
    form = _form_for(state, number)
    if not form.validate():
        if not form.went_out.errors:  # who went out decides what every other hand needs
            _attach_hand_refusals(state, number, form, _went_out(form))
        return _page(state, number, form, 422)
    went_out, hands, cut_seat = _went_out(form), _hands(form), _cut_seat(form)
    record = state.rounds.get(number)
    correcting = record is not None and bool(record.results)
    # Only "Save anyway" sends this: the warnings it was shown, which must still be the ones.
    confirmed = request.form.get("confirm_warnings", "")
    # A refusal changed nothing: `state`, read with the lock, is the game as it stands now.
    try:
        save_result(
            state, number, went_out, hands, cut_seat, form.action_id.data, form.version.data,
            confirmed,
        )  # fmt: skip
    except Unconfirmed as unconfirmed:
        return _page(state, number, form, 422, warnings=unconfirmed.warnings)  # nothing saved
    except Conflict as error:
        form = _form_for(state, number, fresh=True)
        form.form_errors.append(translate(error.message))
        return _page(state, number, form, 409)
    except RuleError as error:
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


def _hands(form: FlaskForm) -> dict[int, Hand]:
    """Each hand as entered; those whose fields hold no well-formed value are left out."""
    return {
        seat: Hand(points=hand.points.data, counts=hand.cards.data or None)
        for seat, hand in form.hands.items()
        if not hand.points.errors and not hand.cards.errors
    }


def _cut_seat(form: FlaskForm) -> int | None:
    """Who made the exact cut, if the rules have a cut bonus and someone did."""
    cut = getattr(form, "cut_bonus_seat", None)
    return int(cut.data) if cut is not None and cut.data and not cut.errors else None


def _attach_hand_refusals(
    state: GameState, number: int, form: FlaskForm, went_out: int | None
) -> None:
    """Show every hand's refusal with the form's other errors, not only the first one found."""
    hands = _hands(form)
    refusals = hand_refusals(state, number, went_out, hands, _cut_seat(form))
    for seat, error in refusals.items():
        # A hand whose field is refused already says that first.
        if seat in hands and not form.hands[seat].points.errors:
            _attach(form, worded(state.rules, error.message), error.field)


def _attach(form: FlaskForm, message: Message, named: str | None) -> None:
    """Show a rules refusal under the field it names ("hands.2", "points.2": seat 2's points)."""
    kind, _dot, seat = (named or "").partition(".")
    at_hand = kind in ("hands", "points") and seat.isdecimal() and len(seat) < 3
    hand = form.hands.get(int(seat)) if at_hand else None
    field = hand.points if hand is not None else getattr(form, kind, None) or form.went_out
    field.errors = [*field.errors, translate(message)]
