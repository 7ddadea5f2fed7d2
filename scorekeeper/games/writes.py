"""Changes to the round being played: written past the ORM, the new state derived, not read.

A buy, a buy taken back, a contract marked down and a stock run-out each change one row of
the current round (or add its first). Each starts from the game's state at the version read
with its lock: the state kept for that version, else one derived from the facts. It writes its
rows as Core statements (the round's fact, the history entry, the version bump: one
transaction) and derives the new state from copies of the rows it changed, which it keeps for
the next request. Nothing is read again, and no object another request may hold is touched.
"""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import delete, insert, inspect, update
from sqlalchemy.orm.attributes import set_committed_value

from ..extensions import db
from ..models import Buy, Game, Round, utcnow
from . import history
from .state import GameState, game_state, kept_states, load_game

Row = TypeVar("Row", Game, Round, Buy)


def state_for_change(game_id: int, version: int) -> GameState:
    """The game's state at the version its lock read: kept, else derived from its facts.

    Facts read here leave the session at once: the change writes past the ORM, so no later
    read in this request may be answered from objects that hold the facts before it.
    """
    state = kept_states().get(game_id, version)
    if state is None:
        game = load_game(game_id)
        state = game_state(game)
        db.session.expunge(game)
    return state


def round_to_change(state: GameState) -> Round:
    """A copy of the current round's row to change; on the round's first fact, a new row."""
    current = state.current
    if current is None:
        raise ValueError("a finished game has no round to change")  # actions refuse it first
    record = state.rounds.get(current.number)
    if record is not None:
        return _copy(record)
    tied = list(current.seats) if current.is_tiebreaker else None
    columns = {"game_id": state.game.id, "number": current.number, "dealer": current.dealer}
    columns["tiebreak_seats"] = tied
    # A None left out is SQL NULL, as the ORM writes a column it was not given (a JSON None
    # would be the JSON text null).
    given = {key: value for key, value in columns.items() if value is not None}
    inserted = db.session.connection().execute(insert(Round), given)
    return _new(
        Round,
        **columns,
        id=inserted.inserted_primary_key[0],
        run_outs=0,
        ended_by_stock=False,
        cut_bonus_seat=None,
        down_seats=None,
        ended_at=None,
        results=[],
        buys=[],
    )


def add_buy(record: Round, seat: int) -> int:
    """Insert a buy by `seat` into the round (its copy lists it last); the buy's id."""
    values = {"round_id": record.id, "seat": seat, "created_at": utcnow()}
    inserted = db.session.connection().execute(insert(Buy), values)
    buy_id = int(inserted.inserted_primary_key[0])
    set_committed_value(record, "buys", [*record.buys, _new(Buy, id=buy_id, **values)])
    return buy_id


def remove_buy(record: Round, buy: Buy) -> None:
    """Delete one of the round's buys (and drop it from the copy)."""
    db.session.connection().execute(delete(Buy).where(Buy.id == buy.id))
    set_committed_value(record, "buys", [kept for kept in record.buys if kept.id != buy.id])


def set_round(record: Round, **values: Any) -> None:
    """Update columns of the round's row (and of its copy)."""
    db.session.connection().execute(update(Round).where(Round.id == record.id).values(**values))
    for key, value in values.items():
        set_committed_value(record, key, value)


def commit(
    state: GameState, record: Round, kind: str, action_id: str | None, **facts: Any
) -> GameState:
    """Write the history entry and the version bump, derive the state they make, commit, and
    keep that state. Derived before the commit: a surprise there writes nothing."""
    game = state.game
    version, now = history.write(game.id, game.version, kind, action_id, record.number, **facts)
    rounds = [kept for kept in game.rounds if kept.number != record.number] + [record]
    rounds.sort(key=lambda kept: kept.number)
    changed = game_state(_copy(game, version=version, updated_at=now, rounds=rounds), state.rules)
    db.session.commit()
    kept_states().keep(changed)
    return changed


def _new(model: type[Row], **values: Any) -> Row:
    """A new object of a model with these values, set as loaded ones, without ORM events.

    A plain assignment of a relationship would fire its backref and move the children (which
    other requests may be reading, in a kept state) over to the new object.
    """
    fresh: Row = inspect(model).class_manager.new_instance()
    for key, value in values.items():
        set_committed_value(fresh, key, value)
    return fresh


def _copy(row: Row, **changes: Any) -> Row:
    """A new object with a loaded row's loaded attributes, `changes` applied (see _new)."""
    unloaded = inspect(row).unloaded
    keys = [prop.key for prop in inspect(type(row)).attrs if prop.key not in unloaded]
    return _new(type(row), **({key: getattr(row, key) for key in keys} | changes))
