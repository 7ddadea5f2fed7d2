"""Final standings and tiebreaks (RULES.md section 6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.presets import CONTRACT_RUMMY, MAY_I, NINE_ROUND_MARATHON
from scorekeeper.rules.ruleset import Contract, RoundSpec, RuleSet, TiebreakPolicy
from scorekeeper.rules.scoring import RoundOutcome
from scorekeeper.rules.standings import (
    Standings,
    TiebreakerOutcome,
    game_over,
    provisional_standings,
    standings,
)

NAMES = ("Anna", "Ben", "Carla", "Dan")
PLAYOFF = replace(MAY_I, scoring=replace(MAY_I.scoring, tiebreak=TiebreakPolicy.PLAYOFF))
SHARED = replace(MAY_I, scoring=replace(MAY_I.scoring, tiebreak=TiebreakPolicy.SHARED))


def played(totals: Sequence[int], outs: Sequence[int] = (), rounds: int = 7) -> list[RoundOutcome]:
    """Rounds giving these totals, seat i going out in outs[i] of them, the rest ended by stock."""
    went_out: list[int | None] = [seat for seat, n in enumerate(outs) for _ in range(n)]
    went_out += [None] * (rounds - len(went_out))
    scores = [[0] * len(totals) for _ in range(rounds)]
    for seat, total in enumerate(totals):
        # A seat's points go in a round it did not go out in: going out scores 0.
        scores[next(r for r, out in enumerate(went_out) if out != seat)][seat] = total
    return [RoundOutcome(tuple(row), out) for row, out in zip(scores, went_out, strict=True)]


def said(result: Standings) -> list[str]:
    """The explanation as the table hears it in English."""
    return [message.render() for message in result.explanation]


def places(result: Standings) -> dict[str, int]:
    """Each name's place."""
    return {row.name: row.place for row in result.rows}


def test_lowest_total_wins_outright():
    result = standings(MAY_I, NAMES[:3], played([85, 62, 140], [2, 3, 1]))

    assert result.winners == (1,)
    assert result.needs_tiebreaker == ()
    assert said(result) == ["Ben wins with the lowest total, 62."]
    assert [(row.name, row.total, row.rounds_out, row.place) for row in result.rows] == [
        ("Ben", 62, 3, 1),
        ("Anna", 85, 2, 2),
        ("Carla", 140, 1, 3),
    ]


def test_a_tie_on_the_lowest_total_goes_to_the_player_who_went_out_in_more_rounds():
    result = standings(MAY_I, NAMES[:3], played([85, 85, 120], [2, 3, 1]))

    assert result.winners == (1,)
    assert result.needs_tiebreaker == ()
    assert said(result) == [
        "Anna and Ben tied on 85.",
        "Anna went out in 2 rounds.",
        "Ben went out in 3 rounds.",
        "Ben wins on rounds gone out.",
    ]
    assert places(result) == {"Ben": 1, "Anna": 2, "Carla": 3}


def test_rounds_gone_out_sentences_carry_a_plural_form_for_translation():
    result = standings(MAY_I, NAMES[:2], played([85, 85], [1, 0]))

    went_out = [m for m in result.explanation if "went out in" in m.template]
    assert [(m.count, m.plural is not None) for m in went_out] == [(1, True), (0, True)]
    assert said(result)[1:3] == ["Anna went out in 1 round.", "Ben went out in 0 rounds."]


def test_players_still_tied_on_rounds_out_must_play_a_tiebreaker_round():
    result = standings(MAY_I, NAMES, played([85, 140, 85, 85], [2, 0, 2, 1]))

    assert result.winners == ()
    assert result.needs_tiebreaker == (0, 2)
    assert said(result)[-3:] == [
        "Still tied: Anna and Carla play a tiebreaker round.",
        "Contract: 2 runs.",
        "Deal 10 cards each.",
    ]
    assert places(result) == {"Anna": 1, "Carla": 1, "Dan": 3, "Ben": 4}


def test_the_tiebreaker_is_won_by_the_player_who_goes_out():
    game = played([85, 140, 85, 85], [2, 0, 2, 1])
    tiebreaker = TiebreakerOutcome(seats=(0, 2), went_out=2)

    result = standings(MAY_I, NAMES, game, [tiebreaker])

    assert result.winners == (2,)
    assert result.needs_tiebreaker == ()
    assert said(result)[-1] == "Carla went out in the tiebreaker round and wins."
    assert places(result) == {"Carla": 1, "Anna": 2, "Dan": 3, "Ben": 4}


def test_a_tiebreaker_ended_by_the_stock_goes_to_the_lowest_hand():
    tiebreaker = TiebreakerOutcome(seats=(1, 0), went_out=None, hand_points={0: 30, 1: 12})

    result = standings(MAY_I, NAMES[:2], played([85, 85], [2, 2]), [tiebreaker])

    assert result.winners == (1,)
    assert said(result)[-1] == (
        "The tiebreaker round ended with the stock: Ben has the lowest hand, 12, and wins."
    )
    assert places(result) == {"Ben": 1, "Anna": 2}


