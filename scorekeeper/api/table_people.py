"""A table's people and record through the API: figures, rename, merge and undoing a merge.

Each route calls the same tables service as the table's and the person's pages
(tables.people, tables.figures), so the API's figures are the pages' figures.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from flask import Blueprint, Response, request
from pydantic import BeforeValidator, Field

from ..models import LARGEST_INTEGER, CardTable, TablePlayer
from ..rules.messages import N_, msg
from ..rules.ruleset import Contract
from ..rules.stats import PlayerRecord
from ..tables import people
from ..tables.figures import Filters, person_figures, read_filters, table_record
from .base import (
    TABLE,
    Answer,
    Count,
    Parameter,
    Problem,
    Score,
    With,
    answer,
    documented,
    open_table,
)
from .fields import Body, whole
from .reading import PlayerName, read
from .tables import Person

bp = Blueprint("table_people", __name__)
PERSON = f"{TABLE}/people/<int:player_id>"  # no max=, as TABLE; anyone not found is 404
NO_PERSON = N_("This table has no person %(id)s.")
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


def _day(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date) else value


Day = Annotated[str, BeforeValidator(_day)]


class Rename(Body):
    """A person's new name, in every game of the table at once."""

    name: PlayerName


class Merge(Body):
    """Count one spelling's games as another person's (undone with DELETE on the merge)."""

    merged: PersonId
    into: PersonId


class ContractAverage(Answer):
    """Average points per round of one contract."""

    contract: Contract
    average: float


class Figures(Answer):
    """One person's figures over the games the filters keep (docs/RULES.md, "Stats")."""

    person: Person
    played: Count
    won: Count
    win_rate: float | None
    average: float | None
    best: Score | None
    worst: Score | None
    rounds_out: Count
    buys: Count
    tiebreaks: Count
    by_contract: list[ContractAverage]
    costliest: Contract | None
    totals: list[Score] = Field(description="Their total in each game, oldest first.")


def figures(person: TablePlayer, record: PlayerRecord) -> With:
    """A person's figures as their answer reads them."""
    averages = [ContractAverage(contract=c, average=a) for c, a in record.by_contract.items()]
    return With(record, person=person, by_contract=averages)


class RecordFilters(Answer):
    """The filters the figures are under: a rule set (a preset's key, or `house:` and a house
    set's name), and the first and last day."""

    ruleset: str | None
    since: Day | None
    until: Day | None


class Record(Answer):
    """Each person's figures: most wins first, then the lower average, then by name."""

    filters: RecordFilters
    people: list[Figures]
    house_sets: list[str] = Field(
        description="The house sets the table has played, by name; `ruleset=house:<name>` "
        "keeps one's games."
    )


class Versus(Answer):
    """Head-to-head with another person over the games both played."""

    other: Person
    games: Count
    ahead: Count = Field(validation_alias="first_ahead")
    behind: Count = Field(validation_alias="second_ahead")
    even: Count


class PersonRecord(Answer):
    """A person's figures and head-to-head with each person they played, as their page shows."""

    filters: RecordFilters
    figures: Figures
    versus: list[Versus]


class Merged(Answer):
    """A merge done: the spelling now counts as `into`, and how many games moved."""

    merged: Person
    into: Person
    games_moved: Count


def _person(table: CardTable, player_id: int, field: str | None = None) -> TablePlayer:
    """One of the table's people: anyone else is 404 in the URL, 422 at a field of the body."""
    try:
        return people.find(table, player_id)
    except LookupError:
        if field is None:
            raise Problem(404, msg(NO_PERSON, id=player_id)) from None
        raise Problem(422, errors={field: [msg(NO_PERSON, id=player_id)]}) from None


def _filters_of(filters: Filters) -> With:
    """The filters as the answer names them: every rule set is null, not ""."""
    return With(filters, ruleset=filters.ruleset or None)


def _filters(table: CardTable) -> Filters:
    """The record's filters from the query string, each bad one refused with 422 at its name."""
    filters = read_filters(request.args, table)
    if filters.errors:
        raise Problem(422, errors=filters.errors)
    return filters


@bp.get(f"{TABLE}/record")
@documented({200: Record}, parameters=RECORD_FILTERS)
def record_show(table_id: int) -> tuple[Response, int]:
    """Show each person's figures over the table's finished games, under the filters."""
    table, _access = open_table(table_id, change=False)
    filters = _filters(table)
    found = [figures(person, record) for person, record in table_record(table, filters)]
    return answer(Record.model_validate(With(filters, filters=_filters_of(filters), people=found)))


@bp.get(PERSON)
@documented({200: PersonRecord}, parameters=RECORD_FILTERS)
def people_show(table_id: int, player_id: int) -> tuple[Response, int]:
    """Show a person's figures and head-to-head with each person they played."""
    table, _access = open_table(table_id, change=False)
    person = _person(table, player_id)
    filters = _filters(table)
    found = person_figures(table, person, filters)
    versus = [With(score, other=other) for other, score in found.versus]
    mine = figures(person, found.record)
    shown = With(found, filters=_filters_of(filters), figures=mine, versus=versus)
    return answer(PersonRecord.model_validate(shown))


@bp.put(f"{PERSON}/name")
@documented({200: Person}, Rename)
def people_rename(table_id: int, player_id: int) -> tuple[Response, int]:
    """Rename a person once, for every game of the table."""
    table, _access = open_table(table_id, change=True)
    person = _person(table, player_id)
    people.rename(table, person, read(Rename).name)
    return answer(Person.model_validate(person))


@bp.post(f"{TABLE}/merges")
@documented({201: Merged}, Merge)
def merges_create(table_id: int) -> tuple[Response, int]:
    """Merge one spelling into another person: their games count as one person's."""
    table, _access = open_table(table_id, change=True)
    body = read(Merge)
    _person(table, body.merged, "merged")
    _person(table, body.into, "into")
    return answer(Merged.model_validate(people.merge(table, body.merged, body.into)), 201)


@bp.delete(f"{TABLE}/merges/<int:player_id>")
@documented({200: Person}, errors=(422,))
def merges_delete(table_id: int, player_id: int) -> tuple[Response, int]:
    """Undo a merge: the spelling is a person of their own again, with their own games."""
    table, _access = open_table(table_id, change=True)
    _person(table, player_id)
    return answer(Person.model_validate(people.undo_merge(table, player_id)))
