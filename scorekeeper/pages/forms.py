"""Forms for starting a game and ending a round: field shapes only, rules live in rules/."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from flask import request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    Field,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)
from wtforms.widgets import HiddenInput

from .. import house_rules
from ..i18n import translate
from ..models import LARGEST_INTEGER as LARGEST
from ..rules.bounds import MAX_PLAYERS
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.player_names import clean_name, name_key
from ..rules.playing_cards import Card
from ..rules.presets import PRESETS
from ..rules.round_end import MAX_POINTS, setup_for
from ..rules.round_entry import Hand, card_of
from ..rules.sheet_words import worded
from ..rules.tally import cards_points
from .posted import TOKEN
from .remembered_rule_sets import saved_here

MAX_SEATS = MAX_PLAYERS  # a table seats the most players a rule set allows
STOCK = "stock"  # the "who went out" choice for a round the stock ended


class NewGameForm(FlaskForm):
    """Rule set, players in seat order, first dealer."""

    ruleset = SelectField(
        _l("Rule set"), choices=[SelectChoice(k, _l(p.name)) for k, p in PRESETS.items()]
    )
    players = FieldList(
        StringField(_l("Player"), validators=[Optional(), Length(max=40)]),
        min_entries=MAX_SEATS,
        max_entries=MAX_SEATS,
    )
    first_dealer = SelectField(_l("First dealer"), default="")
    decks = SelectField(_l("Decks"), default="")
    action_id = HiddenField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first_dealer.choices = [SelectChoice("", _l("Cut for deal: the app picks"))] + [
            SelectChoice(str(i), _l("Seat %(number)s", number=i + 1)) for i in range(MAX_SEATS)
        ]
        self.ruleset.choices = [*self.ruleset.choices] + [  # type: ignore[misc]
            SelectChoice(house_rules.key_of(saved), saved.name) for saved in saved_here()
        ]
        self.decks.choices = [SelectChoice("", _l("As the rules say"))] + [
            SelectChoice(str(n)) for n in (3, 4)
        ]

    def names(self) -> list[str]:
        """The typed names in seat order, blanks dropped."""
        return [entry.data.strip() for entry in self.players if entry.data and entry.data.strip()]

    def move_up(self, index: int | None) -> None:
        """Swap a player with the one seated before them (the first seat stays)."""
        if index:
            above, below = self.players.entries[index - 1], self.players.entries[index]
            above.data, below.data = below.data, above.data

    def validate_players(self, field: Field) -> None:
        """Two to eight distinct, visible names; a ninth posted name is refused, not dropped."""
        names = self.names()
        # Plain strings, not lazy ones: the template tells them from the entries' error lists.
        if seated_beyond_table():
            raise ValidationError(
                gettext("At most %(count)s players sit at one table.", count=MAX_SEATS)
            )
        if len(names) < 2:
            raise ValidationError(gettext("Enter at least two players."))
        try:
            keys = {name_key(clean_name(name)) for name in names}
        except RuleError as error:
            raise ValidationError(translate(error.message)) from None
        if len(keys) != len(names):
            raise ValidationError(gettext("Each player needs a different name."))


def seated_beyond_table() -> bool:
    """Whether the form posted a name for a seat past the last one (FieldList drops it)."""
    for key, value in request.form.items(multi=True):
        index = key.removeprefix("players-")
        beyond = index != key and (not index.isdecimal() or int(index) >= MAX_SEATS)
        if beyond and value.strip():
            return True
    return False


def posted_cards(text: str) -> dict[Card, int]:
    """Cards as a hand posts them, each with its copies; a RuleError names a token no card."""
    cards: dict[Card, int] = {}
    for token in text.split():
        card = card_of(token)
        cards[card] = cards.get(card, 0) + 1
    return cards


class CardsField(Field):
    """Cards tapped for one hand, each with its copies, posted as rank codes or cards separated
    by spaces ("K K JK", "KH 7S")."""

    widget = HiddenInput()
    data: dict[Card, int]

    def process_data(self, value: Any) -> None:
        self.data = dict(value or {})

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            self.data = posted_cards(valuelist[0] if valuelist else "")
        except RuleError as error:
            # Translated now, with the token escaped: a lazy string would pass it raw.
            raise ValueError(translate(error.message)) from None

    def _value(self) -> str:
        return " ".join(str(card) for card, n in (self.data or {}).items() for _ in range(n))

    @property
    def by_rank(self) -> dict[str, int]:
        """The cards counted per rank code, as the rank buttons show them."""
        return Hand(cards=self.data).counts() or {}


def points_in_range(form: FlaskForm, field: Field) -> None:
    """Hand points are a whole number from 0; a typing slip over 10,000 is refused."""
    if field.data is not None and not 0 <= field.data <= MAX_POINTS:
        raise ValidationError(_l("Points are a whole number from 0 to 10,000."))


class HandFields(NamedTuple):
    """One player's hand at a round's end: the points typed, or the cards tapped. Seat 3's
    are posted as `points_3` and `cards_3`: the names the page, hands.js, a phone's saved
    draft and every test post."""

    points: IntegerField
    cards: CardsField


def add_hand(form_class: type[FlaskForm], seat: int) -> None:
    """Give a form class the fields of one seat's hand (HandFields)."""
    points = IntegerField(_l("Points"), validators=[Optional(), points_in_range])
    setattr(form_class, f"points_{seat}", points)
    setattr(form_class, f"cards_{seat}", CardsField())