def test_a_still_tied_tiebreaker_calls_another_among_those_still_tied():
    game = played([85, 85, 85, 90], [2, 2, 2, 1])
    first = TiebreakerOutcome(seats=(0, 1, 2), went_out=None, hand_points={0: 12, 1: 30, 2: 12})

    result = standings(MAY_I, NAMES, game, [first])

    assert result.winners == ()
    assert result.needs_tiebreaker == (0, 2)
    assert said(result)[-4:] == [
        "The tiebreaker round ended with the stock: Anna and Carla tied on 12.",
        "Still tied: Anna and Carla play a tiebreaker round.",
        "Contract: 2 runs.",
        "Deal 10 cards each.",
    ]
    assert places(result) == {"Anna": 1, "Carla": 1, "Ben": 3, "Dan": 4}


def test_the_second_tiebreaker_settles_what_the_first_left_tied():
    game = played([85, 85, 85, 90], [2, 2, 2, 1])
    first = TiebreakerOutcome(seats=(0, 1, 2), went_out=None, hand_points={0: 12, 1: 30, 2: 12})
    second = TiebreakerOutcome(seats=(0, 2), went_out=0)

    result = standings(MAY_I, NAMES, game, [first, second])

    assert result.winners == (0,)
    assert result.needs_tiebreaker == ()
    assert places(result) == {"Anna": 1, "Carla": 2, "Ben": 3, "Dan": 4}


def test_the_playoff_policy_skips_rounds_gone_out():
    result = standings(PLAYOFF, NAMES[:3], played([85, 85, 120], [3, 1, 1]))

    assert result.needs_tiebreaker == (0, 1)
    assert said(result)[:2] == [
        "Anna and Ben tied on 85.",
        "Anna and Ben play a tiebreaker round.",
    ]


@pytest.mark.parametrize(
    ("totals", "outs", "winners", "sentence"),
    [
        ([85, 85, 120], [3, 1, 1], (0, 1), "Anna and Ben share the win."),
        ([70, 70, 70], [1, 1, 1], (0, 1, 2), "Anna, Ben and Carla share the win."),
        ([70, 85, 120], [1, 3, 1], (0,), "Anna wins with the lowest total, 70."),
    ],
)
def test_the_shared_policy_lets_tied_players_share_the_win(totals, outs, winners, sentence):
    result = standings(SHARED, NAMES[:3], played(totals, outs))

    assert result.winners == winners
    assert result.needs_tiebreaker == ()
    assert said(result)[-1] == sentence
    assert [row.place for row in result.rows if row.seat in winners] == [1] * len(winners)


def test_a_tiebreaker_round_of_books_and_runs_is_announced_one_count_at_a_time():
    spec = RoundSpec(Contract(books=1, runs=1), deal=11)
    rules = replace(PLAYOFF, scoring=replace(PLAYOFF.scoring, tiebreaker_round=spec))

    result = standings(rules, NAMES[:2], played([40, 40]))

    assert said(result)[-3:] == ["Contract: 1 book.", "Contract: 1 run.", "Deal 11 cards each."]


def test_a_cut_bonus_can_leave_the_winner_below_zero():
    result = standings(MAY_I, NAMES[:2], played([-20, 15], [4, 3]))

    assert result.winners == (0,)
    assert said(result) == ["Anna wins with the lowest total, -20."]


TIE = played([85, 85, 120], [2, 2, 1])
ALONE = played([70, 85, 120], [2, 2, 1])
TB = TiebreakerOutcome


@pytest.mark.parametrize(
    ("rules", "outcomes", "tiebreakers", "field"),
    [
        (MAY_I, TIE, [TB((0, 2), 0)], "tiebreakers.0.seats"),
        (MAY_I, TIE, [TB((0,), 0)], "tiebreakers.0.seats"),
        (MAY_I, TIE, [TB((0, 1), 2)], "tiebreakers.0.went_out"),
        (MAY_I, TIE, [TB((0, 1), 0, {1: 20})], "tiebreakers.0.hand_points"),
        (MAY_I, TIE, [TB((0, 1), None, {0: 20})], "tiebreakers.0.hand_points"),
        (MAY_I, TIE, [TB((0, 1), None, {0: 5, 1: -1})], "tiebreakers.0.hand_points.1"),
        (MAY_I, TIE, [TB((0, 1), 1), TB((0, 1), 0)], "tiebreakers.1"),
        (MAY_I, ALONE, [TB((0, 1), 0)], "tiebreakers.0"),
        (SHARED, TIE, [TB((0, 1), 0)], "tiebreakers"),
        (MAY_I, TIE[:6], [TB((0, 1), 0)], "tiebreakers"),
        (MAY_I, [*TIE, TIE[0]], [], "rounds"),
        (CONTRACT_RUMMY, TIE, [TB((0, 1), None, {0: 5, 1: 9})], "tiebreakers.0.went_out"),
    ],
)
def test_standings_refuse_tiebreakers_that_do_not_fit_the_tie(rules, outcomes, tiebreakers, field):
    with pytest.raises(RuleError) as caught:
        standings(rules, NAMES[:3], outcomes, tiebreakers)

    assert caught.value.field == field


