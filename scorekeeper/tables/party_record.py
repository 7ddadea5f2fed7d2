"""A table's evenings as its record lists them, and where each of its games was played."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from ..extensions import db
from ..models import CardParty, CardTable, PartyGame
from .party_evening import Evening, evenings, read_evening


@dataclass(frozen=True)
class EveningLine:
    """One evening in the record: when, how many tables and people, and who won it."""

    party_id: int
    started_on: date
    tables: int  # the most tables any round of the evening had
    players: int
    winners: tuple[str, ...]  # the names first in its standings; none before a game finished
    ended: bool


@dataclass(frozen=True)
class PlayedAt:
    """Where a game of the table was played: which evening, its round and table."""

    party_id: int
    round: int
    table_number: int


def evening_lines(table: CardTable) -> list[EveningLine]:
    """The table's evenings, newest first, each read once through the rules engine."""
    return [evening_line(read_evening(table, party)) for party in evenings(table)]


def evening_line(evening: Evening) -> EveningLine:
    """An evening as one line of the record: its winners from the party standings."""
    party = evening.party
    winners = tuple(
        evening.names[row.person]
        for row in evening.standings
        if row.place == 1 and row.played and evening.played
    )
    return EveningLine(
        party_id=party.id,
        started_on=party.started_at.date(),
        tables=max((len(tables) for tables in evening.rounds), default=0),
        players=len(evening.names),
        winners=winners,
        ended=evening.ended,
    )


def played_at(table: CardTable) -> dict[int, PlayedAt]:
    """Each of the table's evening games by game id, in one query."""
    query = (
        select(PartyGame.game_id, PartyGame.party_id, PartyGame.round, PartyGame.table_number)
        .join(CardParty, CardParty.id == PartyGame.party_id)
        .where(CardParty.table_id == table.id)
    )
    return {
        game_id: PlayedAt(party_id, number, table_number)
        for game_id, party_id, number, table_number in db.session.execute(query).tuples()
    }
