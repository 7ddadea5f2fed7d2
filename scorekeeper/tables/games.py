"""A table's games: start one with the table's people, list them newest first, load them all."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import subqueryload

from ..extensions import db
from ..games import actions
from ..games.facts import read_games, read_table_games
from ..games.state import game_state
from ..models import LARGEST_INTEGER, CardTable, Game, Round, TablePlayer
from ..rules.game_state import GameState
from ..rules.ruleset import RuleSet
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
    query = select(Game.id).where(Game.table_id == table.id).order_by(Game.id.desc())
    # An id past the column's range would overflow the database: every game is before it.
    if before is not None and before <= LARGEST_INTEGER:
        query = query.where(Game.id < before)
    found = list(db.session.scalars(query.limit(PAGE_SIZE + 1)))
    older = found[PAGE_SIZE - 1] if len(found) > PAGE_SIZE else None
    count = select(func.count(Game.id)).where(Game.table_id == table.id)
    total = db.session.scalar(count) or 0
    newest = sorted(read_games(found[:PAGE_SIZE]), key=lambda facts: facts.id, reverse=True)
    return GamesPage([game_state(facts) for facts in newest], older, total)


def all_games(table: CardTable) -> list[GameState]:
    """Every game of the table as its state, oldest first, in a fixed number of queries."""
    return [game_state(facts) for facts in read_table_games(table.id, lambda _facts: False)]


def all_game_rows(table: CardTable) -> list[Game]:
    """Every game of the table as ORM rows with every stored column (a backup writes them
    all, and when each buy was made), oldest first, in a fixed number of queries.

    subqueryload reads each kind of fact in one query joined on the table's games;
    selectinload would name their ids, 500 to a query (77 statements for 2,000 games, not 13).
    The rules engine never reads these (all_games).
    """
    load_people(table)
    rounds = subqueryload(Game.rounds)
    query = select(Game).where(Game.table_id == table.id).order_by(Game.id)
    loaded = query.options(
        subqueryload(Game.seats),
        rounds.subqueryload(Round.results),
        rounds.subqueryload(Round.buys),
    )
    return list(db.session.scalars(loaded))


def load_people(table: CardTable) -> list[TablePlayer]:
    """Load every person of the table once, so following merges asks the database nothing."""
    query = select(TablePlayer).where(TablePlayer.table_id == table.id)
    return list(db.session.scalars(query))
