"""Changes to a game's rounds: plain statements that answer the new facts.

A buy, a buy taken back, a contract marked down and a stock run-out each change one row of
the current round (or add its first); a round's end (or its correction) writes the round's
hands, and an undo puts back what one change replaced. Each starts from the game's state at
the version read with its lock (games/opening.open_for_change), writes its rows as Core
statements (the round's facts, the history entry, the version bump: one transaction), and
answers the facts those statements make (`dataclasses.replace` of the ones it started from),
derived by the rules engine before the commit: a refusal there rolls everything back. Nothing
is read again and no ORM object is made.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import bindparam, delete, insert, update

from ..extensions import db
from ..models import Buy, Change, Round, RoundResult, SeatCall, utcnow
from ..rules.errors import RuleError
from ..rules.game_facts import (
    BuyFacts,
    CallFacts,
    EnteredHand,
    GameFacts,
    ResultFacts,
    RoundFacts,
)
from ..rules.game_state import GameState
from . import history, opening
from .state import game_state

RECORDED, PASSED, DISMISSED = "recorded", "passed", "dismissed"  # a closed call's outcome
# Built once (database.GAME_ROW says why).
BUY, BUY_TAKEN_BACK = insert(Buy), delete(Buy).where(Buy.id == bindparam("buy"))


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
    inserted = db.session.connection().execute(BUY, values)
    bought = BuyFacts(int(inserted.inserted_primary_key[0]), seat)
    return replace(record, buys=(*record.buys, bought))


def remove_buy(record: RoundFacts, buy: BuyFacts) -> RoundFacts:
    """Delete one of the round's buys; the round without it."""
    db.session.connection().execute(BUY_TAKEN_BACK, {"buy": buy.id})
    return replace(record, buys=tuple(kept for kept in record.buys if kept.id != buy.id))


def set_round(record: RoundFacts, **values: Any) -> RoundFacts:
    """Update columns of the round's row (lists stored as JSON); the round with them."""
    db.session.connection().execute(update(Round).where(Round.id == record.id).values(**values))
    frozen = {key: tuple(v) if isinstance(v, list) else v for key, v in values.items()}
    return replace(record, **frozen)


# Made once, its cache key with it, as database.GAME_ROW and history's statements are: with
# them, a round's end saved by the form 11.0 M -> 8.07 M instructions (-27 %, issue 37,
# `bench/cost_table.py`, callgrind, SQLite).
_ENDED = (
    update(Round)
    .where(Round.id == bindparam("round"))
    .values(
        ended_by_stock=bindparam("by_stock"),
        cut_bonus_seat=bindparam("cut"),
        ended_at=bindparam("at"),
    )
)


def end_round(record: RoundFacts, end: dict[str, Any] | None) -> RoundFacts:
    """Write how the round ended as `end` has it (history.snapshot's shape; None reopens the
    round): its hands deleted and inserted again. The round with them, in order of seat (as
    games/facts.py reads them)."""
    connection = db.session.connection()
    if record.results:
        connection.execute(delete(RoundResult).where(RoundResult.round_id == record.id))
    results: list[dict[str, Any]] = end["results"] if end else []
    by_stock = bool(end and end["ended_by_stock"])
    cut: int | None = end["cut_bonus_seat"] if end else None
    ended = {"round": record.id, "by_stock": by_stock, "cut": cut}
    connection.execute(_ENDED, ended | {"at": utcnow() if end else None})
    if results:
        connection.execute(insert(RoundResult), [{"round_id": record.id, **r} for r in results])
    hands = sorted((ResultFacts(**hand) for hand in results), key=lambda hand: hand.seat)
    return replace(record, ended_by_stock=by_stock, cut_bonus_seat=cut, results=tuple(hands))


def take_back(record: RoundFacts, change: Change) -> RoundFacts:
    """Put back in the round what `change` replaced (an undo); the round as that leaves it."""
    before = change.before or {}
    if change.kind == "buy":
        buy = _last_buy(record, change.seat)
        return record if buy is None else remove_buy(record, buy)
    if change.kind == "buy_removed" and change.seat is not None:
        return add_buy(record, change.seat)
    if change.kind == "run_out":
        return set_round(record, run_outs=before.get("run_outs", 0))
    if change.kind in ("down", "down_removed"):
        return set_round(record, down_seats=before.get("down") or None)
    if change.kind == "result":
        return end_round(record, change.before)
    return record


def _last_buy(record: RoundFacts, seat: int | None) -> BuyFacts | None:
    """The seat's newest buy of the round (the highest id): the one an undo of its buy takes off.

    Undo goes newest first, so every later change of that seat's buys is undone already: its
    newest buy is the one the buy made, or the row an undone take-back put back in its place
    (a new row, so the buy's own id, kept in its history entry, may name nothing any more).
    """
    return max((b for b in record.buys if b.seat == seat), key=lambda b: b.id, default=None)


def commit(
    state: GameState,
    record: RoundFacts,
    kind: str,
    action_id: str | None,
    calls: tuple[CallFacts, ...] | None = None,
    entered: tuple[EnteredHand, ...] | None = None,
    **facts: Any,
) -> GameState:
    """Finish a change of `record`'s round (`change`). `calls`: the open calls left, when the
    change closed some in its transaction (close_calls); `entered`: the phones' entries left (a
    round's save clears its own)."""
    made: dict[str, Any] = {"rounds": state.facts.with_round(record)}
    if calls is not None:
        made["calls"] = calls
    if entered is not None:
        made["entered"] = entered
    return change(state, made, kind, action_id, record.number, **facts)


def change(
    state: GameState,
    made: dict[str, Any],
    kind: str,
    action_id: str | None,
    round_number: int | None,
    **facts: Any,
) -> GameState:
    """The one change path of a game opened for a change: its history entry written and its
    version moved once (history.write, under the lock `state` was read with), then finished
    with the game's facts as `made` changes them (GameFacts fields) at that version."""
    game = state.facts
    version, now = history.write(game.id, game.version, kind, action_id, round_number, **facts)
    return finish(state, replace(game, version=version, updated_at=now, **made))


def close_calls(state: GameState, winner: int | None) -> tuple[CallFacts, ...]:
    """Close the open calls of the round being played, the winner's as recorded (its buy is
    added in the same transaction), the rest passed over, or all dismissed without a winner;
    the game's open calls left (docs/RULES.md 11: a call and its buy are one event)."""
    current = state.current
    waiting = state.facts.open_calls(None if current is None else current.number)
    now = utcnow()
    for made in waiting:
        outcome = RECORDED if made.seat == winner else PASSED if winner is not None else DISMISSED
        db.session.execute(
            update(SeatCall).where(SeatCall.id == made.id).values(closed_at=now, outcome=outcome)
        )
    return tuple(made for made in state.facts.calls if made not in waiting)


def finish(state: GameState, changed: GameFacts) -> GameState:
    """Derive the state the written facts make, commit, and keep it. Derived before the
    commit: a refusal of the rules (a correction the later rounds cannot follow, an undo that
    leaves no game to play) rolls the whole change back."""
    try:
        derived = game_state(changed, state.rules, before=state)
    except RuleError:
        db.session.rollback()
        raise
    db.session.commit()
    opening.changed(derived)
    return derived
