"""A card party's evening as it stands: its rounds, tables, standings and next seating."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy import func, select

from ..extensions import db
from ..games.facts import read_games
from ..games.state import game_state, parsed_rules
from ..models import (
    LARGEST_INTEGER,
    CardParty,
    CardTable,
    Game,
    PartyChange,
    PartyGame,
    PartyPerson,
    TablePlayer,
    person_of,
)
from ..rules.game_state import GameState
from ..rules.party_end import evening_over
from ..rules.party_rotation import Rotation, next_seating
from ..rules.party_seating import Seating, draw_seating, table_sizes
from ..rules.party_standings import (
    PartyRow,
    TableGame,
    Tonight,
    party_standings,
    table_game,
    tonight,
)
from ..rules.ruleset import RuleSet
from .games import load_people


@dataclass(frozen=True)
class PartyTable:
    """One table of a round of the evening: its number and its game as it stands."""

    number: int
    game: GameState

    @property
    def finished(self) -> bool:
        """Whether its game has a winner."""
        return self.game.finished


@dataclass(frozen=True)
class Evening:
    """An evening read once: its people by key, each round's tables, the finished games'
    placements, the standings, and the seating the organiser would confirm next."""

    party: CardParty
    rules: RuleSet
    names: dict[str, str]  # a person's key (their table person id) and name
    rounds: tuple[tuple[PartyTable, ...], ...]
    played: tuple[TableGame, ...]
    standings: tuple[PartyRow, ...]
    proposal: Seating | None  # None while a round is being played or once it has ended
    ended: bool

    @property
    def round_number(self) -> int:
        """The round being played or last played; 0 before the first."""
        return len(self.rounds)

    @property
    def current(self) -> tuple[PartyTable, ...]:
        """The tables of the round being played or last played."""
        return self.rounds[-1] if self.rounds else ()

    @property
    def waiting_for(self) -> tuple[int, ...]:
        """The tables of this round still playing, which every other table waits for."""
        return tuple(table.number for table in self.current if not table.finished)

    @property
    def mark(self) -> str:
        """What a poll compares (poll_mark reads the same in one query)."""
        versions = sum(t.game.facts.version for tables in self.rounds for t in tables)
        return _mark(self.party, versions, self.ended)

    def tonight(self, key: str) -> Tonight:
        """One person's games, tables, places and opponents tonight."""
        return tonight(key, self.played)

    def seat_of(self, key: str) -> tuple[PartyTable, int] | None:
        """Where a person sits in the round being played (or last played): table and seat."""
        for table in self.current:
            for seat in table.game.facts.seats:
                if str(seat.person) == key:
                    return table, seat.position
        return None


def read_evening(table: CardTable, party: CardParty, now: datetime | None = None) -> Evening:
    """Read an evening and its games in a fixed number of queries, and derive the rest."""
    people = {p.id: p for p in load_people(table)}
    names = {_key(people, row): person_of(people[row]).name for row in _present(party)}
    placed = list(
        db.session.execute(
            select(PartyGame.round, PartyGame.table_number, PartyGame.game_id)
            .where(PartyGame.party_id == party.id)
            .order_by(PartyGame.round, PartyGame.table_number)
        ).tuples()
    )
    states = {facts.id: game_state(facts) for facts in read_games([row[2] for row in placed])}
    rounds: list[list[PartyTable]] = []
    for number, table_number, game_id in placed:
        if number > len(rounds):
            rounds.append([])
        rounds[-1].append(PartyTable(table_number, states[game_id]))
    played = tuple(
        table_game(number + 1, t.number, _people_of(t.game), t.game.standings)
        for number, tables in enumerate(rounds)
        for t in tables
        if t.finished
    )
    newest = max((_aware(s.facts.updated_at) for s in states.values()), default=None)
    ended = _ended(party, newest, now)
    rules = evening_rules(party)
    standings = party_standings(list(names), played)
    frozen = tuple(tuple(t) for t in rounds)
    evening = Evening(party, rules, names, frozen, played, standings, None, ended)
    return _with_proposal(evening)


