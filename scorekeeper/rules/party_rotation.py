"""A card party's rotations after each round of the evening (docs/RULES.md 12).

Each keeps the table sizes of the split and breaks ties with a draw from the seed, so the
proposal is shown and re-drawable: the same seed proposes the same seating.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import Enum

from .party_mix import mix
from .party_seating import Seating, fill, sizes_of
from .party_standings import PartyRow, TableGame, meetings, party_standings


class Rotation(Enum):
    """How the evening moves people between tables, chosen when it starts."""

    PROGRESSIVE = "progressive"
    BY_STANDINGS = "by_standings"
    MIX = "mix"


def next_seating(
    rotation: Rotation, seating: Seating, games: Sequence[TableGame], seed: int
) -> Seating:
    """The next seating under the evening's rotation, from the games played so far (the last
    round's were played on `seating`)."""
    if rotation is Rotation.PROGRESSIVE:
        return progressive(seating, last_places(seating, games), seed)
    people = [person for table in seating for person in table]
    if rotation is Rotation.BY_STANDINGS:
        return by_standings(seating, party_standings(people, games), seed)
    return mix(seating, meetings(game.people for game in games), seed)


def last_places(seating: Seating, games: Sequence[TableGame]) -> tuple[tuple[int, ...], ...]:
    """Each seated person's place in their latest game, table by table."""
    latest = {
        person: game.places[seat] for game in games for seat, person in enumerate(game.people)
    }
    return tuple(tuple(latest[person] for person in table) for table in seating)


def progressive(seating: Seating, places: Sequence[Sequence[int]], seed: int) -> Seating:
    """Each table's winner moves up one table (table 1's stays), its last moves down one (the
    last table's stays); a tie for first or last goes to the draw."""
    draw = random.Random(seed)
    ups: list[str] = []
    downs: list[str] = []
    for table, placed in zip(seating, places, strict=True):
        if len(placed) != len(table) or len(table) < 2:
            raise ValueError("one place for each person of a table of two or more")
        ranked = sorted(zip(placed, table, strict=True))
        ups.append(draw.choice([p for place, p in ranked if place == ranked[0][0]]))
        lasts = [p for place, p in ranked if place == ranked[-1][0] and p != ups[-1]]
        downs.append(draw.choice(lasts))
    last = len(seating) - 1
    moved: list[tuple[str, ...]] = []
    for index, table in enumerate(seating):
        arrivals = {}
        if index > 0:
            arrivals[ups[index]] = downs[index - 1]  # the last from above takes the winner's seat
        if index < last:
            arrivals[downs[index]] = ups[index + 1]  # the winner from below takes the last's seat
        moved.append(tuple(arrivals.get(person, person) for person in table))
    return tuple(moved)


def by_standings(seating: Seating, rows: Sequence[PartyRow], seed: int) -> Seating:
    """The combined standings fill table 1 first, then table 2, …; people sharing a place are
    ordered by the draw."""
    draw = random.Random(seed)
    seated = [person for table in seating for person in table]
    place = {row.person: row.place for row in rows}
    behind = len(seated) + 1  # someone without a line yet comes after everyone placed
    order: list[str] = []
    for rank in sorted({place.get(person, behind) for person in seated}):
        tier = sorted(person for person in seated if place.get(person, behind) == rank)
        draw.shuffle(tier)
        order += tier
    return fill(order, sizes_of(seating))
