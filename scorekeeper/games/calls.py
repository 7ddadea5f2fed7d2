""" "May I?" called from a seat's phone: a stored request until the scorekeeper records or
dismisses it; nothing is bought without the scorekeeper (docs/RULES.md 11).

A call bumps the game's version without a history entry (it is no fact of the game), so every
phone's poll sees it at once; recording one is the Buy button's own change (actions.record_buy),
which closes the round's open calls in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import insert, select, update

from ..extensions import db
from ..models import Game, SeatCall, utcnow
from ..rules.arbiter import BuyRuling
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.messages import N_, msg
from . import actions, history
from .may_i import rule_on_call

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


def _as_call(row: SeatCall) -> Call:
    return Call(row.id, row.seat, row.round_number, row.closed_at is None, row.outcome)


def open_calls(game_id: int, round_number: int | None) -> list[Call]:
    """The round's calls no one has acted on yet, first called first."""
    if round_number is None:
        return []
    query = select(SeatCall).where(
        SeatCall.game_id == game_id,
        SeatCall.round_number == round_number,
        SeatCall.closed_at.is_(None),
    )
    return [_as_call(row) for row in db.session.scalars(query.order_by(SeatCall.id))]


def latest_call(game_id: int, round_number: int | None, seat: int) -> Call | None:
    """This seat's newest call of the round, open or acted on."""
    if round_number is None:
        return None
    query = select(SeatCall).where(
        SeatCall.game_id == game_id,
        SeatCall.round_number == round_number,
        SeatCall.seat == seat,
    )
    row = db.session.scalars(query.order_by(SeatCall.id.desc()).limit(1)).first()
    return None if row is None else _as_call(row)


def call(state: GameState, seat: int) -> tuple[Call, bool]:
    """Call "May I?" for a seat (its game locked); refused with the rules' reason. A seat
    with a call open already calls once: that call, and False for "nothing new"."""
    current = state.current
    if current is None:
        raise RuleError(msg(N_("This game is over.")), field="game")
    if seat not in current.seats:
        raise RuleError(msg(N_("That player is not in this round.")), field="seat")
    refusal = actions.buy_refused(state, current, seat)
    if refusal is not None:
        raise RuleError(refusal, field="seat")
    game_id = state.facts.id
    waiting = [made for made in open_calls(game_id, current.number) if made.seat == seat]
    if waiting:
        return waiting[0], False
    row = {"game_id": game_id, "round_number": current.number, "seat": seat}
    db.session.execute(insert(SeatCall), [row | {"created_at": utcnow()}])
    _bump(game_id)
    db.session.commit()
    called = latest_call(game_id, current.number, seat)
    assert called is not None
    return called, True


def rule(state: GameState, discarder: int, turn_player_draws: bool) -> BuyRuling:
    """The arbiter's ruling among this round's open calls (docs/RULES.md 4)."""
    current = state.current
    number = None if current is None else current.number
    callers = [made.seat for made in open_calls(state.facts.id, number)]
    return rule_on_call(state, discarder, callers, turn_player_draws)


def record(
    state: GameState,
    seat: int,
    action_id: str | None,
    base_version: int | None,
    *,
    called: bool = True,
) -> GameState:
    """Record the buy of a seat that called, as the Buy button does, and close the round's
    open calls with it: the winner's recorded, the others' passed over. One transaction.

    With `called=False` (the API's scorekeeper) the seat need not have called: the buy is the
    scorekeeper's to give, and the open calls close all the same."""
    if history.already_done(state.facts, action_id):
        return state  # a second tap of the same button: recorded once, calls closed then
    current = state.current
    number = None if current is None else current.number
    waiting = open_calls(state.facts.id, number)
    if called and not any(made.seat == seat for made in waiting):
        name = state.names[seat] if 0 <= seat < len(state.names) else str(seat)
        raise RuleError(msg(NOT_CALLED, name=name), field="seat")
    _close(state.facts.id, waiting, seat)  # written by record_buy's own commit, or not at all
    return actions.record_buy(state, seat, action_id, base_version)


def dismiss(game_id: int, round_number: int | None) -> int:
    """Close the round's open calls without a buy (the turn player drew it, or no one gets
    it); the phones see it at once. How many were open."""
    waiting = open_calls(game_id, round_number)
    if waiting:
        _close(game_id, waiting, None)
        _bump(game_id)
    db.session.commit()
    return len(waiting)


def _close(game_id: int, waiting: list[Call], winner: int | None) -> None:
    """Mark the open calls acted on: the winner's recorded, the rest passed or dismissed."""
    now = utcnow()
    for made in waiting:
        outcome = RECORDED if made.seat == winner else PASSED if winner is not None else DISMISSED
        db.session.execute(
            update(SeatCall).where(SeatCall.id == made.id).values(closed_at=now, outcome=outcome)
        )


def _bump(game_id: int) -> None:
    """Move the game's version on, under its lock, so every poll shows the calls now."""
    db.session.execute(
        update(Game).where(Game.id == game_id).values(version=Game.version + 1, updated_at=utcnow())
    )
