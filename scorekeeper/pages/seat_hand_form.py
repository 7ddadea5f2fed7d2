"""A seat's own hand pad: the end-of-round form's hand (rounds/_hand.html, hands.js) for one
player, with "I went out" and, for the round's cutter, the exact cut. Field shapes only: the
rules check the entry in games/seat_hands."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, FormField, HiddenField, IntegerField, StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange, Optional, Regexp
from wtforms.widgets import CheckboxInput, HiddenInput

from ..games.pending_hands import PendingHand
from ..games.seat_hands import Entry
from ..models import LARGEST_INTEGER as LARGEST
from ..rules.game_state import GameState
from .forms import HAND, HandForm, adds_a_card, hand_tallies, tapped
from .posted import TOKEN


def form_class(seat: int) -> type[FlaskForm]:
    """The pad's form for this seat: its hand is the end-of-round form's HandForm, posted as
    `points_N` and `cards_N` there too. Only the cutter is offered the exact cut; anyone's
    claim is checked by the rules."""

    class SeatHandForm(FlaskForm):
        went_out = StringField(widget=CheckboxInput(), validators=[Optional(), AnyOf([str(seat)])])
        cut_bonus = BooleanField(_l("I cut exactly"))
        number = IntegerField(
            widget=HiddenInput(), validators=[InputRequired(), NumberRange(1, LARGEST)]
        )
        action_id = HiddenField(validators=[Optional(), Regexp(TOKEN)])

        @property
        def hands(self) -> dict[int, HandForm]:
            """The seat's own hand, as the round form's `hands` has it."""
            return {seat: self[f"{HAND}{seat}"].form}

    setattr(SeatHandForm, f"{HAND}{seat}", FormField(HandForm, separator="-"))
    return SeatHandForm


def seat_form(state: GameState, seat: int, posted: bool = False) -> FlaskForm:
    """The pad as posted, or filled from the seat's entry for the round being played."""
    current = state.current
    made = form_class(seat)
    if posted:
        return made()
    form = made(formdata=None)
    number = None if current is None else current.number
    form.number.data = number
    entry = state.facts.entered_in(number).get(seat)
    if entry is not None:
        fill(form, entry)
    return form


def fill(form: FlaskForm, entry: PendingHand) -> None:
    """Put a seat's entry into its pad."""
    hand = form.hands[entry.seat]
    hand.points.data = entry.points
    hand.cards.data = dict(entry.cards or {})
    if entry.went_out:
        form.went_out.data = str(entry.seat)
    form.cut_bonus.data = entry.cut_bonus


def entry_of(form: FlaskForm, seat: int) -> Entry:
    """What the pad says, for the service to check."""
    return Entry(
        went_out=form.went_out.data == str(seat),
        points=form.hands[seat].points.data,
        counts=form.hands[seat].cards.data or None,
        cut_bonus=bool(form.cut_bonus.data),
    )


def tap(form: FlaskForm, seat: int) -> None:
    """A card tap without JavaScript: its card added (typed points dropped), a picked one
    taken back or the cards cleared, as hands.js does on the phone."""
    tapped_seat, _sep, code = request.form.get("tap", "").partition(":")
    if tapped_seat != str(seat):
        return  # a seat taps only its own hand
    cards = form.hands[seat].cards
    cards.data = tapped(cards.data or {}, code)
    if adds_a_card(code):
        points = form.hands[seat].points
        points.data, points.raw_data = None, []


def hand_context(state: GameState, seat: int, form: FlaskForm) -> dict[str, Any]:
    """What rounds/_hand.html needs to draw the seat's pad: the running sum of its cards."""
    number = form.number.data
    tallies: dict[int, int | None] = {seat: None}
    if isinstance(number, int) and state.seats_of(number) is not None:
        tallies = hand_tallies(state, number, form.hands)
    current = state.current
    cutter = current is not None and current.cutter == seat and state.rules.scoring.cut_bonus > 0
    context = {"hand_form": form, "tallies": tallies, "warned": {}, "notes": {}}
    return context | {"cuts": cutter or bool(form.cut_bonus.errors)}
