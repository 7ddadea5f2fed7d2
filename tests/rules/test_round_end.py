"""A round's end in the rules engine (rules/round_end.py): every refusal at its hand, the cut
bonus for the cutter alone, the stock's ending, typed points against tapped cards. Pure: a
game's facts are built here, no app and no database."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.game_facts import EnteredHand, GameFacts, ResultFacts, RoundFacts, SeatFacts
from scorekeeper.rules.game_state import GameState, game_state
from scorekeeper.rules.playing_cards import Card, Rank, Suit
from scorekeeper.rules.presets import LIVERPOOL, MAY_I
from scorekeeper.rules.round_end import (
    MAX_POINTS,
    CheckedEnd,
    check_entry,
    checked_end,
    end_warnings,
    hand_refusals,
    setup_for,
)
from scorekeeper.rules.round_entry import Hand, RoundEnd, cards_of
from scorekeeper.rules.ruleset import RuleSet

NAMES = ("Anna", "Ben", "Carla", "Dan")
EVERY_HAND = {1: Hand(points=25), 2: Hand(points=40), 3: Hand(points=5)}  # Anna went out


def state_of(
    rules: RuleSet = MAY_I, rounds: tuple[RoundFacts, ...] = (), first_dealer: int = 0
) -> GameState:
    """Anna, Ben, Carla and Dan's game under `rules` with these rounds stored."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    facts = GameFacts(
        id=1,
        version=1,
        table_id=None,
        first_dealer=first_dealer,
        dealer_was_cut=False,
        decks=None,
        edit_token="e",
        view_token="v",
        created_at=now,
        updated_at=now,
        rules_text="{}",
        seats=tuple(SeatFacts(position, name) for position, name in enumerate(NAMES)),
        rounds=rounds,
    )
    return game_state(facts, rules)


def round_one(dealer: int = 0, run_outs: int = 0, cut_bonus_seat: int | None = None) -> RoundFacts:
    """Round 1 as stored: Anna went out, the others held 25, 40 and 5."""
    held = (ResultFacts(seat, False, hand.points or 0) for seat, hand in EVERY_HAND.items())
    results = (ResultFacts(0, True, 0), *held)
    return RoundFacts(
        id=1,
        number=1,
        dealer=dealer,
        run_outs=run_outs,
        cut_bonus_seat=cut_bonus_seat,
        results=results,
    )


def end_of(went_out: int | None, hands: dict[int, Hand], cut: int | None) -> RoundEnd:
    """A round's end as the form says it: who went out (None: the stock), the hands, the cut."""
    if went_out is not None:
        hands = {**hands, went_out: replace(hands.get(went_out, Hand()), went_out=True)}
    return RoundEnd(hands, went_out is None, cut)


def check(
    state: GameState, number: int, went_out: int | None, hands: dict[int, Hand], cut: int | None
) -> CheckedEnd:
    """checked_end of the round's end the form says."""
    return checked_end(state, number, end_of(went_out, hands, cut))


def tapped(counts: dict[str, int]) -> dict[Card, int]:
    """Cards tapped by their rank alone, as the end-of-round form's buttons tap them."""
    return cards_of(counts)


def refusal_of(error: RuleError) -> tuple[str | None, str]:
    """Where a refusal stands and what it says, in English."""
    return error.field, str(error.message)


