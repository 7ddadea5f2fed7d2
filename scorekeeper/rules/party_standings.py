"""A card party's combined standings: placements, placement points, tie-breaks (RULES.md 12).

Raw totals are never compared across tables: each game gives placement points, 10 for first
and 0 for last whatever the table's size; the evening sums them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from itertools import groupby

from .errors import RuleError
from .messages import N_, msg
from .standings import Standings

TENTH = Decimal("0.1")


@dataclass(frozen=True)
class TableGame:
    """One finished game of the evening: its round and table, and by seat its people, totals
    and places (tied players share a place)."""

    round: int
    table: int
    people: tuple[str, ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]

    @property
    def winning_total(self) -> int:
        """The table's winning total: the total of whoever placed first."""
        return min(t for t, p in zip(self.totals, self.places, strict=True) if p == 1)

    def points(self, seat: int) -> Decimal:
        """The placement points of one seat in this game."""
        place = self.places[seat]
        return placement_points(place, self.places.count(place), len(self.people))


@dataclass(frozen=True)
class PartyRow:
    """One person's line in the evening's standings; tied people share a place."""

    person: str
    points: Decimal
    won: int
    margin: int  # the sum of (own total − that table's winning total)
    played: int
    place: int


@dataclass(frozen=True)
class Tonight:
    """One person's evening: each game (table and place, in order) and their opponents."""

    person: str
    tables: tuple[int, ...]
    places: tuple[int, ...]
    opponents: tuple[tuple[str, int], ...]  # each opponent and the games played together


def table_game(
    evening_round: int, table: int, people: Sequence[str], result: Standings
) -> TableGame:
    """Placement in a finished game: the game's own standings, its tiebreak deciding ties;
    players still tied share the places they span."""
    if not result.winners:
        raise RuleError(msg(N_("This game is not finished yet.")), field="game")
    by_seat = sorted(result.rows, key=lambda row: row.seat)
    return TableGame(
        evening_round,
        table,
        tuple(people),
        tuple(row.total for row in by_seat),
        tuple(row.place for row in by_seat),
    )


def placement_points(place: int, tied: int, players: int) -> Decimal:
    """Placed p-th of n scores 10 × (n − p) ÷ (n − 1), to one decimal; `tied` players from
    place p share the mean of the points of the places they span."""
    if players < 2 or tied < 1 or not 1 <= place <= place + tied - 1 <= players:
        raise ValueError("a place within the table, shared by at least one player")
    spanned = range(place, place + tied)
    mean = Fraction(sum(10 * (players - p) for p in spanned), (players - 1) * tied)
    exact = Decimal(mean.numerator) / Decimal(mean.denominator)
    return exact.quantize(TENTH, rounding=ROUND_HALF_UP)


def party_standings(people: Sequence[str], games: Iterable[TableGame]) -> tuple[PartyRow, ...]:
    """Most placement points; then most games won; then the smallest sum of (own total − that
    table's winning total); still tied, shared."""
    points = dict.fromkeys(people, Decimal("0.0"))
    won, margin, played = Counter[str](), Counter[str](), Counter[str]()
    for game in games:
        for seat, person in enumerate(game.people):
            points[person] = points.get(person, Decimal("0.0")) + game.points(seat)
            won[person] += game.places[seat] == 1
            margin[person] += game.totals[seat] - game.winning_total
            played[person] += 1

    def key(person: str) -> tuple[Decimal, int, int]:
        return (-points[person], -won[person], margin[person])

    rows: list[PartyRow] = []
    for _, tier in groupby(sorted(points, key=key), key=key):
        place = len(rows) + 1
        rows += [PartyRow(p, points[p], won[p], margin[p], played[p], place) for p in tier]
    return tuple(rows)


def tonight(person: str, games: Iterable[TableGame]) -> Tonight:
    """A person's games tonight in order: each one's table and place, and how often they played
    each opponent."""
    tables: list[int] = []
    places: list[int] = []
    opponents = Counter[str]()
    for game in games:
        if person not in game.people:
            continue
        tables.append(game.table)
        places.append(game.places[game.people.index(person)])
        opponents.update(other for other in game.people if other != person)
    return Tonight(person, tuple(tables), tuple(places), tuple(sorted(opponents.items())))


def meetings(groups: Iterable[Sequence[str]]) -> Counter[frozenset[str]]:
    """How many times each pair has sat at one table tonight, from each game's people."""
    met = Counter[frozenset[str]]()
    for group in groups:
        met.update(frozenset((a, b)) for i, a in enumerate(group) for b in group[i + 1 :])
    return met