def poll_mark(party: CardParty, now: datetime | None = None) -> str:
    """The evening's mark for a poll in one query: its version, its games' versions (both only
    grow, so their sum moves with any change) and whether it has ended."""
    query = (
        select(func.coalesce(func.sum(Game.version), 0), func.max(Game.updated_at))
        .join(PartyGame, PartyGame.game_id == Game.id)
        .where(PartyGame.party_id == party.id)
    )
    versions, newest = db.session.execute(query).one()
    return _mark(party, int(versions), _ended(party, newest, now))


def _mark(party: CardParty, versions: int, ended: bool) -> str:
    """The evening's version, its games' and whether it has ended, as one word."""
    return f"{party.version}.{versions}.{int(ended)}"


def _ended(party: CardParty, newest: datetime | None, now: datetime | None = None) -> bool:
    """Ended by the organiser, or 6 hours after the evening or any of its games last changed."""
    last = max([_aware(party.updated_at), *([_aware(newest)] if newest else [])])
    ended_at = _aware(party.ended_at) if party.ended_at else None
    return party.state == "ended" or evening_over(last, now or datetime.now(UTC), ended_at)


def find_party(table: CardTable, party_id: int) -> CardParty:
    """One of this table's evenings; another table's is not found (404 at the door)."""
    party = db.session.get(CardParty, party_id) if party_id <= LARGEST_INTEGER else None
    if party is None or party.table_id != table.id:
        raise LookupError(party_id)
    return party


def evenings(table: CardTable) -> list[CardParty]:
    """The table's evenings, newest first."""
    query = select(CardParty).where(CardParty.table_id == table.id)
    return list(db.session.scalars(query.order_by(CardParty.id.desc())))


def evening_rules(party: CardParty) -> RuleSet:
    """The evening's frozen rule set, parsed once per text as a game's."""
    return parsed_rules(json.dumps(party.rules_json, sort_keys=True))


def _with_proposal(evening: Evening) -> Evening:
    """The seating the organiser confirms next: the one drawn or swapped, else the rule's."""
    party = evening.party
    if evening.ended or evening.waiting_for:
        return evening
    if party.seating is not None:
        proposal = tuple(tuple(str(p) for p in table) for table in party.seating)
    elif not evening.rounds:
        sizes = table_sizes(len(evening.names), evening.rules, party.tables)
        proposal = draw_seating(sorted(evening.names), sizes, party.seed)
    else:
        proposal = rule_proposal(evening)
    return replace(evening, proposal=proposal)


def rule_proposal(evening: Evening) -> Seating:
    """The next seating by the evening's rotation; the same seating again until the round
    that completes its k rounds of the evening."""
    last = tuple(_people_of(table.game) for table in evening.current)
    if evening.round_number % evening.party.rotate_every:
        return last
    rotation = Rotation(evening.party.rotation)
    return next_seating(rotation, last, evening.played, evening.party.seed + evening.round_number)


def changes_of(party: CardParty) -> list[PartyChange]:
    """The evening's own changes, newest first, for the table to see."""
    query = select(PartyChange).where(PartyChange.party_id == party.id)
    return list(db.session.scalars(query.order_by(PartyChange.version.desc())))


def _present(party: CardParty) -> list[int]:
    """The table person ids of the people present."""
    query = select(PartyPerson.person_id).where(PartyPerson.party_id == party.id)
    return list(db.session.scalars(query.order_by(PartyPerson.id)))


def _key(people: dict[int, TablePlayer], person_id: int) -> str:
    """A person's key in the rules engine: their id after any merge."""
    return str(person_of(people[person_id]).id)


def _people_of(game: GameState) -> tuple[str, ...]:
    """A game's people's keys, by seat."""
    return tuple(str(seat.person) for seat in game.facts.seats)


def _aware(moment: datetime) -> datetime:
    """A stored time with its zone: SQLite hands it back without one, meaning UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
