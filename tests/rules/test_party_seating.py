"""A card party's split into tables, the drawn seating and a swap (RULES.md 12)."""

from dataclasses import replace

import pytest

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.party_seating import draw_seating, swap_people, table_sizes
from scorekeeper.rules.presets import MAY_I

FOUR_TO_SIX = replace(MAY_I, min_players=4, max_players=6)
PEOPLE = tuple(f"P{n:02}" for n in range(1, 14))


@pytest.mark.parametrize(
    ("people", "tables", "sizes"),
    [
        (13, None, (5, 4, 4)),
        (13, 3, (5, 4, 4)),
        (13, 2, (7, 6)),
        (7, None, (4, 3)),
        (7, 2, (4, 3)),
        (11, None, (4, 4, 3)),
        (11, 3, (4, 4, 3)),
        (3, None, (3,)),
        (8, 1, (8,)),
        (16, None, (4, 4, 4, 4)),
        (60, None, (5,) * 12),
    ],
)
def test_people_are_split_into_tables_as_even_as_possible(people, tables, sizes):
    assert table_sizes(people, MAY_I, tables) == sizes


@pytest.mark.parametrize(
    ("people", "tables", "rules", "field", "said"),
    [
        (2, None, MAY_I, "people", "A card party needs at least 3 players."),
        (7, None, FOUR_TO_SIX, "people", "7 players cannot sit at tables of 4 to 6 players."),
        (7, 3, MAY_I, "tables", "Too many tables: each table seats at least 3 players."),
        (17, 2, MAY_I, "tables", "Too few tables: each table seats at most 8 players."),
        (7, 0, MAY_I, "tables", "Choose at least one table."),
        (
            6,
            None,
            replace(MAY_I, max_players=2),
            "rules",
            "A card party seats 3 to 8 players at each table; these rules do not.",
        ),
    ],
)
def test_an_impossible_split_is_refused_in_words(people, tables, rules, field, said):
    with pytest.raises(RuleError) as refused:
        table_sizes(people, rules, tables)

    assert refused.value.field == field
    assert refused.value.message.render() == said


def test_a_house_set_s_smaller_tables_are_never_split_below_its_minimum():
    assert table_sizes(9, FOUR_TO_SIX) == (5, 4)
    assert table_sizes(8, FOUR_TO_SIX, 2) == (4, 4)


def test_the_same_seed_draws_the_same_seating_and_another_redraws():
    first = draw_seating(PEOPLE, (5, 4, 4), seed=7)

    assert draw_seating(PEOPLE, (5, 4, 4), seed=7) == first
    assert draw_seating(PEOPLE, (5, 4, 4), seed=8) != first
    assert [len(table) for table in first] == [5, 4, 4]
    assert sorted(person for table in first for person in table) == list(PEOPLE)


def test_a_seating_needs_each_person_once_and_a_split_of_them():
    with pytest.raises(ValueError):
        draw_seating(("Anna", "Anna", "Ben"), (3,), seed=1)
    with pytest.raises(ValueError):
        draw_seating(("Anna", "Ben", "Carla"), (4,), seed=1)


def test_a_swap_exchanges_two_people_s_seats():
    seating = (("Anna", "Ben", "Carla"), ("Dan", "Eva", "Finn"))

    assert swap_people(seating, "Ben", "Finn") == (("Anna", "Finn", "Carla"), ("Dan", "Eva", "Ben"))
    assert swap_people(seating, "Anna", "Carla") == (("Carla", "Ben", "Anna"), seating[1])


@pytest.mark.parametrize(("first", "second"), [("Anna", "Anna"), ("Anna", "Zoe")])
def test_a_swap_needs_two_different_seated_people(first, second):
    with pytest.raises(RuleError) as refused:
        swap_people((("Anna", "Ben", "Carla"),), first, second)

    assert refused.value.field == "swap"
    assert refused.value.message.render() == "Choose two different people seated tonight."
