"""A table's card parties through the API: list its evenings, read one (settings, tables,
seating, standings).

They open with the table's edit or view link as a bearer token, as the table does; an evening
answers the same to both and names no link, so a relative's view link sees the standings and
never a way in. Starting and moving an evening are the pages' for now.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from flask import Blueprint, Response
from pydantic import Field

from ..models import CardTable
from ..rules.messages import N_, msg
from ..tables.party_evening import Evening, find_party, read_evening
from ..tables.party_record import evening_lines
from .base import (
    TABLE,
    Answer,
    Count,
    Problem,
    Timestamp,
    With,
    answer,
    answer_list,
    documented,
    open_table,
)

bp = Blueprint("parties", __name__)
PARTY = f"{TABLE}/parties/<int:party_id>"
NO_PARTY = N_("This table has no card party %(id)s.")


class PartySummary(Answer):
    """An evening as the table's record lists it."""

    id: Count = Field(validation_alias="party_id")
    started_on: date
    tables: Count = Field(description="The most tables any round of the evening had.")
    players: Count
    winners: list[str] = Field(description="First in its standings; none before a game ended.")
    ended: bool


class PartyTable(Answer):
    """One table of the evening's current round: its game and who sits there, by seat."""

    number: Count
    game_id: Count
    players: list[str]
    finished: bool


class PartyStanding(Answer):
    """One person's line in the evening's combined standings (docs/RULES.md, the card party)."""

    name: str
    points: float = Field(description="Placement points: 10 for first at a table, 0 for last.")
    won: Count
    margin: Count = Field(description="The sum of their totals minus each table's winner's.")
    played: Count
    place: Count


class Party(Answer):
    """An evening: what the organiser chose, its current round's tables, what waits, the next
    seating proposed and the standings."""

    id: Count
    state: Literal["drawing", "playing", "ended"]
    ended: bool
    version: Count = Field(description="Moves with each of the evening's own changes.")
    ruleset: str
    ruleset_name: str
    rotation: Literal["progressive", "by_standings", "mix"]
    rotate_every: Count
    tables: Count | None = Field(description="The tables chosen; null: as even as possible.")
    started_at: Timestamp
    round: Count = Field(description="The round of the evening being (or last) played; 0 first.")
    current: list[PartyTable]
    waiting_for: list[Count] = Field(description="The tables of this round still playing.")
    proposal: list[list[str]] | None = Field(
        description="The next seating by table, names; null while a round is played or ended."
    )
    standings: list[PartyStanding]


@bp.get(f"{TABLE}/parties")
@documented({200: list[PartySummary]})
def parties_index(table_id: int) -> tuple[Response, int]:
    """List the table's card parties, newest first, each with its winners."""
    table, _access = open_table(table_id, change=False)
    return answer_list([PartySummary.model_validate(line) for line in evening_lines(table)])


@bp.get(PARTY)
@documented({200: Party})
def parties_show(table_id: int, party_id: int) -> tuple[Response, int]:
    """Show one card party: its settings, current tables, next seating and standings."""
    table, _access = open_table(table_id, change=False)
    return answer(Party.model_validate(party_of(_evening(table, party_id))))


def _evening(table: CardTable, party_id: int) -> Evening:
    """The table's evening of this id, read once; another table's or none is 404."""
    try:
        return read_evening(table, find_party(table, party_id))
    except LookupError:
        raise Problem(404, msg(NO_PARTY, id=party_id)) from None


def party_of(evening: Evening) -> With:
    """An evening as its answer reads it: people by name, the engine's standings."""
    names = evening.names
    party = evening.party
    return With(
        party,
        ruleset=evening.rules.key,
        ruleset_name=evening.rules.name,
        ended=evening.ended,
        round=evening.round_number,
        current=[
            With(
                table,
                game_id=table.game.facts.id,
                players=list(table.game.names),
                finished=table.finished,
            )
            for table in evening.current
        ],
        waiting_for=list(evening.waiting_for),
        proposal=None
        if evening.proposal is None
        else [[names[key] for key in seated] for seated in evening.proposal],
        standings=[With(row, name=names[row.person]) for row in evening.standings],
    )
