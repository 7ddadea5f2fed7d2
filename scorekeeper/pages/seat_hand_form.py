"""A seat's own hand pad: the end-of-round form's hand (rounds/_hand.html, hands.js) for one
player, with "I went out" and, for the round's cutter, the exact cut. Field shapes only: the
rules check the entry in rules/round_end.check_entry; pages/round_end_form fills and reads it."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, IntegerField, StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange, Optional, Regexp
from wtforms.widgets import CheckboxInput, HiddenInput

from ..models import LARGEST_INTEGER as LARGEST
from ..rules.game_state import GameState
from ..rules.round_entry import RoundEnd, entered_hand
from .forms import add_hand, hand_tallies, hands_of
from .posted import TOKEN
from .round_end_form import fill_form


def form_class(seat: int) -> type[FlaskForm]:
    """The pad's form for this seat: its hand is the end-of-round form's HandFields, posted as
    `points_N` and `cards_N` there too. Only the cutter is offered the exact cut; anyone's
    claim is checked by the rules."""

    class SeatHandForm(FlaskForm):
        went_out = StringField(widget=CheckboxInput(), validators=[Optional(), AnyOf([str(seat)])])
        cut_bonus = BooleanField(_l("I cut exactly"))
        number = IntegerField(
            widget=HiddenInput(), validators=[InputRequired(), NumberRange(1, LARGEST)]
        )
        action_id = HiddenField(validators=[Optional(), Regexp(TOKEN)])

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.hands = hands_of(self, (seat,))  # as the round form's `hands` has it

    add_hand(SeatHandForm, seat)
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
        cut = seat if entry.cut_bonus else None
        fill_form(form, RoundEnd({seat: entered_hand(entry)}, cut_bonus_seat=cut))
    return form


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
