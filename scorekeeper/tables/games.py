"""A table's games: start one with the table's people, list them newest first, load them all."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm.attributes import set_committed_value

from ..capability_links import LARGEST_ID
from ..extensions import db
from ..games import actions
from ..games.state import WITH_FACTS, GameState, game_state
from ..models import Buy, CardTable, Game, Round, RoundResult, Seat, TablePlayer
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict
from . import people

PAGE_SIZE = 20


@dataclass(frozen=True)
class GamesPage:
    """One page of a table's games, newest first, and where the next page starts."""

    games: list[GameState]
    older: int | None  # the id to ask for the next page from; None on the last page
    total: int


def start_game(
    table: CardTable, rules: RuleSet, names: list[str], first_dealer: int | None, decks: int | None
) -> Game:
    """Start a game that belongs to the table, seating its people (new names join the table)."""
    seated = people.seat_people(table, names)
    return actions.create_game(rules, [p.name for p in seated], first_dealer, decks, seated)


def games_page(table: CardTable, before: int | None = None) -> GamesPage:
    """A page of the table's games, newest first, in a fixed number of queries."""
    load_people(table)
    query = select(Game).where(Game.table_id == table.id).order_by(Game.id.desc())
    # An id past the column's range would overflow the database: every game is before it.
    if before is not None and before <= LARGEST_ID:
        query = query.where(Game.id < before)
    found = list(db.session.scalars(query.limit(PAGE_SIZE + 1).options(*WITH_FACTS)))
    older = found[PAGE_SIZE - 1].id if len(found) > PAGE_SIZE else None
    count = select(func.count(Game.id)).where(Game.table_id == table.id)
    total = db.session.scalar(count) or 0
    return GamesPage([game_state(g) for g in found[:PAGE_SIZE]], older, total)


def all_games(table: CardTable) -> list[GameState]:
    """Every game of the table, oldest first, in a fixed number of queries whatever their number.

    Each kind of fact is read in one query joined on the table (not a list of game ids, which
    SQLAlchemy would split into chunks), and each distinct rule set is read once.
    """
    load_people(table)
    mine = Game.table_id == table.id
    found = list(db.session.scalars(select(Game).where(mine).order_by(Game.id)))
    seats = _by(db.session.scalars(select(Seat).join(Game).where(mine)), "game_id")
    rounds = list(db.session.scalars(select(Round).join(Game).where(mine)))
    in_rounds = select(Round.id).join(Game).where(mine)
    results = _by(
        db.session.scalars(select(RoundResult).where(RoundResult.round_id.in_(in_rounds))),
        "round_id",
    )
    buys = _by(db.session.scalars(select(Buy).where(Buy.round_id.in_(in_rounds))), "round_id")
    for played in rounds:
        set_committed_value(
            played, "results", sorted(results.get(played.id, []), key=lambda r: r.seat)
        )
        set_committed_value(played, "buys", sorted(buys.get(played.id, []), key=lambda b: b.id))
    by_game = _by(rounds, "game_id")
    read: dict[str, RuleSet] = {}
    states = []
    for game in found:
        set_committed_value(game, "seats", sorted(seats.get(game.id, []), key=lambda s: s.position))
        set_committed_value(
            game, "rounds", sorted(by_game.get(game.id, []), key=lambda r: r.number)
        )
        key = json.dumps(game.rules_json, sort_keys=True)
        rules = read.get(key) or read.setdefault(
            key, ruleset_from_dict(game.rules_json, stored=True)
        )
        states.append(game_state(game, rules))
    return states


def _by(rows: Iterable[Any], attribute: str) -> dict[int, list[Any]]:
    """Rows grouped by one of their columns."""
    grouped: dict[int, list[Any]] = {}
    for row in rows:
        grouped.setdefault(getattr(row, attribute), []).append(row)
    return grouped


def load_people(table: CardTable) -> list[TablePlayer]:
    """Load every person of the table once, so following merges asks the database nothing."""
    query = select(TablePlayer).where(TablePlayer.table_id == table.id)
    return list(db.session.scalars(query))
