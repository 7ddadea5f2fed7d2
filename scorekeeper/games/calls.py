""" "May I?" called from a seat's phone: a stored request until the scorekeeper grants it (adds
its buy) or dismisses it; nothing is bought without the scorekeeper (docs/RULES.md 11).

A call bumps the game's version without a history entry (it is no fact of the game's play),
so every phone's poll sees it at once; granting one is the Buy button's own change
(actions.add_buy), which closes the round's open calls in the same transaction. The open
calls are among the game's facts (GameFacts.calls, read by games/facts.py), so a kept state
holds them; each write here answers the new state (`dataclasses.replace` of its facts, nothing
read again), kept for its version as games/writes.py keeps a buy's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import insert, select, update

from ..extensions import db
from ..models import Game, SeatCall, utcnow
from ..rules.arbiter import BuyRuling
from ..rules.errors import RuleError
from ..rules.game_facts import CallFacts, GameFacts
from ..rules.game_state import GameState
from ..rules.messages import N_, msg
from . import actions, history, opening
from .may_i import rule_on_call
from .state import game_state

RECORDED, PASSED, DISMISSED = "recorded", "passed", "dismissed"
NOT_CALLED = N_("%(name)s has not called.")


@dataclass(frozen=True)
class Call:
    """One call as the pages and the API show it."""

    id: int
    seat: int
    round_number: int
    open: bool
    outcome: str | None


class Called(NamedTuple):
    """A seat's call, the game's state after it, and whether it is new (not open already)."""

    call: Call
    state: GameState
    new: bool


def _as_call(row: SeatCall) -> Call:
    return Call(row.id, row.seat, row.round_number, row.closed_at is None, row.outcome)


def _open(made: CallFacts) -> Call:
    return Call(made.id, made.seat, made.round_number, True, None)


def _waiting(state: GameState) -> tuple[CallFacts, ...]:
    """The open calls of the round being played, from the facts."""
    current = state.current
    return state.facts.open_calls(None if current is None else current.number)


def open_calls(state: GameState) -> list[Call]:
    """The round's calls no one has acted on yet, first called first (no query: the facts)."""
    return [_open(made) for made in _waiting(state)]


def seat_call(state: GameState, seat: int) -> Call | None:
    """This seat's newest call of the round being played, open or acted on.

    An open one is among the facts (a seat has one open at most, and it is its newest: a seat
    calls again only once its call is closed), so it costs no query. A closed one is read, in
    one indexed query: its outcome is no fact of the game, since a dismissal writes no buy and
    a buy does not say whether its seat called (the Buy button buys without a call).
    """
    current = state.current
    if current is None:
        return None
    waiting = [made for made in _waiting(state) if made.seat == seat]
    if waiting:
        return _open(waiting[0])
    query = select(SeatCall).where(
        SeatCall.game_id == state.facts.id,
        SeatCall.round_number == current.number,
        SeatCall.seat == seat,
    )
    row = db.session.scalars(query.order_by(SeatCall.id.desc()).limit(1)).first()
    return None if row is None else _as_call(row)


def call(state: GameState, seat: int) -> Called:
    """Call "May I?" for a seat (its game locked); refused with the rules' reason. A seat
    with a call open already calls once: that call, the state as it is, and "nothing new"."""
    current = state.current
    if current is None:
        raise RuleError(msg(N_("This game is over.")), field="game")
    if seat not in current.seats:
        raise RuleError(msg(N_("That player is not in this round.")), field="seat")
    refusal = actions.buy_refused(state, current, seat)
    if refusal is not None:
        raise RuleError(refusal, field="seat")
    waiting = [made for made in _waiting(state) if made.seat == seat]
    if waiting:
        return Called(_open(waiting[0]), state, False)
    game = state.facts
    row = {"game_id": game.id, "round_number": current.number, "seat": seat}
    inserted = db.session.connection().execute(insert(SeatCall), row | {"created_at": utcnow()})
    made = CallFacts(int(inserted.inserted_primary_key[0]), seat, current.number)
    return Called(_open(made), _commit(state, (*game.calls, made)), True)


def rule(state: GameState, discarder: int, turn_player_draws: bool) -> BuyRuling:
    """The arbiter's ruling among this round's open calls (docs/RULES.md 4)."""
    callers = [made.seat for made in _waiting(state)]
    return rule_on_call(state, discarder, callers, turn_player_draws)


def grant(
    state: GameState,
    seat: int,
    action_id: str | None,
    base_version: int | None,
    *,
    called: bool = True,
) -> GameState:
    """Grant a seat that called its buy: add it, as the Buy button does, and close the round's
    open calls with it, the winner's as recorded (its stored outcome), the others' passed
    over. One transaction.

    With `called=False` (the API's scorekeeper) the seat need not have called: the buy is the
    scorekeeper's to give, and the open calls close all the same."""
    if history.already_done(state.facts, action_id):
        return state  # a second tap of the same button: added once, calls closed then
    waiting = _waiting(state)
    if called and not any(made.seat == seat for made in waiting):
        name = state.names[seat] if 0 <= seat < len(state.names) else str(seat)
        raise RuleError(msg(NOT_CALLED, name=name), field="seat")
    _close(waiting, seat)  # written by add_buy's own commit, or not at all
    left = _without(state.facts, waiting)
    return actions.add_buy(state, seat, action_id, base_version, calls=left)


def dismiss(state: GameState) -> GameState:
    """Close the round's open calls without a buy (the turn player drew it, or no one gets
    it); the phones see it at once. The state after (itself when none was open)."""
    waiting = _waiting(state)
    if not waiting:
        db.session.commit()  # ends the locked read
        return state
    _close(waiting, None)
    return _commit(state, _without(state.facts, waiting))


def _without(game: GameFacts, closed: tuple[CallFacts, ...]) -> tuple[CallFacts, ...]:
    """The game's open calls but the ones closed."""
    return tuple(made for made in game.calls if made not in closed)


def _close(waiting: tuple[CallFacts, ...], winner: int | None) -> None:
    """Mark the open calls acted on: the winner's recorded, the rest passed or dismissed."""
    now = utcnow()
    for made in waiting:
        outcome = RECORDED if made.seat == winner else PASSED if winner is not None else DISMISSED
        db.session.execute(
            update(SeatCall).where(SeatCall.id == made.id).values(closed_at=now, outcome=outcome)
        )


def _commit(state: GameState, calls: tuple[CallFacts, ...]) -> GameState:
    """Move the game's version on (so every poll shows the calls now), commit, and keep and
    answer the state with these open calls."""
    version, now = _bump(state.facts)
    changed = replace(state.facts, version=version, updated_at=now, calls=calls)
    derived = game_state(changed, state.rules)
    db.session.commit()
    opening.changed(derived)
    return derived


def _bump(game: GameFacts) -> tuple[int, datetime]:
    """Move the game's version on from the one read with its lock: the new one, and when."""
    now, bumped = utcnow(), game.version + 1
    moved = db.session.connection().execute(
        update(Game)
        .where(Game.id == game.id, Game.version == game.version)
        .values(version=bumped, updated_at=now)
    )
    if moved.rowcount != 1:
        raise RuntimeError(f"game {game.id} is no longer at version {game.version}")
    return bumped, now
