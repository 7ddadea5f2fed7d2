"""Round scores and running totals (RULES.md sections 5, 6 and 8)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.presets import CONTRACT_RUMMY, LIVERPOOL, MAY_I
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.scoring import (
    HandResult,
    RoundOutcome,
    check_cut_bonus,
    rounds_gone_out,
    running_totals,
    score_round,
    totals,
    zero_warning,
)

OUT = HandResult(went_out=True)
WITH_ADJUSTMENTS = replace(MAY_I, scoring=replace(MAY_I.scoring, adjustments=True))


@pytest.mark.parametrize(
    ("rules", "results", "expected"),
    [
        pytest.param(MAY_I, [OUT, HandResult(32), HandResult(45)], (0, 32, 45), id="first-out"),
        pytest.param(
            MAY_I, [HandResult(7), HandResult(0), OUT], (7, 0, 0), id="a-zero-hand-is-accepted"
        ),
        pytest.param(CONTRACT_RUMMY, [HandResult(32), OUT, HandResult(5)], (32, 0, 5), id="sheet"),
        pytest.param(
            LIVERPOOL,
            [HandResult(went_out=True, cut_bonus=True), HandResult(40), HandResult(12)],
            (-50, 40, 12),
            id="out-and-cut-exactly",
        ),
        pytest.param(
            LIVERPOOL,
            [OUT, HandResult(20, cut_bonus=True), HandResult(12)],
            (0, -30, 12),
            id="cut-exactly-not-out",
        ),
        pytest.param(
            WITH_ADJUSTMENTS,
            [OUT, HandResult(20, adjustment=-10), HandResult(12, adjustment=25)],
            (0, 10, 37),
            id="signed-adjustments",
        ),
        pytest.param(
            WITH_ADJUSTMENTS,
            [HandResult(went_out=True, adjustment=5), HandResult(3)],
            (5, 3),
            id="adjusting-the-player-who-went-out",
        ),
    ],
)
def test_player_who_went_out_scores_zero_and_the_rest_count_their_hands(rules, results, expected):
    outcome = score_round(rules, results)

    assert outcome.scores == expected
    assert outcome.went_out == next(seat for seat, r in enumerate(results) if r.went_out)


def test_second_stock_run_out_makes_everybody_count_including_a_contract_already_down():
    # Anna laid her contract down and holds one 5; Ben and Carla never got theirs down.
    results = [HandResult(5), HandResult(40), HandResult(85)]

    outcome = score_round(MAY_I, results, ended_by_stock=True)

    assert outcome == RoundOutcome(scores=(5, 40, 85), went_out=None)


def test_a_round_ended_by_the_stock_still_takes_the_cut_bonus():
    # Liverpool re-forms the stock every time, so the cut is a house rule on May I? here.
    rules = replace(MAY_I, scoring=replace(MAY_I.scoring, cut_bonus=50))
    results = [HandResult(30, cut_bonus=True), HandResult(40)]

    assert score_round(rules, results, ended_by_stock=True).scores == (-20, 40)


@pytest.mark.parametrize(
    ("rules", "results", "ended_by_stock", "field", "sentence"),
    [
        (MAY_I, [HandResult(5), HandResult(9)], False, "went_out",
         "Mark the player who went out, or end the round by the stock."),
        (MAY_I, [OUT, OUT, HandResult(9)], False, "went_out",
         "Only one player can go out in a round; 2 are marked."),
        (MAY_I, [OUT, HandResult(9)], True, "went_out",
         "Nobody goes out in a round ended by the stock."),
        (CONTRACT_RUMMY, [HandResult(5), HandResult(9)], True, "ended_by_stock",
         "Under these rules the stock is re-formed every time it runs out, "
         "so a round never ends by the stock."),
        (MAY_I, [OUT, HandResult(9), HandResult(-3)], False, "points.2",
         "Points cannot be negative: -3."),
        (MAY_I, [HandResult(9), HandResult(5, went_out=True)], False, "points.1",
         "The player who went out scores 0, not 5."),
        (MAY_I, [OUT, HandResult(9, cut_bonus=True)], False, "cut_bonus",
         "These rules have no cut bonus."),
        (LIVERPOOL, [HandResult(went_out=True, cut_bonus=True), HandResult(9, cut_bonus=True)],
         False, "cut_bonus", "Only one player cuts, so only one can earn the cut bonus."),
        (MAY_I, [OUT, HandResult(9, adjustment=-5)], False, "adjustment.1",
         "These rules allow no adjustments."),
    ],
)  # fmt: skip
def test_score_round_refuses_results_that_break_a_rule(
    rules, results, ended_by_stock, field, sentence
):
    with pytest.raises(RuleError) as caught:
        score_round(rules, results, ended_by_stock=ended_by_stock)

    assert caught.value.field == field
    assert caught.value.message.render() == sentence


def test_three_players_going_out_are_counted_with_the_plural_form():
    with pytest.raises(RuleError) as caught:
        score_round(MAY_I, [OUT, OUT, OUT])

    assert caught.value.message.count == 3
    assert caught.value.message.plural is not None


@pytest.mark.parametrize(
    ("result", "warns"),
    [
        (HandResult(0), True),
        (HandResult(0, adjustment=5), True),
        (HandResult(0, went_out=True), False),
        (HandResult(2), False),
    ],
)
def test_zero_points_without_going_out_is_warned_about_not_refused(result, warns):
    warning = zero_warning(result, "Ben")

    assert (warning is not None) == warns
    if warning is not None:
        assert "did not go out" in warning.render()


def test_a_zero_hand_is_scored_even_though_it_is_warned_about():
    results = [HandResult(0), HandResult(12)]

    assert score_round(MAY_I, results, ended_by_stock=True).scores == (0, 12)


GAME = [
    RoundOutcome((0, 32, 45), 0),
    RoundOutcome((20, 0, 15), 1),
    RoundOutcome((5, 40, 85), None),
    RoundOutcome((-50, 10, 0), 2),
]


def test_totals_add_every_round_score_including_the_cut_bonus():
    assert totals(GAME, 3) == (-25, 82, 145)


def test_running_totals_show_each_seat_after_each_round():
    assert running_totals(GAME, 3) == (
        (0, 32, 45),
        (20, 32, 60),
        (25, 72, 145),
        (-25, 82, 145),
    )


def test_rounds_gone_out_skips_rounds_ended_by_the_stock():
    assert rounds_gone_out(GAME, 3) == (1, 1, 1)
    assert rounds_gone_out(GAME[:1], 3) == (1, 0, 0)


def test_a_game_with_no_rounds_has_zero_totals_and_no_rows():
    assert totals([], 4) == (0, 0, 0, 0)
    assert running_totals([], 4) == ()
    assert rounds_gone_out([], 4) == (0, 0, 0, 0)


@pytest.mark.parametrize("function", [totals, running_totals, rounds_gone_out])
@pytest.mark.parametrize(
    ("outcome", "field"),
    [
        (RoundOutcome((0, 10), 0), "rounds.2"),
        (RoundOutcome((10, 10, 10, 0), 3), "rounds.2"),
        (RoundOutcome((10, 10, 10), 3), "rounds.2.went_out"),
        (RoundOutcome((10, 10, 10), -1), "rounds.2.went_out"),
    ],
)
def test_a_round_that_does_not_fit_the_table_is_refused(function, outcome, field):
    with pytest.raises(RuleError) as caught:
        function([GAME[0], outcome], 3)

    assert caught.value.field == field


@st.composite
def games(draw: st.DrawFn) -> tuple[int, list[RoundOutcome]]:
    """Any number of players and scored rounds, cut bonuses and adjustments included."""
    players = draw(st.integers(min_value=1, max_value=8))
    rounds = draw(st.integers(min_value=0, max_value=12))
    outcomes = [
        RoundOutcome(
            tuple(draw(st.integers(-60, 200)) for _ in range(players)),
            draw(st.none() | st.integers(0, players - 1)),
        )
        for _ in range(rounds)
    ]
    return players, outcomes


@given(games())
def test_totals_are_the_sums_of_the_round_scores(game):
    players, outcomes = game

    expected = tuple(sum(o.scores[seat] for o in outcomes) for seat in range(players))

    assert totals(outcomes, players) == expected


@given(games())
def test_the_last_running_total_is_the_total(game):
    players, outcomes = game

    rows = running_totals(outcomes, players)

    assert len(rows) == len(outcomes)
    if rows:
        assert rows[-1] == totals(outcomes, players)


@given(games())
def test_every_round_someone_went_out_in_is_counted_once(game):
    players, outcomes = game

    gone_out = rounds_gone_out(outcomes, players)

    assert sum(gone_out) == sum(o.went_out is not None for o in outcomes)


@given(st.lists(st.integers(0, 200), min_size=2, max_size=8), st.data())
def test_the_player_who_went_out_always_scores_zero(points, data):
    seat = data.draw(st.integers(0, len(points) - 1))
    results = [
        HandResult(went_out=True) if i == seat else HandResult(p) for i, p in enumerate(points)
    ]

    outcome = score_round(MAY_I, results)

    assert outcome.went_out == seat
    assert outcome.scores[seat] == 0
    assert all(outcome.scores[i] == p for i, p in enumerate(points) if i != seat)


@pytest.mark.parametrize(
    ("rules", "seat", "cutter", "refusal"),
    [
        (LIVERPOOL, 3, 3, None),
        (LIVERPOOL, None, 3, None),
        (LIVERPOOL, 0, 3, "Only the player who cut this round can earn the cut bonus."),
        (LIVERPOOL, 3, None, "Only the player who cut this round can earn the cut bonus."),
        (MAY_I, 3, None, "These rules have no cut bonus."),
    ],
)
def test_only_the_rounds_cutter_earns_the_cut_bonus(
    rules: RuleSet, seat: int | None, cutter: int | None, refusal: str | None
) -> None:
    if refusal is None:
        check_cut_bonus(rules, seat, cutter)
        return
    with pytest.raises(RuleError) as refused:
        check_cut_bonus(rules, seat, cutter)
    assert (str(refused.value.message), refused.value.field) == (refusal, "cut_bonus_seat")
