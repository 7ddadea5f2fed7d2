"""The card party's start form: field shapes only; the rules engine says who can be seated."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    TextAreaField,
)
from wtforms.validators import InputRequired, Length, NumberRange
from wtforms.widgets import CheckboxInput, ListWidget

from .. import house_rules
from ..models import TablePlayer
from ..rules.party_rotation import Rotation
from ..rules.presets import PRESETS
from ..tables.party import MOST_PEOPLE, MOST_ROUNDS_PER_SEATING
from .remembered_rule_sets import saved_here

EVEN = ""  # the tables choice "as even as possible"
ROTATIONS = {
    Rotation.PROGRESSIVE: _l("Progressive: each table's winner moves up, its last moves down"),
    Rotation.BY_STANDINGS: _l("By standings: the leaders play together"),
    Rotation.MIX: _l("Mix: the fewest repeated opponents"),
}


class PartyForm(FlaskForm):
    """Who is here, the rule set, how many tables, how people move."""

    people = SelectMultipleField(
        _l("Who is here"),
        coerce=int,
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
        validate_choice=False,  # the service refuses anyone not of this table, at the field
    )
    new_names = TextAreaField(
        _l("New people, one name a line"), validators=[Length(max=MOST_PEOPLE * 41)]
    )
    ruleset = SelectField(_l("Rule set"))
    tables = SelectField(_l("Tables"), default=EVEN)
    rotation = RadioField(
        _l("After each game"),
        choices=[SelectChoice(r.value, label) for r, label in ROTATIONS.items()],
        default=Rotation.MIX.value,
    )
    rotate_every = IntegerField(
        _l("Move after every how many games"),
        default=1,
        validators=[InputRequired(), NumberRange(min=1, max=MOST_ROUNDS_PER_SEATING)],
    )

    def __init__(self, known: list[TablePlayer], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.people.choices = [SelectChoice(p.id, p.name) for p in known]
        self.ruleset.choices = [SelectChoice(k, _l(p.name)) for k, p in PRESETS.items()] + [
            SelectChoice(house_rules.key_of(saved), saved.name) for saved in saved_here()
        ]
        self.tables.choices = [SelectChoice(EVEN, _l("As even as possible"))] + [
            SelectChoice(str(n), str(n)) for n in range(1, MOST_PEOPLE // 3 + 1)
        ]

    def names(self) -> list[str]:
        """The typed new names, blanks dropped."""
        return [line.strip() for line in (self.new_names.data or "").splitlines() if line.strip()]

    def table_count(self) -> int | None:
        """The chosen number of tables; None: as even as possible."""
        return int(self.tables.data) if self.tables.data else None
