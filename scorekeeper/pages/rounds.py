"""Ending a round: who went out and what everyone else held; corrections of past rounds."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from ..games.history import snapshot
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
from ..rules.round_end import hand_refusals
from ..rules.round_entry import RoundEnd, from_phones, from_reading, from_stored
from ..rules.sheet_words import worded
from ..rules.stock import stock_can_end_round
from .forms import hand_tallies, round_form
from .game_door import GAMES, current_access
from .pending_hands import entries_of
from .rendering import go_to, respond, wants_fragment
from .round_end_form import Posted, add_tap, fill_form, read_form, read_posted

bp = Blueprint("rounds", __name__, url_prefix="/rounds")


def _form_for(state: GameState, number: int, fresh: bool = False) -> FlaskForm:
    """The end-of-round form for this table, filled from a past result when correcting one.

    A fresh form ignores what was posted and shows what is stored now (after a conflict).
    """
    seats = _seats(state, number)
    ended = state.current is not None and state.current.number == number
    allow_stock = stock_can_end_round(state.rules)
    cutter = state.cutter_of(number)  # None in a game without a cut bonus
    form = round_form(
        [(seat, state.names[seat]) for seat in seats],
        allow_stock,
        None if cutter is None else (cutter, state.names[cutter], state.rules.scoring.cut_bonus),
        posted=not fresh,
    )
    if fresh or request.method == "GET":
        # A saved round's end, or the stock's verdict on the round being played.
        record = state.rounds.get(number)
        saved = snapshot(record) if record is not None else None
        stock_ended = ended and state.current.ended_by_stock
        fill_form(form, from_stored(saved) if saved else RoundEnd({}, ended_by_stock=stock_ended))
    return form


def _checked_form(state: GameState, number: int) -> FlaskForm:
    """The form as posted, checked (read_posted took every value: it takes them too)."""
    form = _form_for(state, number)
    form.validate()
    return form


def _seats(state: GameState, number: int) -> tuple[int, ...]:
    """The seats that play this round; 404 for a round not reached yet."""
    seats = state.seats_of(number)
    if seats is None:
        abort(404)
    return seats


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
    GAMES.require_edit()
    state = open_for_read(game_id, current_access())
    if state.current is None:
        return redirect(url_for("game.sheet", game_id=game_id), code=303)
    return redirect(
        url_for("game.rounds.edit", game_id=game_id, number=state.current.number), code=303
    )


@bp.get("/<int:number>")
def edit(game_id: int, number: int) -> Response:
    """Show the form to end a round, or to correct one already recorded."""
    GAMES.require_edit()
    state = open_for_read(game_id, current_access())
    form = _form_for(state, number)
    # After Undo of a saved round: what was entered, to fix one number and save again.
    undone = undone_round_end(game_id, request.args.get("undone", type=int), number)
    if undone is not None:
        fill_form(form, from_stored(undone))
    # The hands entered on the players' phones, in a round not saved yet: to check and save.
    record = state.rounds.get(number)
    saved = record is not None and bool(record.results)
    phones = RoundEnd({}) if undone is not None or saved else from_phones(entries_of(state, number))
    fill_form(form, phones)
    return _page(state, number, form, from_phones=list(phones.phones))


@bp.post("/<int:number>/tap")
def tap(game_id: int, number: int) -> Response:
    """Add a tapped card, take a picked one back or clear a hand; show the running sum."""
    state = open_for_read(game_id, current_access())
    form = _form_for(state, number)
    tapped = add_tap(form, request.form.get("tap", ""))
    if tapped is None or tapped[1] is None:
        return _page(state, number, form)
    # One answer per hand: a tapped card replaces typed points, and the hand says so.
    seat, typed = tapped
    replaced = gettext("The tapped cards replace the %(points)s points typed.", points=typed)
    return _page(state, number, form, notes={seat: replaced})


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
    fill_form(form, from_reading(reading.hands, seats))
    read_from = {seats[said_hand.seat]: said_hand.words for said_hand in reading.hands}
    problems = [translate(problem) for problem in reading.problems]
    status = 422 if problems else 200
    return _page(
        state, number, form, status, said=said, read_problems=problems, read_from=read_from
    )


@bp.post("/<int:number>")
def update(game_id: int, number: int) -> Response:
    """Save how the round ended, or correct it; refuse impossible hands at the field."""
    state = open_for_change(game_id, current_access())
    seats, allow_stock = _seats(state, number), stock_can_end_round(state.rules)
    posted = read_posted(request.form, seats, allow_stock, state.cutter_of(number))
    form: FlaskForm | None = None  # made when a value needs it, or a refusal shows it
    if posted is None:
        form = _form_for(state, number)
        if not form.validate():
            if not form.went_out.errors:  # who went out decides what every other hand needs
                _attach_hand_refusals(state, number, form)
            return _page(state, number, form, 422)
        posted = Posted(read_form(form), form.action_id.data, form.version.data)
    record = state.rounds.get(number)
    correcting = record is not None and bool(record.results)
    # Only "Save anyway" sends this: the warnings it was shown, which must still be the ones.
    confirmed = request.form.get("confirm_warnings", "")
    # A refusal changed nothing: `state`, read with the lock, is the game as it stands now.
    try:
        save_result(state, number, posted.end, posted.action_id, posted.version, confirmed)
    except Unconfirmed as unconfirmed:
        form = form or _checked_form(state, number)
        return _page(state, number, form, 422, warnings=unconfirmed.warnings)
    except Conflict as error:
        # A phone's newer hand: the form as posted with the phones' entries put in, drawn on
        # the version now; another change of the round: the values stored now.
        if (error.field or "").startswith("hands."):
            form = form or _checked_form(state, number)
            form.version.data = state.facts.version
        else:
            form = _form_for(state, number, fresh=True)
        phones = RoundEnd({}) if correcting else from_phones(entries_of(state, number))
        fill_form(form, phones)
        form.form_errors.append(translate(error.message))
        return _page(state, number, form, 409, from_phones=list(phones.phones))
    except RuleError as error:
        form = form or _checked_form(state, number)
        _attach(form, worded(state.rules, error.message), error.field)
        _attach_hand_refusals(state, number, form)
        return _page(state, number, form, 422)
    # A correction is made from the sheet: go back there to see it.
    back = "game.sheet" if correcting else "game.show"
    return go_to(url_for(back, game_id=game_id))


@bp.get("/<int:number>/notice")
def notice(game_id: int, number: int) -> Response:
    """Tell a phone with the form open that the game changed, without touching its form."""
    if not wants_fragment():
        return redirect(url_for("game.rounds.edit", game_id=game_id, number=number), code=303)
    state = open_for_read(game_id, current_access())
    seen = request.args.get("v", type=int)
    return respond("rounds/edit.html", "rounds/_notice.html", state=state, number=number, seen=seen)


def _attach_hand_refusals(state: GameState, number: int, form: FlaskForm) -> None:
    """Show every hand's refusal with the form's other errors, not only the first one found."""
    end = read_form(form)
    for seat, error in hand_refusals(state, number, end).items():
        # A hand whose field is refused already says that first.
        if seat in end.hands and not form.hands[seat].points.errors:
            _attach(form, worded(state.rules, error.message), error.field)


def _attach(form: FlaskForm, message: Message, named: str | None) -> None:
    """Show a rules refusal under the field it names ("hands.2", "points.2": seat 2's points)."""
    kind, _dot, seat = (named or "").partition(".")
    at_hand = kind in ("hands", "points") and seat.isdecimal() and len(seat) < 3
    hand = form.hands.get(int(seat)) if at_hand else None
    field = hand.points if hand is not None else getattr(form, kind, None) or form.went_out
    field.errors = [*field.errors, translate(message)]
