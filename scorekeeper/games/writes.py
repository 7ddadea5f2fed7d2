"""Changes to the round being played: plain statements that answer the new facts.

A buy, a buy taken back, a contract marked down and a stock run-out each change one row of
the current round (or add its first). Each starts from the game's state at the version read
with its lock (games/opening.open_for_change), writes its rows as Core statements (the
round's fact, the history entry, the version bump: one transaction), and answers the facts
those statements make (`dataclasses.replace` of the ones it started from), derived by the
rules engine. Nothing is read again and no ORM object is made.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import delete, insert, update

from ..extensions import db
from ..models import Buy, Round, utcnow
from ..rules.game_facts import BuyFacts, CallFacts, RoundFacts
from ..rules.game_state import GameState
from . import history, opening
from .state import game_state


def round_to_change(state: GameState) -> RoundFacts:
    """The current round's facts; on the round's first fact, its row inserted first."""
    current = state.current
    if current is None:
        raise ValueError("a finished game has no round to change")  # actions refuse it first
    record = state.rounds.get(current.number)
    if record is not None:
        return record
    tied = list(current.seats) if current.is_tiebreaker else None
    columns: dict[str, Any] = {"game_id": state.facts.id, "number": current.number}
    columns |= {"dealer": current.dealer, "tiebreak_seats": tied}
    # A None left out is SQL NULL, as the ORM writes a column it was not given (a JSON None
    # would be the JSON text null).
    given = {key: value for key, value in columns.items() if value is not None}
    inserted = db.session.connection().execute(insert(Round), given)
    return RoundFacts(
        id=int(inserted.inserted_primary_key[0]),
        number=current.number,
        dealer=current.dealer,
        tiebreak_seats=None if tied is None else tuple(tied),
    )


def add_buy(record: RoundFacts, seat: int) -> RoundFacts:
    """Insert a buy by `seat` into the round; the round with it listed last."""
    values = {"round_id": record.id, "seat": seat, "created_at": utcnow()}
    inserted = db.session.connection().execute(insert(Buy), values)
    bought = BuyFacts(int(inserted.inserted_primary_key[0]), seat)
    return replace(record, buys=(*record.buys, bought))


def remove_buy(record: RoundFacts, buy: BuyFacts) -> RoundFacts:
    """Delete one of the round's buys; the round without it."""
    db.session.connection().execute(delete(Buy).where(Buy.id == buy.id))
    return replace(record, buys=tuple(kept for kept in record.buys if kept.id != buy.id))


def set_round(record: RoundFacts, **values: Any) -> RoundFacts:
    """Update columns of the round's row (lists stored as JSON); the round with them."""
    db.session.connection().execute(update(Round).where(Round.id == record.id).values(**values))
    frozen = {key: tuple(v) if isinstance(v, list) else v for key, v in values.items()}
    return replace(record, **frozen)


def commit(
    state: GameState,
    record: RoundFacts,
    kind: str,
    action_id: str | None,
    calls: tuple[CallFacts, ...] | None = None,
    **facts: Any,
) -> GameState:
    """Write the history entry and the version bump, derive the state they make, commit, and
    keep that state. Derived before the commit: a surprise there writes nothing. `calls`: the
    open calls left, when the change closed some in its transaction (games/calls.grant)."""
    game = state.facts
    version, now = history.write(game.id, game.version, kind, action_id, record.number, **facts)
    changed = replace(game, version=version, updated_at=now, rounds=game.with_round(record))
    if calls is not None:
        changed = replace(changed, calls=calls)
    derived = game_state(changed, state.rules)
    db.session.commit()
    opening.changed(derived)
    return derived
