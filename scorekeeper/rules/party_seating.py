"""A card party's tables: the split into tables, the drawn seating, a swap (docs/RULES.md 12).

A seating is one tuple per table, table 1 first, each holding its people's keys in seat
order (the table's person ids, or names: the rules engine only compares them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from .errors import RuleError
from .messages import N_, Message, msg, nmsg
from .ruleset import RuleSet

Seating = tuple[tuple[str, ...], ...]
Person = TypeVar("Person", str, int)  # a key, or an index while searching

FEWEST, MOST = 3, 8  # a card party's table seats 3 to 8 players (docs/RULES.md 12)
# "As even as possible" picks the fewest tables of at most five: a card table's usual four
# or five, and the "three tables of four to six" for 13 to 15 people.
USUAL_MOST = 5


def table_sizes(people: int, rules: RuleSet, tables: int | None = None) -> tuple[int, ...]:
    """Split the people into tables as even as possible, biggest first; each table seats 3 to 8
    and only sizes the rule set can seat; `tables` None picks the number of tables."""
    low, high = max(FEWEST, rules.min_players), min(MOST, rules.max_players)
    if low > high:
        raise RuleError(_no_table_message(), field="rules")
    if tables is not None:
        return _chosen_split(people, tables, rules, low, high)
    if people < low:
        raise RuleError(_too_few_message(low), field="people")
    fits = [count for count in range(1, people // low + 1) if _seatable(people, count, rules)]
    if not fits:
        message = nmsg(
            "%(count)s player cannot sit at tables of %(low)s to %(high)s players.",
            "%(count)s players cannot sit at tables of %(low)s to %(high)s players.",
            people,
            low=low,
            high=high,
        )
        raise RuleError(message, field="people")
    target = -(-people // USUAL_MOST)
    # Closest to the target; between two as close, the smaller tables (shorter games).
    chosen = min(fits, key=lambda count: (abs(count - target), -count))
    return even_split(people, chosen)


def even_split(people: int, tables: int) -> tuple[int, ...]:
    """Tables as even as possible, the bigger ones first: 11 over 3 is 4, 4, 3."""
    base, extra = divmod(people, tables)
    return tuple(base + 1 if index < extra else base for index in range(tables))


def _chosen_split(people: int, tables: int, rules: RuleSet, low: int, high: int) -> tuple[int, ...]:
    """The organiser's number of tables, refused when a table would be too small or too big."""
    if tables < 1:
        raise RuleError(msg(N_("Choose at least one table.")), field="tables")
    if people < tables * low:
        message = nmsg(
            "Too many tables: each table seats at least %(count)s player.",
            "Too many tables: each table seats at least %(count)s players.",
            low,
        )
        raise RuleError(message, field="tables")
    if people > tables * high:
        message = nmsg(
            "Too few tables: each table seats at most %(count)s player.",
            "Too few tables: each table seats at most %(count)s players.",
            high,
        )
        raise RuleError(message, field="tables")
    if not _seatable(people, tables, rules):
        raise RuleError(_no_table_message(), field="tables")
    return even_split(people, tables)


def _seatable(people: int, tables: int, rules: RuleSet) -> bool:
    """Whether every table of this even split is one the rule set seats and has decks for."""
    low, high = max(FEWEST, rules.min_players), min(MOST, rules.max_players)
    sizes = set(even_split(people, tables))
    return all(low <= size <= high and rules.deck_rule(size) is not None for size in sizes)


def _too_few_message(low: int) -> Message:
    """A card party needs one full table at least."""
    return nmsg(
        "A card party needs at least %(count)s player.",
        "A card party needs at least %(count)s players.",
        low,
    )


def _no_table_message() -> Message:
    """These rules seat no table a card party may have."""
    return msg(
        N_("A card party seats %(low)s to %(high)s players at each table; these rules do not."),
        low=FEWEST,
        high=MOST,
    )


def draw_seating(people: Sequence[str], sizes: Sequence[int], seed: int) -> Seating:
    """Draw the first seating: the same seed draws the same seating, another seed redraws."""
    _check_people(people, sizes)
    drawn = list(people)
    random.Random(seed).shuffle(drawn)
    return fill(drawn, sizes)


def fill(ordered: Sequence[Person], sizes: Sequence[int]) -> tuple[tuple[Person, ...], ...]:
    """Seat people in this order: table 1 first, each table to its size."""
    seating: list[tuple[Person, ...]] = []
    start = 0
    for size in sizes:
        seating.append(tuple(ordered[start : start + size]))
        start += size
    return tuple(seating)


def sizes_of(seating: Seating) -> tuple[int, ...]:
    """Each table's size, table 1 first."""
    return tuple(len(table) for table in seating)


def swap_people(seating: Seating, first: str, second: str) -> Seating:
    """Swap two people's seats before the organiser confirms the seating."""
    seated = {person for table in seating for person in table}
    if first == second or first not in seated or second not in seated:
        raise RuleError(msg(N_("Choose two different people seated tonight.")), field="swap")
    other = {first: second, second: first}
    return tuple(tuple(other.get(person, person) for person in table) for table in seating)


def _check_people(people: Sequence[str], sizes: Sequence[int]) -> None:
    """Everyone once, and the split seats exactly them (a caller's slip, never the table's)."""
    if len(set(people)) != len(people) or sum(sizes) != len(people):
        raise ValueError("a seating needs each person once and a split of exactly them")
