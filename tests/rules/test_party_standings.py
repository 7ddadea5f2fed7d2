"""A card party's placements, placement points and combined standings (RULES.md 12)."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.party_end import evening_end, evening_over
from scorekeeper.rules.party_standings import (
    TableGame,
    meetings,
    party_standings,
    placement_points,
    table_game,
    tonight,
)
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.standings import standings
from tests.rules.test_standings import PLAYOFF, SHARED, played

FOUR = ("Anna", "Ben", "Carla", "Dan")


@pytest.mark.parametrize(
    ("place", "tied", "players", "points"),
    [
        (1, 1, 4, "10.0"),
        (2, 1, 4, "6.7"),
        (3, 1, 4, "3.3"),
        (4, 1, 4, "0.0"),
        (2, 1, 3, "5.0"),
        (2, 1, 5, "7.5"),
        (2, 1, 8, "8.6"),
        (2, 2, 4, "5.0"),  # 2nd and 3rd of 4 share (6.67 + 3.33) ÷ 2
        (1, 2, 5, "8.8"),  # (10 + 7.5) ÷ 2 = 8.75, rounded half up
        (3, 2, 4, "1.7"),  # (3.33 + 0) ÷ 2
        (1, 3, 3, "5.0"),  # everyone tied
        (1, 1, 2, "10.0"),
        (2, 1, 2, "0.0"),
    ],
)
def test_placement_points_give_ten_to_first_and_nought_to_last_at_any_size(
    place, tied, players, points
):
    assert placement_points(place, tied, players) == Decimal(points)


@pytest.mark.parametrize(("place", "tied", "players"), [(0, 1, 4), (4, 2, 4), (1, 1, 1)])
def test_a_place_outside_the_table_is_a_caller_s_slip(place, tied, players):
    with pytest.raises(ValueError):
        placement_points(place, tied, players)


@pytest.mark.parametrize(
    ("rules", "totals", "outs", "places", "points"),
    [
        # Lowest total first.
        (MAY_I, (85, 62, 140), (2, 3, 1), (2, 1, 3), ("5.0", "10.0", "0.0")),
        # May I?'s own tiebreak (rounds gone out) decides the tie for the win.
        (MAY_I, (85, 85, 120, 130), (2, 3, 1, 1), (2, 1, 3, 4), ("6.7", "10.0", "3.3", "0.0")),
        # A shared win: both first, sharing the points of places 1 and 2.
        (SHARED, (85, 85, 120, 130), (2, 3, 1, 1), (1, 1, 3, 4), ("8.3", "8.3", "3.3", "0.0")),
        # No tiebreak below the win: tied players share the places they span.
        (
            MAY_I,
            (40, 90, 90, 130, 90),
            (3, 2, 1, 1, 0),
            (1, 2, 2, 5, 2),
            ("10.0", "5.0", "5.0", "0.0", "5.0"),
        ),
    ],
)
def test_a_finished_game_places_its_players_by_its_own_standings(
    rules, totals, outs, places, points
):
    names = (*FOUR, "Eva")[: len(totals)]
    result = standings(rules, names, played(totals, outs))

    game = table_game(1, 2, names, result)

    assert (game.round, game.table, game.totals, game.places) == (1, 2, totals, places)
    assert tuple(str(game.points(seat)) for seat in range(len(names))) == points


def test_a_game_not_finished_has_no_placements():
    unfinished = standings(MAY_I, FOUR, played((10, 20, 30, 40), rounds=3))
    awaiting_tiebreaker = standings(PLAYOFF, FOUR, played((50, 50, 60, 70)))

    for result in (unfinished, awaiting_tiebreaker):
        with pytest.raises(RuleError) as refused:
            table_game(1, 1, FOUR, result)
        assert refused.value.message.render() == "This game is not finished yet."


ROUND_1 = (
    TableGame(1, 1, ("A", "B", "C"), (50, 80, 120), (1, 2, 3)),
    TableGame(1, 2, ("D", "E", "F", "G"), (40, 100, 100, 130), (1, 2, 2, 4)),
)
ROUND_2 = (
    TableGame(2, 1, ("A", "D", "E"), (30, 90, 60), (1, 3, 2)),
    TableGame(2, 2, ("B", "C", "F", "G"), (70, 20, 45, 45), (4, 1, 2, 2)),
)
EVERYONE = ("A", "B", "C", "D", "E", "F", "G")


def lines(games):
    """(person, points, won, margin, played, place) per row, best first."""
    return [
        (r.person, str(r.points), r.won, r.margin, r.played, r.place)
        for r in party_standings(EVERYONE, games)
    ]


def test_standings_after_one_round_share_a_place_when_every_tie_break_is_level():
    assert lines(ROUND_1) == [
        ("A", "10.0", 1, 0, 1, 1),  # A and D: equal points, wins and margins
        ("D", "10.0", 1, 0, 1, 1),
        ("B", "5.0", 0, 30, 1, 3),
        ("E", "5.0", 0, 60, 1, 4),  # B and E: equal points and wins, B's margin smaller
        ("F", "5.0", 0, 60, 1, 4),
        ("C", "0.0", 0, 70, 1, 6),
        ("G", "0.0", 0, 90, 1, 7),
    ]


def test_standings_break_ties_on_games_won_then_on_margins():
    assert lines(ROUND_1 + ROUND_2) == [
        ("A", "20.0", 2, 0, 2, 1),
        ("D", "10.0", 1, 60, 2, 2),  # D, C, F, E: 10 points; D and C won a game
        ("C", "10.0", 1, 70, 2, 3),  # D's margins are smaller than C's
        ("F", "10.0", 0, 85, 2, 4),  # F and E won none; F's margins are smaller
        ("E", "10.0", 0, 90, 2, 5),
        ("B", "5.0", 0, 80, 2, 6),
        ("G", "5.0", 0, 115, 2, 7),
    ]


def test_someone_without_a_game_yet_has_no_points_and_no_margin():
    rows = party_standings(("A", "B", "C", "Zoe"), ROUND_1[:1])

    assert [(r.person, str(r.points), r.margin, r.played, r.place) for r in rows] == [
        ("A", "10.0", 0, 1, 1),
        ("B", "5.0", 30, 1, 2),
        ("Zoe", "0.0", 0, 0, 3),  # the rule as written: no margin is the smallest margin
        ("C", "0.0", 70, 1, 4),
    ]


def test_a_person_s_evening_lists_tables_places_and_opponents():
    evening = tonight("E", ROUND_1 + ROUND_2)

    assert evening.tables == (2, 1)
    assert evening.places == (2, 2)
    assert evening.opponents == (("A", 1), ("D", 2), ("F", 1), ("G", 1))
    assert tonight("Zoe", ROUND_1).tables == ()


def test_meetings_count_each_pair_once_per_game_together():
    met = meetings(game.people for game in ROUND_1 + ROUND_2)

    assert met[frozenset(("D", "E"))] == 2
    assert met[frozenset(("A", "B"))] == 1
    assert frozenset(("A", "G")) not in met
    assert sum(met.values()) == 3 + 6 + 3 + 6


START = datetime(2026, 12, 5, 19, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("last_change", "ended", "now", "over"),
    [
        (START, None, START + timedelta(hours=5, minutes=59), False),
        (START, None, START + timedelta(hours=6), True),
        (START, START + timedelta(hours=2), START + timedelta(hours=2), True),
        (START, START + timedelta(hours=2), START + timedelta(hours=1), False),
        # A change restarts the six hours.
        (START + timedelta(hours=4), None, START + timedelta(hours=7), False),
    ],
)
def test_the_evening_ends_by_the_organiser_or_after_six_idle_hours(last_change, ended, now, over):
    assert evening_over(last_change, now, ended) is over


def test_the_evening_s_end_is_the_earlier_of_the_organiser_s_and_six_idle_hours():
    assert evening_end(START) == START + timedelta(hours=6)
    assert evening_end(START, START + timedelta(hours=1)) == START + timedelta(hours=1)
    assert evening_end(START, START + timedelta(hours=9)) == START + timedelta(hours=6)
