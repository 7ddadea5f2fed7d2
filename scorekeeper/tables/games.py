"""A table's games: start one with the table's people, list them newest first, load them all."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from ..extensions import db
from ..games import actions
from ..games.state import WITH_FACTS, GameState, game_state
from ..models import CardTable, Game, TablePlayer
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
    load_people(table)
    query = select(Game).where(Game.table_id == table.id).order_by(Game.id.desc())
    if before is not None:
        query = query.where(Game.id < before)
    found = list(db.session.scalars(query.limit(PAGE_SIZE + 1).options(*WITH_FACTS)))
    older = found[PAGE_SIZE - 1].id if len(found) > PAGE_SIZE else None
    count = select(func.count(Game.id)).where(Game.table_id == table.id)
    total = db.session.scalar(count) or 0
    return GamesPage([game_state(g) for g in found[:PAGE_SIZE]], older, total)


def all_games(table: CardTable) -> list[GameState]:
    """Every game of the table, oldest first, in a fixed number of queries."""
    load_people(table)
    query = select(Game).where(Game.table_id == table.id).order_by(Game.id).options(*WITH_FACTS)
    return [game_state(game) for game in db.session.scalars(query)]


def load_people(table: CardTable) -> list[TablePlayer]:
    """Load every person of the table once, so following merges asks the database nothing."""
    query = select(TablePlayer).where(TablePlayer.table_id == table.id)
    return list(db.session.scalars(query))
