"""A table's people and record through the API: figures, rename, merge and undoing a merge.

Each route calls the same tables service as the table's and the person's pages
(tables.people, tables.figures), so the API's figures are the pages' figures.
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from ..models import CardTable, TablePlayer
from ..rules.messages import N_, msg
from ..tables import people
from ..tables.figures import Filters, person_figures, read_filters, table_record
from .access import open_table
from .answer_base import answer
from .openapi import documented
from .problems import Problem
from .reading import read
from .table_answers import Figures, Merged, Person, PersonRecord, Record, RecordFilters, Versus
from .table_requests import RECORD_FILTERS, Merge, Rename
from .tables import TABLE

PERSON = f"{TABLE}/people/<int:player_id>"  # no max=, as TABLE; anyone not found is 404
NO_PERSON = N_("This table has no person %(id)s.")


def _person(table: CardTable, player_id: int, field: str | None = None) -> TablePlayer:
    """One of the table's people: anyone else is 404 in the URL, 422 at a field of the body."""
    try:
        return people.find(table, player_id)
    except LookupError:
        if field is None:
            raise Problem(404, msg(NO_PERSON, id=player_id)) from None
        raise Problem(422, errors={field: [msg(NO_PERSON, id=player_id)]}) from None


def _filters(table: CardTable) -> Filters:
    """The record's filters from the query string, each bad one refused with 422 at its name."""
    filters = read_filters(request.args, table)
    if filters.errors:
        raise Problem(422, errors=filters.errors)
    return filters


@documented({200: Record}, parameters=RECORD_FILTERS)
def record_show(table_id: int) -> tuple[Response, int]:
    """Show each person's figures over the table's finished games, under the filters."""
    table, _access = open_table(table_id, change=False)
    filters = _filters(table)
    figures = [Figures.of(person, record) for person, record in table_record(table, filters)]
    house_sets = list(filters.house_sets)
    return answer(Record(filters=RecordFilters.of(filters), people=figures, house_sets=house_sets))


@documented({200: PersonRecord}, parameters=RECORD_FILTERS)
def people_show(table_id: int, player_id: int) -> tuple[Response, int]:
    """Show a person's figures and head-to-head with each person they played."""
    table, _access = open_table(table_id, change=False)
    person = _person(table, player_id)
    filters = _filters(table)
    found = person_figures(table, person, filters)
    return answer(
        PersonRecord(
            filters=RecordFilters.of(filters),
            figures=Figures.of(person, found.record),
            versus=[Versus.of(other, score) for other, score in found.versus],
        )
    )


@documented({200: Person}, Rename)
def people_rename(table_id: int, player_id: int) -> tuple[Response, int]:
    """Rename a person once, for every game of the table."""
    table, _access = open_table(table_id, change=True)
    person = _person(table, player_id)
    people.rename(table, person, read(Rename).name)
    return answer(Person.of(person))


@documented({201: Merged}, Merge)
def merges_create(table_id: int) -> tuple[Response, int]:
    """Merge one spelling into another person: their games count as one person's."""
    table, _access = open_table(table_id, change=True)
    body = read(Merge)
    _person(table, body.merged, "merged")
    _person(table, body.into, "into")
    done = people.merge(table, body.merged, body.into)
    merged = Merged(
        merged=Person.of(done.merged), into=Person.of(done.into), games_moved=done.games_moved
    )
    return answer(merged, 201)


@documented({200: Person}, errors=(422,))
def merges_delete(table_id: int, player_id: int) -> tuple[Response, int]:
    """Undo a merge: the spelling is a person of their own again, with their own games."""
    table, _access = open_table(table_id, change=True)
    _person(table, player_id)
    return answer(Person.of(people.undo_merge(table, player_id)))


def register(bp: Blueprint) -> None:
    """Add the people and record routes to the API, under the table's URL."""
    bp.add_url_rule(f"{TABLE}/record", view_func=record_show, methods=["GET"])
    bp.add_url_rule(PERSON, view_func=people_show, methods=["GET"])
    bp.add_url_rule(f"{PERSON}/name", view_func=people_rename, methods=["PUT"])
    bp.add_url_rule(f"{TABLE}/merges", view_func=merges_create, methods=["POST"])
    merge = f"{TABLE}/merges/<int:player_id>"
    bp.add_url_rule(merge, view_func=merges_delete, methods=["DELETE"])