@pytest.mark.parametrize(
    ("went_out", "hands", "refused"),
    [
        (0, EVERY_HAND, {}),
        (0, {**EVERY_HAND, 0: Hand(points=5)}, {0: "Anna went out and holds no cards"}),
        (0, {1: Hand(points=25), 2: Hand(points=40)}, {3: "Enter the points or the cards"}),
        (0, {**EVERY_HAND, 2: Hand()}, {2: "Enter the points or the cards"}),
        (0, {**EVERY_HAND, 1: Hand(points=1)}, {1: "No hand is worth 1"}),
        (0, {**EVERY_HAND, 3: Hand(points=MAX_POINTS + 1)}, {3: "from 0 to 10000"}),
        (
            0,
            {**EVERY_HAND, 1: Hand(cards=tapped({"K": 2}), points=25)},
            {1: "25 points were typed"},
        ),
        (0, {**EVERY_HAND, 2: Hand(cards=tapped({"JK": 9}))}, {2: "Joker"}),
        (
            1,
            {0: Hand(points=3), 2: Hand(points=40), 3: Hand(points=1)},
            {3: "No hand is worth 1"},
        ),
        (0, {}, dict.fromkeys((1, 2, 3), "Enter the points or the cards")),
    ],
)
def test_each_hand_is_refused_at_its_own_seat(
    went_out: int, hands: dict[int, Hand], refused: dict[int, str]
) -> None:
    refusals = hand_refusals(state_of(), 1, end_of(went_out, hands, None))
    assert sorted(refusals) == sorted(refused)
    for seat, words in refused.items():
        field, said = refusal_of(refusals[seat])
        assert field == f"hands.{seat}"
        assert words.lower() in said.lower(), said


def test_a_round_end_refuses_its_first_hand_refusal_and_stores_nothing_else() -> None:
    with pytest.raises(RuleError) as refused:
        check(state_of(), 1, 0, {**EVERY_HAND, 2: Hand()}, None)
    assert refused.value.field == "hands.2"


def test_a_round_not_reached_is_refused() -> None:
    with pytest.raises(RuleError) as refused:
        check(state_of(), 2, 0, EVERY_HAND, None)
    assert refusal_of(refused.value) == ("round", "That round has not been played yet.")


def test_the_stored_end_keeps_tapped_cards_and_typed_points_apart() -> None:
    hands = {**EVERY_HAND, 1: Hand(cards=tapped({"K": 2, "5": 1}))}
    end = check(state_of(), 1, 0, hands, None)
    assert [result.points for result in end.results] == [0, 25, 40, 5]
    assert end.facts == {
        "ended_by_stock": False,
        "cut_bonus_seat": None,
        "results": [
            {"seat": 0, "went_out": True, "points": 0, "cards": None},
            {"seat": 1, "went_out": False, "points": 25, "cards": {"K": 2, "5": 1}},
            {"seat": 2, "went_out": False, "points": 40, "cards": None},
            {"seat": 3, "went_out": False, "points": 5, "cards": None},
        ],
    }


@pytest.mark.parametrize(
    ("counts", "typed", "points"),
    [
        ({"K": 2}, None, 20),
        ({"K": 2}, 20, 20),  # the same answer twice is one answer
        ({"A": 1, "JK": 1, "2": 3}, None, 36),
        ({}, 0, 0),
    ],
)
def test_tapped_cards_count_their_values_and_may_agree_with_typed_points(
    counts: dict[str, int], typed: int | None, points: int
) -> None:
    hands = {**EVERY_HAND, 2: Hand(points=typed, cards=tapped(counts))}
    end = check(state_of(), 1, 0, hands, None)
    assert end.results[2].points == points


@pytest.mark.parametrize(("typed", "counted"), [(19, 20), (0, 20), (200, 20)])
def test_typed_points_that_differ_from_the_tapped_cards_are_refused(
    typed: int, counted: int
) -> None:
    hands = {**EVERY_HAND, 2: Hand(points=typed, cards=tapped({"K": 2}))}
    refusals = hand_refusals(state_of(), 1, end_of(0, hands, None))
    assert str(refusals[2].message).startswith(f"{typed} points were typed but the tapped cards")
    assert f"count {counted}" in str(refusals[2].message)


@pytest.mark.parametrize(("first_dealer", "cutter"), [(0, 3), (1, 0), (2, 1), (3, 2)])
def test_the_cut_bonus_goes_only_to_the_player_right_of_the_dealer(
    first_dealer: int, cutter: int
) -> None:
    state = state_of(LIVERPOOL, first_dealer=first_dealer)
    assert state.cutter_of(1) == cutter == state.current.cutter  # type: ignore[union-attr]
    went_out = (cutter + 1) % 4
    hands = {seat: Hand(points=10) for seat in range(4) if seat != went_out}
    assert check(state, 1, went_out, hands, cutter).facts["cut_bonus_seat"] == cutter
    for other in set(range(4)) - {cutter}:
        with pytest.raises(RuleError) as refused:
            check(state, 1, went_out, hands, other)
        assert refusal_of(refused.value) == (
            "cut_bonus_seat",
            "Only the player who cut this round can earn the cut bonus.",
        )


