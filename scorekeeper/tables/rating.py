"""A table's family rating: off by default; on, replayed from every finished game (RULES.md 12)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select

from ..database import lock_table
from ..extensions import db
from ..models import CardTable, Game, Round
from ..rules.party_rating import Rating, expected_places, ratings
from ..rules.party_standings import table_game
from .games import all_games


def switch(table: CardTable, on: bool) -> None:
    """Turn the table's rating on or off; off, nothing of it is shown anywhere."""
    lock_table(table.id)
    table.rating = on
    db.session.commit()


def table_ratings(table: CardTable) -> dict[int, Rating]:
    """Each person's rating by their id, replayed from the table's finished games in the order
    they finished (their last round's end); empty while the rating is off."""
    if not table.rating:
        return {}
    finished = [state for state in all_games(table) if state.finished]
    query = (
        select(Round.game_id, func.max(Round.ended_at))
        .join(Game, Game.id == Round.game_id)
        .where(Game.table_id == table.id)
        .group_by(Round.game_id)
    )
    ended = {game_id: (at is None, str(at)) for game_id, at in db.session.execute(query).tuples()}
    finished.sort(key=lambda state: (ended.get(state.facts.id, (True, "")), state.facts.id))
    placed = [
        table_game(0, 0, [str(seat.person) for seat in state.facts.seats], state.standings)
        for state in finished
    ]
    return {int(key): rating for key, rating in ratings(placed).items()}


def expected(people: Sequence[int], known: dict[int, Rating]) -> dict[int, int]:
    """Each person's expected place at their table before a game, from the ratings so far."""
    places = expected_places([str(p) for p in people], {str(k): r for k, r in known.items()})
    return dict(zip(people, places, strict=True))
