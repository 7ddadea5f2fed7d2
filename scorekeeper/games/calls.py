""" "May I?" called from a seat's phone: a stored request until the scorekeeper grants it (adds
its buy) or dismisses it; nothing is bought without the scorekeeper (docs/RULES.md 11).

A call and its dismissal are changes like any other (games/writes.change: a history entry
naming the seat, the version moved once), so every phone's poll sees them at once; granting one
is the Buy button's own change (actions.add_buy), and any buy added for a seat with an open call
settles it, closing the round's open calls in the same transaction: a call and its buy are one
event. The open calls are among the game's facts (GameFacts.calls, read by games/facts.py), so
a kept state holds them; each write here answers the new state (`dataclasses.replace` of its
facts, nothing read again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from sqlalchemy import insert, select

from ..extensions import db
from ..models import SeatCall, utcnow
from ..rules.arbiter import BuyRuling
from ..rules.errors import RuleError
from ..rules.game_facts import CallFacts
from ..rules.game_state import GameState
from ..rules.messages import N_, msg
from . import actions, history, writes
from .may_i import rule_on_call

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
    calls = {"calls": (*game.calls, made)}
    return Called(
        _open(made), writes.change(state, calls, "call", None, current.number, seat=seat), True
    )


def rule(state: GameState, discarder: int) -> BuyRuling:
    """The arbiter's ruling among this round's open calls, for a discard of this seat's
    (docs/RULES.md 4)."""
    callers = [made.seat for made in _waiting(state)]
    return rule_on_call(state, discarder, callers, turn_player_draws=False)


def winners(state: GameState) -> dict[int, list[int]]:
    """Each caller the arbiter gives the discard to as a buy, with the seats whose discard it
    would be: the round screen's one-tap grants, however the table sat (nothing tracks turns)."""
    current = state.current
    found: dict[int, list[int]] = {}
    for discarder in () if current is None else current.seats:
        ruling = rule(state, discarder)
        if ruling.winner is not None and ruling.is_buy:
            found.setdefault(ruling.winner, []).append(discarder)
    return found


def ruled_winner(state: GameState, discarder: int) -> int:
    """Who the arbiter grants the discard to as a buy, when this seat discarded; refused with
    its reason when nobody buys it (the turn player draws it, or every caller is refused)."""
    ruling = rule(state, discarder)
    if ruling.winner is None or not ruling.is_buy:
        raise RuleError(ruling.explanation, field="discarder")
    return ruling.winner


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
    over. One transaction. A call its seat's buy settled already (the row's Buy, tapped
    meanwhile) records nothing more: the state as it is.

    With `called=False` (the API's scorekeeper) the seat need not have called: the buy is the
    scorekeeper's to give, and the open calls close all the same."""
    if history.already_done(state.facts, action_id):
        return state  # a second tap of the same button: added once, calls closed then
    if called and not any(made.seat == seat for made in _waiting(state)):
        settled = seat_call(state, seat)
        if settled is not None and settled.outcome == writes.RECORDED:
            db.session.commit()  # ends the locked read: its buy is in, one event
            return state
        name = state.names[seat] if 0 <= seat < len(state.names) else str(seat)
        raise RuleError(msg(NOT_CALLED, name=name), field="seat")
    left = writes.close_calls(state, seat)  # written by add_buy's own commit, or not at all
    return actions.add_buy(state, seat, action_id, base_version, calls=left)


def dismiss(state: GameState) -> GameState:
    """Close the round's open calls without a buy (the turn player drew it, or no one gets
    it); the phones see it at once. The state after (itself when none was open)."""
    current = state.current
    if current is None or not _waiting(state):
        db.session.commit()  # ends the locked read
        return state
    left = writes.close_calls(state, None)
    return writes.change(state, {"calls": left}, "calls_dismissed", None, current.number)