def test_a_past_rounds_cutter_is_the_one_right_of_who_dealt_it() -> None:
    state = state_of(LIVERPOOL, rounds=(round_one(dealer=2),), first_dealer=0)
    assert state.cutter_of(1) == 1  # who really dealt round 1 decides, not the first dealer
    assert check(state, 1, 0, EVERY_HAND, 1).facts["cut_bonus_seat"] == 1
    with pytest.raises(RuleError):
        check(state, 1, 0, EVERY_HAND, 3)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_game_without_a_cut_bonus_refuses_it_to_everyone(seat: int) -> None:
    state = state_of(MAY_I)
    assert state.cutter_of(1) is None
    with pytest.raises(RuleError) as refused:
        check(state, 1, 0, EVERY_HAND, seat)
    assert refusal_of(refused.value) == ("cut_bonus_seat", "These rules have no cut bonus.")


def test_a_cut_by_someone_not_in_the_round_is_refused() -> None:
    with pytest.raises(RuleError) as refused:
        check(state_of(LIVERPOOL), 1, 0, EVERY_HAND, 7)
    assert refusal_of(refused.value) == ("cut_bonus_seat", "That player is not in this round.")


EVERY_SEAT = {seat: Hand(points=10) for seat in range(4)}


@pytest.mark.parametrize(("run_outs", "allowed"), [(0, False), (1, False), (2, True)])
def test_the_stock_ends_a_may_i_round_only_at_its_second_run_out(
    run_outs: int, allowed: bool
) -> None:
    stored = RoundFacts(id=1, number=1, dealer=0, run_outs=run_outs)
    state = state_of(rounds=(stored,))
    if allowed:
        assert check(state, 1, None, EVERY_SEAT, None).facts["ended_by_stock"]
        return
    with pytest.raises(RuleError) as refused:
        check(state, 1, None, EVERY_SEAT, None)
    assert refused.value.field == "went_out"
    assert "only when it runs out a second time" in str(refused.value.message)


def test_nobody_goes_out_of_a_round_the_stock_ended() -> None:
    state = state_of(rounds=(RoundFacts(id=1, number=1, dealer=0, run_outs=2),))
    with pytest.raises(RuleError) as refused:
        check(state, 1, 0, EVERY_HAND, None)
    assert refusal_of(refused.value) == (
        "went_out",
        "The stock ended this round: nobody went out.",
    )


def test_a_correction_keeps_a_stock_ending_stored_before_the_run_outs_were_counted() -> None:
    stored = RoundFacts(
        id=1,
        number=1,
        dealer=0,
        ended_by_stock=True,
        results=tuple(ResultFacts(seat, False, 10) for seat in range(4)),
    )
    end = check(state_of(rounds=(stored,)), 1, None, EVERY_SEAT, None)
    assert end.facts["ended_by_stock"]


def test_warnings_name_the_hand_worth_a_second_look() -> None:
    state = state_of()
    end = check(state, 1, 0, {**EVERY_HAND, 2: Hand(points=0)}, None)
    (warning,) = end_warnings(state, 1, end)
    assert (warning.seat, warning.kind) == (2, "zero")


def test_tapped_cards_are_checked_against_the_decks_of_the_table() -> None:
    assert setup_for(state_of(), 1).decks == 2  # May I? at four: two decks, four jokers
    assert setup_for(state_of(), 1).jokers == 4


def waiting(seat: int, status: str = "pending") -> EnteredHand:
    """Seat `seat` said on its phone that it went out in round 1."""
    return EnteredHand(seat, 1, True, None, None, False, status, None, None)


