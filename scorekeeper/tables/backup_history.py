"""A restored game's history, checked kind by kind: what the history page reads and what undo
puts back are of the shapes live entry writes, and name the game's own seats and rounds.

Undo itself checks what it puts back against the rules (games/writes.finish, before its
commit), as for any game; here the file's entries are only made safe for it to read.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, TypeAdapter, ValidationError

from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.messages import N_, Message, msg
from ..rules.round_end import setup_for
from ..rules.tally import points_from_counts
from .backup_format import BackupChange, BackupGame, BackupResult, Part

Seat = Field(ge=0, le=7)


class RunOuts(Part):
    """A run-out's count before and after it."""

    run_outs: int = Field(ge=0, le=10)


class Down(Part):
    """Who was marked down, before and after a mark."""

    down: list[int] = Field(max_length=8)


class BuyMade(Part):
    """The row a buy added (older entries have none)."""

    buy_id: int = Field(ge=0, le=2**63 - 1)


class Players(Part):
    """The names a game started with."""

    players: list[str] = Field(min_length=2, max_length=8)


class Undone(Part):
    """The change an undo took back."""

    change_id: int = Field(ge=0, le=2**63 - 1)


class Replaced(Part):
    """Which link a replacement replaced."""

    role: Literal["edit", "view"]


class HandEntered(Part):
    """What a seat's phone entered: went out, or what the hand counted ("?" when unknown)."""

    went_out: bool
    points: int | None = Field(default=None, ge=0, le=100_000)


class Note(Part):
    """The scorekeeper's word to a seat whose hand was sent back."""

    note: str | None = Field(default=None, max_length=140)


class Name(Part):
    """A person's name as a game showed it, before and after a change at the table."""

    name: str = Field(max_length=80)


class RoundEnd(Part):
    """A round's end as history.snapshot writes it."""

    ended_by_stock: bool
    cut_bonus_seat: int | None = Field(default=None, ge=0, le=7)
    results: list[BackupResult] = Field(max_length=8)
    from_phones: list[int] | None = Field(default=None, max_length=8)  # entered on seats' phones


NONE = type(None)
# What each kind of change holds before and after: the shapes games/history.py writes.
SHAPES: dict[str, tuple[Any, Any]] = {
    "create": (NONE, Players),
    "buy": (NONE, BuyMade | None),
    "buy_removed": (NONE, NONE),
    "down": (Down, Down),
    "down_removed": (Down, Down),
    "run_out": (RunOuts, RunOuts),
    "result": (RoundEnd | None, RoundEnd),
    "undo": (Undone, NONE),
    "rotate_link": (NONE, Replaced),
    "call": (NONE, NONE),
    "calls_dismissed": (NONE, NONE),
    "hand_entered": (NONE, HandEntered),
    "hand_sent_back": (NONE, Note),
    "rename": (Name, Name),
    "merge": (Name, Name),
    "unmerge": (Name, Name),
    "rematch": (NONE, NONE),
}
ADAPTERS = {kind: (TypeAdapter(b), TypeAdapter(a)) for kind, (b, a) in SHAPES.items()}
OF_A_ROUND = {"buy", "buy_removed", "down", "down_removed", "run_out", "result"}
OF_A_SEAT = {"buy", "buy_removed", "down", "down_removed"}
OF_THE_GAME = {"create", "rotate_link", "rematch"}


def check_history(facts: BackupGame, state: GameState) -> tuple[str, Message] | None:
    """The first entry of the history the app could not read or undo: its place and reason."""
    last = 0
    for index, change in enumerate(facts.changes):
        if not last < change.version <= facts.version:
            reason = msg(N_("The history's versions must grow, up to the game's own."))
            return f"changes.{index}.version", reason
        last = change.version
        problem = _problem(change, state)
        if problem is not None:
            return f"changes.{index}", problem
    return None


def _problem(change: BackupChange, state: GameState) -> Message | None:
    """Why one entry cannot be read or undone, or None."""
    unreadable = msg(N_("This entry of the history cannot be read."))
    before, after = ADAPTERS[change.kind]
    try:
        parts = (before.validate_python(change.before), after.validate_python(change.after))
    except ValidationError:
        return unreadable
    number, seat = change.round_number, change.seat
    if change.kind in OF_THE_GAME and (number is not None or seat is not None):
        return unreadable
    seats = _seats_of(state, number) if change.kind in OF_A_ROUND else range(state.players)
    if seats is None or (seat is not None and seat not in seats):
        return msg(N_("This entry of the history names a round or seat the game does not have."))
    if change.kind in OF_A_ROUND and (change.kind in OF_A_SEAT) != (seat is not None):
        return unreadable
    for part in parts:
        problem = _part_problem(part, state, number, seats)
        if problem is not None:
            return problem
    return None


def _part_problem(
    part: object, state: GameState, number: int | None, seats: tuple[int, ...] | range
) -> Message | None:
    """Why what an entry holds before or after cannot be put back in its round, or None."""
    if isinstance(part, Down) and (
        len(set(part.down)) != len(part.down) or not set(part.down) <= set(seats)
    ):
        return msg(N_("This entry of the history names a round or seat the game does not have."))
    if isinstance(part, RoundEnd) and number is not None:
        return _round_end_problem(part, state, number, seats)
    return None


def _round_end_problem(
    end: RoundEnd, state: GameState, number: int, seats: tuple[int, ...] | range
) -> Message | None:
    """A round's end undo would put back: one hand per player of the round, counted cards."""
    hands = sorted(result.seat for result in end.results)
    out = [result for result in end.results if result.went_out]
    phones = set(end.from_phones or ())
    if hands != sorted(seats) or len(out) > 1 or end.ended_by_stock != (not out):
        return msg(N_("This entry of the history holds a round's end no table can have."))
    if not phones <= set(hands):
        return msg(N_("This entry of the history holds a round's end no table can have."))
    try:
        setup = setup_for(state, number)
        for result in end.results:
            points_from_counts(result.cards or {}, state.rules, setup.decks, setup.jokers)
    except RuleError as error:
        return error.message
    return None


def _seats_of(state: GameState, number: int | None) -> tuple[int, ...] | None:
    """Who plays a round the game holds (regular or tiebreaker), else None."""
    record = None if number is None else state.rounds.get(number)
    if record is None:
        return None
    return tuple(record.tiebreak_seats or range(state.players))
