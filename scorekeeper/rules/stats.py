"""A table's record, from the facts of its finished games: who wins, who improves, what costs most.

Pure functions over `PlayedGame`s; nothing here is stored. Only finished games count, so a
game abandoned half-way changes no one's average. See docs/RULES.md, "Stats".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property

from .ruleset import Contract


@dataclass(frozen=True)
class PlayedRound:
    """A regular round as scored: its contract, each seat's points, who went out, buys per seat."""

    contract: Contract
    scores: tuple[int, ...]
    went_out: int | None
    buys: tuple[int, ...]


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as the record sees it: who sat where (as people), rounds, winners."""

    ruleset: str
    played_on: date
    people: tuple[int, ...]  # the person at each seat
    rounds: tuple[PlayedRound, ...]
    winners: tuple[int, ...]  # seats
    tiebreak_buys: tuple[int, ...] = ()  # buys per seat in tiebreaker rounds
    ruleset_name: str = ""  # the rule set's name as the game keeps it: a house set's own

    @cached_property  # every person's figures read it; worked out once per game
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the regular rounds (lowest wins)."""
        return tuple(sum(r.scores[seat] for r in self.rounds) for seat in range(len(self.people)))

    @cached_property
    def tiebroken(self) -> frozenset[int]:
        """The seats tied on the lowest total whom a tiebreak decided between (by rounds gone
        out or a tiebreaker round), winner and losers alike; none where the tie was shared."""
        lowest = min(self.totals, default=0)
        tied = frozenset(seat for seat, total in enumerate(self.totals) if total == lowest)
        return tied if len(tied) > 1 and len(self.winners) < len(tied) else frozenset()

    def seat_of(self, person: int) -> int | None:
        """Where this person sat, or None if they did not play."""
        return self.people.index(person) if person in self.people else None


@dataclass(frozen=True)
class PlayerRecord:
    """One person's figures over a set of games."""

    person: int
    played: int
    won: int
    average: float | None  # average total, None before a first game
    best: int | None  # lowest total
    worst: int | None  # highest total
    rounds_out: int
    buys: int
    tiebreaks: int  # games where they tied on the lowest total and a tiebreak decided
    by_contract: dict[Contract, float]  # average points per round of each contract
    totals: tuple[int, ...]  # their total in each game, oldest first

    @property
    def win_rate(self) -> float | None:
        """Wins per game played; a shared win counts for each winner."""
        return self.won / self.played if self.played else None

    @property
    def costliest(self) -> Contract | None:
        """The contract that costs them most points per round."""
        return max(self.by_contract, key=lambda c: self.by_contract[c], default=None)


@dataclass(frozen=True)
class HeadToHead:
    """Two people over the games they both played: who finished ahead how often."""

    games: int
    first_ahead: int
    second_ahead: int
    even: int


def only(
    games: Iterable[PlayedGame],
    ruleset: str | None = None,
    since: date | None = None,
    until: date | None = None,
) -> tuple[PlayedGame, ...]:
    """The games of one rule set and within a period (both ends included)."""
    return tuple(
        game
        for game in games
        if (ruleset is None or game.ruleset == ruleset)
        and (since is None or game.played_on >= since)
        and (until is None or game.played_on <= until)
    )


def player_record(games: Sequence[PlayedGame], person: int) -> PlayerRecord:
    """One person's games played and won, totals, rounds gone out, buys, tiebreaks, contracts."""
    theirs = [(game, seat) for game in games if (seat := game.seat_of(person)) is not None]
    totals = tuple(game.totals[seat] for game, seat in theirs)
    points: dict[Contract, list[int]] = {}
    for game, seat in theirs:
        for played in game.rounds:
            points.setdefault(played.contract, []).append(played.scores[seat])
    return PlayerRecord(
        person=person,
        played=len(theirs),
        won=sum(seat in game.winners for game, seat in theirs),
        average=sum(totals) / len(totals) if totals else None,
        best=min(totals, default=None),
        worst=max(totals, default=None),
        rounds_out=sum(r.went_out == seat for game, seat in theirs for r in game.rounds),
        buys=sum(_buys(game, seat) for game, seat in theirs),
        tiebreaks=sum(seat in game.tiebroken for game, seat in theirs),
        by_contract={c: sum(p) / len(p) for c, p in points.items()},
        totals=totals,
    )


def head_to_head(games: Sequence[PlayedGame], first: int, second: int) -> HeadToHead:
    """Who finished ahead: a winner beats a non-winner, else the lower total; equal is even."""
    ahead = [0, 0, 0]
    for game in games:
        a, b = game.seat_of(first), game.seat_of(second)
        if a is None or b is None:
            continue
        rank_a = (a not in game.winners, game.totals[a])
        rank_b = (b not in game.winners, game.totals[b])
        ahead[0 if rank_a < rank_b else 1 if rank_b < rank_a else 2] += 1
    return HeadToHead(sum(ahead), ahead[0], ahead[1], ahead[2])


def _buys(game: PlayedGame, seat: int) -> int:
    """Buys a seat made over the whole game, tiebreakers included."""
    extra = game.tiebreak_buys[seat] if game.tiebreak_buys else 0
    return sum(r.buys[seat] for r in game.rounds) + extra