RUN_OUT_TWICE = (RoundFacts(id=1, number=1, dealer=0, run_outs=2),)
KH = Card(Rank.KING, Suit.HEARTS)


@pytest.mark.parametrize(
    ("number", "hand", "cut", "entered", "rounds", "refused"),
    [
        (1, Hand(points=35), False, {}, (), None),
        (1, Hand(cards={KH: 2, Card(Rank.KING): 1}), False, {}, (), None),
        (1, Hand(went_out=True), False, {0: waiting(0, "sent_back")}, (), None),
        (1, Hand(), False, {}, (), ("points", "Enter the points or the cards")),
        (1, Hand(points=500), False, {}, (), ("points", "most valuable cards make 165")),
        (1, Hand(cards={KH: 3}), False, {}, (), ("points", "Only 2 copies of K♥ are in play.")),
        (1, Hand(went_out=True, points=5), False, {}, (), ("points", "Ben went out and holds")),
        (1, Hand(points=5), True, {}, (), ("cut_bonus", "These rules have no cut bonus.")),
        (2, Hand(points=5), False, {}, (), ("round", "That round has not been played yet.")),
        (1, Hand(points=5), False, {}, (round_one(),), ("round", "Round 1 is saved already")),
        (
            1,
            Hand(went_out=True),
            False,
            {0: waiting(0)},
            (),
            ("went_out", "Anna already said they went out."),
        ),
        (
            1,
            Hand(went_out=True),
            False,
            {},
            RUN_OUT_TWICE,
            ("went_out", "The stock ended this round: nobody went out."),
        ),
    ],
)
def test_a_hand_entered_on_its_players_phone_is_checked_as_the_form_checks_it(
    number: int,
    hand: Hand,
    cut: bool,
    entered: dict[int, EnteredHand],
    rounds: tuple[RoundFacts, ...],
    refused: tuple[str, str] | None,
) -> None:
    end = RoundEnd({1: hand}, cut_bonus_seat=1 if cut else None)
    if refused is None:
        check_entry(state_of(rounds=rounds), number, 1, end, entered)
        return
    with pytest.raises(RuleError) as refusal:
        check_entry(state_of(rounds=rounds), number, 1, end, entered)
    field, said = refusal_of(refusal.value)
    assert field == refused[0] and refused[1] in said, said


def test_only_the_rounds_cutter_claims_the_cut_on_their_phone() -> None:
    state = state_of(LIVERPOOL, first_dealer=0)  # Dan cuts round 1
    check_entry(state, 1, 3, RoundEnd({3: Hand(points=5)}, cut_bonus_seat=3), {})
    with pytest.raises(RuleError) as refused:
        check_entry(state, 1, 1, RoundEnd({1: Hand(points=5)}, cut_bonus_seat=1), {})
    assert refused.value.field == "cut_bonus"


def test_a_seat_not_in_the_round_enters_nothing() -> None:
    with pytest.raises(RuleError) as refused:
        check_entry(state_of(), 1, 5, RoundEnd({5: Hand(points=5)}), {})
    assert refusal_of(refused.value) == ("seat", "That player is not in this round.")


def test_a_change_scores_again_only_the_rounds_it_made_anew() -> None:
    """game_state's `before`: a round that is the very same value keeps its outcome; a round
    made anew (a correction, a new round's end) is scored again, and the state is the one a
    derive from nothing makes."""
    first = round_one()
    second = replace(first, id=2, number=2, dealer=1)
    before = state_of(rounds=(first, second))
    corrected = replace(second, results=(*second.results[:3], ResultFacts(3, False, 50)))
    facts = replace(before.facts, rounds=(first, corrected), version=2)
    after = game_state(facts, MAY_I, before)
    assert after == game_state(facts, MAY_I)
    assert after.outcomes[0] is before.outcomes[0]
    assert after.outcomes[1] is not before.outcomes[1]
    assert after.outcomes[1].scores[3] == 50
    # Another rule set scores every round anew.
    assert game_state(facts, LIVERPOOL, before).outcomes[0] is not before.outcomes[0]
