"""Everything stored about one game, as one frozen value: seats, rounds, hands, buys, marks.

The service reads these (games/facts.py) and the rules engine derives everything else from
them (rules/game_state.py); nothing here is an ORM object or knows a database.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class SeatFacts:
    """Who sat at a seat: the name shown, and the table's person they count as after merges."""

    position: int
    name: str
    person: int | None = None  # a table person's id; None for a game without a table


@dataclass(frozen=True)
class ResultFacts:
    """One hand at the end of a round: went out, or the points (and cards) held."""

    seat: int
    went_out: bool
    points: int
    cards: dict[str, int] | None = None  # counts per rank, when tapped


@dataclass(frozen=True)
class BuyFacts:
    """One "May I?" buy."""

    id: int
    seat: int


@dataclass(frozen=True)
class CallFacts:
    """An open "May I?" called from a seat's phone: a request, not yet a buy (docs/RULES.md 11)."""

    id: int
    seat: int
    round_number: int


@dataclass(frozen=True)
class EnteredHand:
    """A hand entered on a seat's own phone for a round: pending until the scorekeeper saves
    the round, or sent back with a note (docs/RULES.md 11). No fact of the round until then."""

    seat: int
    round_number: int
    went_out: bool
    points: int | None
    cards: Mapping[str, int] | None
    cut_bonus: bool
    status: str  # pending or sent_back
    note: str | None
    action_id: str | None

    @property
    def waiting(self) -> bool:
        """Whether it waits for the scorekeeper (not sent back)."""
        return self.status == "pending"

    def tapped(self) -> str:
        """Its tapped cards as the end-of-round form's hidden field has them ("K K JK")."""
        return " ".join(code for code, n in (self.cards or {}).items() for _ in range(n))


@dataclass(frozen=True)
class RoundFacts:
    """A round as played: its dealer, run-outs, down marks, and (once ended) its hands."""

    id: int
    number: int  # 1-based; tiebreaker rounds follow the regular ones
    dealer: int
    tiebreak_seats: tuple[int, ...] | None = None
    run_outs: int = 0
    ended_by_stock: bool = False
    cut_bonus_seat: int | None = None
    down_seats: tuple[int, ...] | None = None  # whose contract is down, in order
    results: tuple[ResultFacts, ...] = ()
    buys: tuple[BuyFacts, ...] = ()  # in the order they were made


@dataclass(frozen=True)
class GameFacts:
    """A game as stored, at one version: the head row, its seats and its rounds in order."""

    id: int
    version: int
    table_id: int | None
    first_dealer: int
    dealer_was_cut: bool
    decks: int | None
    edit_token: str
    view_token: str
    created_at: datetime
    updated_at: datetime
    rules_text: str  # the frozen rule set as stored JSON text (parsed once per text)
    rematch_id: int | None = None  # the game Play again started after this one
    seats: tuple[SeatFacts, ...] = ()
    rounds: tuple[RoundFacts, ...] = ()
    calls: tuple[CallFacts, ...] = ()  # the open calls, first called first
    entered: tuple[EnteredHand, ...] = ()  # hands entered on the seats' phones, by round, seat

    @property
    def rules_json(self) -> dict[str, Any]:
        """The stored rule set as plain data (for a link that starts a game like this one)."""
        data: dict[str, Any] = json.loads(self.rules_text)
        return data

    def round(self, number: int) -> RoundFacts | None:
        """The stored round `number`, if it has any fact yet."""
        return next((played for played in self.rounds if played.number == number), None)

    def entered_in(self, number: int | None) -> dict[int, EnteredHand]:
        """Round `number`'s hands entered on the seats' phones, by seat."""
        return {hand.seat: hand for hand in self.entered if hand.round_number == number}

    def open_calls(self, number: int | None) -> tuple[CallFacts, ...]:
        """Round `number`'s open calls, first called first (none without a round)."""
        return tuple(made for made in self.calls if made.round_number == number)

    def with_round(self, played: RoundFacts) -> tuple[RoundFacts, ...]:
        """The rounds with `played` in its place (or added), in order of number."""
        kept = [other for other in self.rounds if other.number != played.number]
        return tuple(sorted([*kept, played], key=lambda other: other.number))
