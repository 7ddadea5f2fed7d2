"""The "mix" rotation: the fewest repeated opponents over the evening (docs/RULES.md 12).

The rule minimises the sum over all pairs of the square of the times they have met tonight,
this round included. With m the times a pair has met and x = 1 when the seating puts them
together, Σ(m + x)² = Σm² + Σ(2m + 1)·x, and the number of pairs seated together is fixed by
the table sizes, so the best seating is the one whose pairs at one table have met the fewest
times in sum: that sum is what is searched.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from itertools import combinations
from math import factorial

from .party_seating import Seating, fill, sizes_of

# Exact below this many distinct seatings (11 people over 4, 4, 3 have 5,775, searched in
# about 0.1 s); above it, the local search below.
EXACT_LIMIT = 6_000
RESTARTS = 4  # local search starts: each from a seating drawn with the seed
MAX_PASSES = 100  # a pass takes the best swap of two people; no evening needs this many

Matrix = list[list[int]]


def mix(seating: Seating, met: Mapping[frozenset[str], int], seed: int) -> Seating:
    """The seating with the fewest repeated meetings, tables kept at their sizes.

    Exact for small evenings: every seating (tables of one size unordered) is weighed and the
    draw picks among the best. Past EXACT_LIMIT seatings (13 people over 5, 4, 4 have 45,045; 60
    people astronomically many) a local search: from RESTARTS seatings drawn with the seed, swap
    the two people whose swap lowers the sum most until no swap does; the lowest wins, the
    earlier start on a tie. It is deterministic for a seed and bounded (RESTARTS × MAX_PASSES
    passes of every pair), though not always the exact minimum.
    """
    people = sorted(person for table in seating for person in table)
    sizes = sizes_of(seating)
    matrix = _matrix(people, met)
    draw = random.Random(seed)
    if _count(sizes) <= EXACT_LIMIT:
        groups = _exact(len(people), sizes, matrix, draw)
    else:
        groups = _local_search(len(people), sizes, matrix, draw)
    return _name(groups, people, sizes)


def cost(seating: Seating, met: Mapping[frozenset[str], int]) -> int:
    """The sum over all pairs of the square of the times they will have met after this seating."""
    together = {frozenset(pair) for table in seating for pair in combinations(table, 2)}
    return sum(n * n for n in met.values()) + sum(2 * met.get(pair, 0) + 1 for pair in together)


def _matrix(people: list[str], met: Mapping[frozenset[str], int]) -> Matrix:
    """The times each pair has met, by index."""
    return [[met.get(frozenset((a, b)), 0) for b in people] for a in people]


def _count(sizes: tuple[int, ...]) -> int:
    """How many distinct seatings there are: tables of one size are interchangeable."""
    count = factorial(sum(sizes))
    for size in sizes:
        count //= factorial(size)
    for size in set(sizes):
        count //= factorial(sizes.count(size))
    return count


def _weight(groups: list[tuple[int, ...]], matrix: Matrix) -> int:
    """The meetings already had by the pairs each table puts together."""
    return sum(matrix[a][b] for group in groups for a, b in combinations(group, 2))


def _exact(
    people: int, sizes: tuple[int, ...], matrix: Matrix, draw: random.Random
) -> list[tuple[int, ...]]:
    """Weigh every seating; the draw picks among the lightest."""
    best: list[list[tuple[int, ...]]] = []
    lightest = -1
    for groups in _seatings(tuple(range(people)), sorted(sizes, reverse=True)):
        weight = _weight(groups, matrix)
        if lightest < 0 or weight < lightest:
            best, lightest = [groups], weight
        elif weight == lightest:
            best.append(groups)
    return draw.choice(best)


def _seatings(people: tuple[int, ...], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every seating at tables of these sizes (biggest first), each once: the tables of one
    size are filled together, each holding the first person left among them."""
    if not sizes:
        yield []
        return
    size = sizes[0]
    alike = sizes.count(size)
    for run in combinations(people, size * alike):
        others = tuple(p for p in people if p not in run)
        for groups in _equal(run, size):
            for tail in _seatings(others, sizes[alike:]):
                yield groups + tail


def _equal(people: tuple[int, ...], size: int) -> Iterator[list[tuple[int, ...]]]:
    """Every split of these people into tables of one size, each once."""
    if not people:
        yield []
        return
    first, others = people[0], people[1:]
    for mates in combinations(others, size - 1):
        rest = tuple(p for p in others if p not in mates)
        for groups in _equal(rest, size):
            yield [(first, *mates), *groups]


def _local_search(
    people: int, sizes: tuple[int, ...], matrix: Matrix, draw: random.Random
) -> list[tuple[int, ...]]:
    """From seatings drawn with the seed, swap the best pair until no swap helps; keep the best."""
    best: list[list[int]] = []
    lightest = -1
    for _ in range(RESTARTS):
        order = list(range(people))
        draw.shuffle(order)
        groups = [list(group) for group in fill(order, sizes)]
        _descend(groups, matrix)
        weight = _weight([tuple(g) for g in groups], matrix)
        if lightest < 0 or weight < lightest:
            best, lightest = groups, weight
    return [tuple(group) for group in best]


def _descend(groups: list[list[int]], matrix: Matrix) -> None:
    """Swap the two people of different tables whose swap lowers the weight most, until none."""
    for _ in range(MAX_PASSES):
        gain, move = 0, None
        for t, first in enumerate(groups):
            for u in range(t + 1, len(groups)):
                second = groups[u]
                for i, a in enumerate(first):
                    for j, b in enumerate(second):
                        delta = _swap_delta(first, second, a, b, matrix)
                        if delta < gain:
                            gain, move = delta, (t, i, u, j)
        if move is None:
            return
        t, i, u, j = move
        groups[t][i], groups[u][j] = groups[u][j], groups[t][i]


def _swap_delta(first: list[int], second: list[int], a: int, b: int, matrix: Matrix) -> int:
    """How the weight changes when a (of the first table) and b (of the second) swap."""
    row_a, row_b = matrix[a], matrix[b]
    leaving = sum(row_b[x] - row_a[x] for x in first if x != a)
    arriving = sum(row_a[y] - row_b[y] for y in second if y != b)
    return leaving + arriving


def _name(groups: list[tuple[int, ...]], people: list[str], sizes: tuple[int, ...]) -> Seating:
    """The seating in people's keys, each group at the next table of its size."""
    left = list(groups)
    placed = [left.pop(next(i for i, g in enumerate(left) if len(g) == size)) for size in sizes]
    return tuple(tuple(people[p] for p in group) for group in placed)
