"""A card party's rotations: progressive, by standings, mix (RULES.md 12)."""

from collections import Counter

import pytest

from scorekeeper.rules.party_mix import _count, _seatings, cost, mix
from scorekeeper.rules.party_rotation import Rotation, by_standings, next_seating, progressive
from scorekeeper.rules.party_seating import draw_seating, sizes_of, table_sizes
from scorekeeper.rules.party_standings import meetings, party_standings
from scorekeeper.rules.presets import MAY_I
from tests.rules.test_party_standings import EVERYONE, ROUND_1, ROUND_2

THREE_TABLES = (("A", "B", "C", "D"), ("E", "F", "G", "H"), ("I", "J", "K"))


def test_progressive_moves_each_winner_up_and_each_last_down():
    places = ((2, 1, 4, 3), (1, 3, 2, 4), (3, 1, 2))

    assert progressive(THREE_TABLES, places, seed=1) == (
        ("A", "B", "E", "D"),  # B won table 1 and stays; E, table 2's winner, takes C's seat
        ("C", "F", "G", "J"),  # C came last at table 1; J won table 3
        ("I", "H", "K"),  # H came last at table 2; I came last here and stays
    )


def test_progressive_draws_among_players_tied_for_the_win_or_the_last_place():
    seating = (("A", "B", "C"), ("D", "E", "F", "G"), ("H", "I", "J"))
    places = ((1, 2, 3), (1, 1, 3, 3), (1, 2, 3))
    moved = {seed: progressive(seating, places, seed) for seed in range(20)}

    assert moved[3] == progressive(seating, places, 3)
    assert {next(p for p in after[0] if p in "DEFG") for after in moved.values()} == {"D", "E"}
    assert {next(p for p in after[2] if p in "DEFG") for after in moved.values()} == {"F", "G"}
    assert all(sizes_of(after) == (3, 4, 3) for after in moved.values())


def test_one_table_stays_as_it_is_under_progressive():
    assert progressive((("A", "B", "C"),), ((2, 1, 3),), seed=1) == (("A", "B", "C"),)


def test_by_standings_fills_table_1_first_from_the_combined_standings():
    seating = (("A", "D", "E", "X"), ("B", "C", "F", "G"))
    rows = party_standings((*EVERYONE, "X"), ROUND_1 + ROUND_2)

    assert by_standings(seating, rows, seed=1) == (
        ("A", "D", "C", "F"),
        ("E", "B", "G", "X"),  # X has played no game: after everyone placed
    )


def test_by_standings_draws_among_people_sharing_a_place_at_a_table_s_edge():
    rows = party_standings(EVERYONE, ROUND_1)  # A and D share 1st, E and F share 4th
    seating = (("A", "B", "C", "D"), ("E", "F", "G"))
    drawn = {by_standings(seating, rows, seed) for seed in range(20)}

    assert {frozenset(after[0]) for after in drawn} == {
        frozenset("ADBE"),
        frozenset("ADBF"),
    }
    assert by_standings(seating, rows, seed=5) == by_standings(seating, rows, seed=5)


@pytest.mark.parametrize(
    ("rotation", "expected"),
    [
        # A won table 1 and stays, D came last there; C won table 2, B came last and stays.
        (Rotation.PROGRESSIVE, (("A", "C", "E"), ("B", "D", "F", "G"))),
        (Rotation.BY_STANDINGS, (("A", "D", "C"), ("F", "E", "B", "G"))),
    ],
)
def test_the_next_seating_follows_the_evening_s_rotation(rotation, expected):
    seating = (("A", "D", "E"), ("B", "C", "F", "G"))

    assert next_seating(rotation, seating, ROUND_1 + ROUND_2, seed=1) == expected


def test_mix_seats_together_those_who_have_met_least():
    seating = (("A", "B", "C"), ("D", "E", "F"))
    met = meetings([seating[0], seating[1], seating[0], seating[1]])  # each table twice

    mixed = mix(seating, met, seed=1)

    assert sizes_of(mixed) == (3, 3)
    assert all(len(set(table) & set("ABC")) in (1, 2) for table in mixed)
    # Six pairs have met twice (24); now two of them meet a third time (5 each), four pairs
    # meet first (1 each): (2 + 1)² − 2² = 5, 1² − 0² = 1.
    assert cost(mixed, met) == 24 + 2 * 5 + 4 * 1
    assert mix(seating, met, seed=1) == mixed
    assert next_seating(Rotation.MIX, seating, [], seed=1) == mix(seating, Counter(), seed=1)


def evening(people, rounds, rotate):
    """Meetings after `rounds` games from the first drawn seating, rotating with `rotate`."""
    seating = draw_seating(people, table_sizes(len(people), MAY_I), seed=1)
    groups = []
    for number in range(rounds):
        groups += seating
        seating = rotate(seating, meetings(groups), number)
    return meetings(groups)


def figures(met):
    """The most times any pair met, the sum of squares, and how many pairs met at all."""
    return max(met.values()), sum(n * n for n in met.values()), len(met)


def random_seatings(people):
    """Five evenings whose seatings are each drawn afresh."""
    sizes = table_sizes(len(people), MAY_I)
    return [
        figures(evening(people, 5, lambda s, m, n, k=k: draw_seating(people, sizes, 100 * k + n)))
        for k in range(5)
    ]


@pytest.mark.parametrize(
    ("count", "mixed", "drawn"),
    [
        # 11 over 4, 4, 3 (exact search): 75 meetings among 55 pairs, so 20 repeats at least.
        (11, (3, 117, 55), [(4, 183, 38), (4, 155, 43), (3, 159, 42), (5, 167, 44), (4, 181, 40)]),
        # 13 over 5, 4, 4 (local search): 110 meetings among 78 pairs.
        (13, (3, 190, 73), [(4, 264, 55), (3, 226, 64), (4, 220, 65), (4, 234, 63), (5, 252, 60)]),
    ],
)
def test_mix_over_five_rounds_repeats_fewer_opponents_than_random_seatings(count, mixed, drawn):
    people = [f"P{n:02}" for n in range(count)]

    assert figures(evening(people, 5, lambda s, m, n: mix(s, m, n))) == mixed
    assert random_seatings(people) == drawn
    assert all(mixed[1] < squares for _, squares, _ in drawn)


def test_mix_seats_sixty_people_twice_without_anyone_meeting_again():
    people = [f"P{n:02}" for n in range(60)]

    assert figures(evening(people, 2, lambda s, m, n: mix(s, m, n))) == (1, 240, 240)


@pytest.mark.parametrize(
    ("sizes", "count"),
    [((4, 4, 3), 5_775), ((3, 3), 10), ((4, 3), 35), ((3, 3, 3), 280), ((5,), 1)],
)
def test_the_exact_search_weighs_every_distinct_seating_once(sizes, count):
    seatings = [
        frozenset(frozenset(table) for table in groups)
        for groups in _seatings(tuple(range(sum(sizes))), sorted(sizes, reverse=True))
    ]

    assert _count(sizes) == len(seatings) == len(set(seatings)) == count
