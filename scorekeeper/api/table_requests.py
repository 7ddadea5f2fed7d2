"""What each request about a table sends, declared once: read and documented from these."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ..models import LARGEST_INTEGER
from ..rules.bounds import NAME_LENGTH
from ..tables.people import TABLE_NAME_LENGTH
from .fields import text, whole
from .openapi import Parameter
from .request_base import Body, RuleSetToken
from .requests import PlayerName, Seating

PersonId = Annotated[whole(LARGEST_INTEGER), Field(description="A person's id at this table.")]  # type: ignore[valid-type]
RECORD_FILTERS = (
    Parameter(
        "ruleset",
        {"type": "string"},
        "Only games of this preset (its key), or of a house set the table has played: `house:` "
        "and its name, as the record's `house_sets` lists it.",
    ),
    Parameter("since", {"type": "string", "format": "date"}, "Only games from this day on."),
    Parameter("until", {"type": "string", "format": "date"}, "Only games up to this day."),
)
BEFORE = Parameter(
    "before",
    {"type": "integer", "minimum": 0, "maximum": LARGEST_INTEGER},
    "The games before this id (a page's `older`); left out, the newest.",
)


class NewTable(Body):
    """Open a table for a group that plays together."""

    name: text(TABLE_NAME_LENGTH)  # type: ignore[valid-type]


class NoFields(Body):
    """An empty object: this change takes no fields."""


class Rename(Body):
    """A person's new name, in every game of the table at once."""

    name: PlayerName


class Merge(Body):
    """Count one spelling's games as another person's (undone with DELETE on the merge)."""

    merged: PersonId
    into: PersonId


class NewTableGame(Seating):
    """Start a game at the table: its people by name, new names join the table."""

    ruleset: Annotated[
        text(NAME_LENGTH),  # type: ignore[valid-type]
        Field(description='A preset\'s key ("may-i") or a saved house rule set\'s ("house-7").'),
    ]
    ruleset_token: RuleSetToken = None