def test_standings_name_who_the_tiebreaker_round_is_for():
    with pytest.raises(RuleError) as caught:
        standings(MAY_I, NAMES[:3], TIE, [TiebreakerOutcome((0, 2), 0)])

    assert caught.value.message.render() == "The tiebreaker round is for Anna and Ben."


@pytest.mark.parametrize(
    ("rules", "rounds", "over"),
    [
        (MAY_I, 0, False),
        (MAY_I, 6, False),
        (MAY_I, 7, True),
        (NINE_ROUND_MARATHON, 7, False),
        (NINE_ROUND_MARATHON, 9, True),
    ],
)
def test_the_game_is_over_when_every_round_is_played(rules, rounds, over):
    assert game_over(rules, [RoundOutcome((10, 20), 0)] * rounds) is over


@pytest.mark.parametrize(
    ("totals", "sentence", "leaders"),
    [
        ([20, 45, 30], "Anna leads with 20.", ["Anna"]),
        ([45, 20, 20], "Ben and Carla lead with 20.", ["Ben", "Carla"]),
    ],
)
def test_mid_game_standings_name_the_leaders_without_deciding(totals, sentence, leaders):
    game = played(totals, rounds=3)

    result = provisional_standings(NAMES[:3], game)

    assert result == standings(MAY_I, NAMES[:3], game)
    assert (result.winners, result.needs_tiebreaker) == ((), ())
    assert said(result) == [sentence]
    assert [row.name for row in result.rows if row.place == 1] == leaders


def test_before_the_first_round_everybody_shares_first_place_and_nothing_is_said():
    result = provisional_standings(NAMES[:3], [])

    assert said(result) == []
    assert [row.place for row in result.rows] == [1, 1, 1]


@st.composite
def finished_games(draw: st.DrawFn, rules: RuleSet = MAY_I) -> list[RoundOutcome]:
    """A finished game with few distinct scores, so ties on total and rounds out are common."""
    players = draw(st.integers(min_value=2, max_value=6))
    outcomes = []
    for _ in rules.rounds:
        out = draw(st.none() | st.integers(0, players - 1))
        scores = [
            0 if seat == out else draw(st.sampled_from([0, 5, 10, 25])) for seat in range(players)
        ]
        outcomes.append(RoundOutcome(tuple(scores), out))
    return outcomes


def seat_names(outcomes: list[RoundOutcome]) -> tuple[str, ...]:
    """One distinct name per seat."""
    return tuple(f"P{seat}" for seat in range(len(outcomes[0].scores)))


def reseat(outcomes: list[RoundOutcome], order: list[int]) -> list[RoundOutcome]:
    """The same game with the player at seat order[i] moved to seat i."""
    new_seat = {old: new for new, old in enumerate(order)}
    return [
        RoundOutcome(
            tuple(o.scores[old] for old in order),
            None if o.went_out is None else new_seat[o.went_out],
        )
        for o in outcomes
    ]


@pytest.mark.parametrize("rules", [MAY_I, PLAYOFF, SHARED])
@given(data=st.data())
def test_standings_rows_are_sorted_by_total_and_by_place(rules, data):
    outcomes = data.draw(finished_games(rules))

    rows = standings(rules, seat_names(outcomes), outcomes).rows

    assert [r.total for r in rows] == sorted(r.total for r in rows)
    assert [r.place for r in rows] == sorted(r.place for r in rows)
    assert sorted(r.seat for r in rows) == list(range(len(rows)))


@given(st.lists(st.integers(-50, 300), min_size=2, max_size=8, unique=True), st.randoms())
def test_the_winner_does_not_depend_on_seat_order_when_totals_differ(totals, random):
    names = tuple(f"P{seat}" for seat in range(len(totals)))
    order = list(range(len(totals)))
    random.shuffle(order)

    before = standings(MAY_I, names, played(totals))
    after = standings(MAY_I, [names[i] for i in order], played([totals[i] for i in order]))

    assert [names[s] for s in before.winners] == ["P" + str(totals.index(min(totals)))]
    assert [names[order[s]] for s in after.winners] == [names[s] for s in before.winners]


@pytest.mark.parametrize("rules", [MAY_I, PLAYOFF, SHARED])
@given(data=st.data())
def test_who_wins_or_plays_the_tiebreaker_does_not_depend_on_seat_order(rules, data):
    outcomes = data.draw(finished_games(rules))
    names = seat_names(outcomes)
    order = data.draw(st.permutations(range(len(names))))

    before = standings(rules, names, outcomes)
    after = standings(rules, [names[i] for i in order], reseat(outcomes, list(order)))

    def who(result: Standings, seating: Sequence[str]) -> tuple[set[str], set[str]]:
        return {seating[s] for s in result.winners}, {seating[s] for s in result.needs_tiebreaker}

    assert who(after, [names[i] for i in order]) == who(before, names)
    assert bool(before.winners) != bool(before.needs_tiebreaker)
