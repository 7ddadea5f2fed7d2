"""A table's games read as plain rows for the record: no ORM objects, a fixed number of queries.

The record reads every game of a table; building ORM objects for 1,000 games costs seconds.
These light stand-ins carry only what `games.state.game_state` reads of a game, so the rules
engine scores them exactly as it scores a game on screen.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Text, cast, select

from ..extensions import db
from ..models import Buy, Game, Round, RoundResult, Seat, TablePlayer
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict


@dataclass
class SeatRow:
    """Who sat at a seat: their current name and the person they count as."""

    position: int
    name: str
    person: int


@dataclass
class ResultRow:
    """One hand at the end of a round."""

    seat: int
    went_out: bool
    points: int
    cards: dict[str, int] | None = None


@dataclass
class BuyRow:
    """One buy."""

    seat: int


@dataclass
class RoundRow:
    """A round as played."""

    number: int
    dealer: int
    tiebreak_seats: list[int] | None
    run_outs: int
    ended_by_stock: bool
    cut_bonus_seat: int | None
    down_seats: list[int] | None  # read by game_state for a round still being played
    results: list[ResultRow] = field(default_factory=list)
    buys: list[BuyRow] = field(default_factory=list)


@dataclass
class GameRow:
    """A game as the record reads it."""

    id: int
    version: int
    edit_token: str
    created_at: datetime
    first_dealer: int
    decks: int | None
    rules: RuleSet
    seats: list[SeatRow] = field(default_factory=list)
    rounds: list[RoundRow] = field(default_factory=list)


# Above this many games to read, read the whole table rather than name each game in the query.
MAX_NAMED = 1000


def table_game_rows(table_id: int, known: Callable[[GameRow], bool]) -> list[GameRow]:
    """Every game of a table as rows, in five queries; rounds only for the games not `known`.

    A known game's rounds are not read: the record keeps what it scored for them already.
    """
    mine = Game.table_id == table_id
    names, persons = _people(table_id)
    # Rule sets as their stored text: most games share one, which is then parsed only once.
    texts: dict[str, RuleSet] = {}
    games = {}
    query = select(
        Game.id,
        Game.version,
        Game.edit_token,
        Game.created_at,
        Game.first_dealer,
        Game.decks,
        cast(Game.rules_json, Text),
    )
    for *head, text in db.session.execute(query.where(mine).order_by(Game.id)):
        if text not in texts:
            texts[text] = ruleset_from_dict(json.loads(text), stored=True)
        games[head[0]] = GameRow(*head, rules=texts[text])
    seats = select(Seat.game_id, Seat.position, Seat.table_player_id).join(Game).where(mine)
    for game_id, position, player in db.session.execute(seats.order_by(Seat.position)):
        games[game_id].seats.append(SeatRow(position, names[persons[player]], persons[player]))
    unknown = [game_id for game_id, game in games.items() if not known(game)]
    wanted = mine & Game.id.in_(unknown) if len(unknown) <= MAX_NAMED else mine
    rounds = _rounds(wanted, games)
    in_rounds = select(Round.id).join(Game).where(wanted)
    results = select(
        RoundResult.round_id, RoundResult.seat, RoundResult.went_out, RoundResult.points
    ).where(RoundResult.round_id.in_(in_rounds))
    for round_id, seat, went_out, points in db.session.execute(results.order_by(RoundResult.seat)):
        rounds[round_id].results.append(ResultRow(seat, went_out, points))
    buys = select(Buy.round_id, Buy.seat).where(Buy.round_id.in_(in_rounds)).order_by(Buy.id)
    for round_id, seat in db.session.execute(buys):
        rounds[round_id].buys.append(BuyRow(seat))
    return list(games.values())


def _people(table_id: int) -> tuple[dict[int, str], dict[int, int]]:
    """Each person's name, and whom each spelling counts as after merges."""
    rows = db.session.execute(
        select(TablePlayer.id, TablePlayer.name, TablePlayer.merged_into_id).where(
            TablePlayer.table_id == table_id
        )
    ).all()
    into = {pid: merged for pid, _name, merged in rows}
    persons = {}
    for pid in into:
        person, seen = pid, {pid}
        while into.get(person) is not None and into[person] not in seen:
            person = into[person]  # type: ignore[assignment]
            seen.add(person)
        persons[pid] = person
    return {pid: name for pid, name, _merged in rows}, persons


def _rounds(mine: Any, games: dict[int, GameRow]) -> dict[int, RoundRow]:
    """The table's rounds, each attached to its game in order, by round id."""
    query = (
        select(
            Round.id,
            Round.game_id,
            Round.number,
            Round.dealer,
            Round.tiebreak_seats,
            Round.run_outs,
            Round.ended_by_stock,
            Round.cut_bonus_seat,
            Round.down_seats,
        )
        .join(Game)
        .where(mine)
        .order_by(Round.number)
    )
    rounds = {}
    for round_id, game_id, *facts in db.session.execute(query):
        rounds[round_id] = RoundRow(*facts)
        games[game_id].rounds.append(rounds[round_id])
    return rounds