def hands_of(form: FlaskForm, seats: Iterable[int]) -> dict[int, HandFields]:
    """Each seat's hand fields of a form, by seat."""
    return {seat: HandFields(form[f"points_{seat}"], form[f"cards_{seat}"]) for seat in seats}


def round_form(
    seats: list[tuple[int, str]],
    allow_stock: bool,
    cutter: tuple[int, str, int] | None,
    posted: bool = True,
) -> FlaskForm:
    """The form that ends a round, as posted (or empty): who went out, each other hand
    (`form.hands[seat]`), the cutter's bonus. `cutter` is the seat, name and bonus of the
    round's cutter, the only one who may earn it."""

    class RoundForm(FlaskForm):
        went_out = RadioField(
            _l("Who went out?"),
            choices=[SelectChoice(str(seat), name) for seat, name in seats]
            + (
                [SelectChoice(STOCK, _l("Nobody: the stock ended the round"))]
                if allow_stock
                else []
            ),
            validators=[InputRequired(_l("Choose who went out."))],
        )
        cut_bonus_seat = SelectField(
            _l("Exact cut"),
            choices=[SelectChoice("", _l("Nobody"))]
            + (
                [SelectChoice(str(cutter[0]), f"{cutter[1]} (−{cutter[2]})")]
                if cutter is not None
                else []
            ),
            default="",
        )
        action_id = HiddenField(validators=[Optional(), Regexp(TOKEN)])
        version = IntegerField(
            widget=HiddenInput(), validators=[Optional(), NumberRange(0, LARGEST)]
        )

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.hands = hands_of(self, [seat for seat, _name in seats])

    for seat, _name in seats:
        add_hand(RoundForm, seat)
    if cutter is None:
        delattr(RoundForm, "cut_bonus_seat")
    return RoundForm() if posted else RoundForm(formdata=None)


def hand_tallies(
    state: GameState, number: int, hands: Mapping[int, HandFields]
) -> dict[int, int | None]:
    """The running sum of each hand's tapped cards, from the rules engine (None where refused,
    the reason at the hand's cards), for the end-of-round form and a seat's pad alike."""
    setup = setup_for(state, number)
    sums: dict[int, int | None] = {}
    for seat, hand in hands.items():
        try:
            sums[seat] = cards_points(hand.cards.data or {}, state.rules, setup.decks, setup.jokers)
        except RuleError as error:
            hand.cards.errors = [translate(worded(state.rules, error.message))]
            sums[seat] = None
    return sums
