"""The rules card: every preset and every house rule set told truthfully in sentences."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.messages import Message
from scorekeeper.rules.playing_cards import RANK_CODES, Rank
from scorekeeper.rules.presets import (
    CONTRACT_RUMMY,
    LIVERPOOL,
    MAY_I,
    NO_JOKERS,
    PRESETS,
    SHANGHAI,
    STANDARD_ROUNDS,
    UNLIMITED_BUYS,
)
from scorekeeper.rules.rules_card import card_text, rules_card, summary
from scorekeeper.rules.rules_card_scoring import value_lines
from scorekeeper.rules.ruleset import (
    AceRule,
    BuyRules,
    DealPasses,
    DeckRule,
    FirstDealer,
    MeldRules,
    ReshufflePolicy,
    RuleSet,
    ScoringRules,
    TiebreakPolicy,
)
from scorekeeper.rules.ruleset_json import ruleset_from_json, ruleset_to_json
from scorekeeper.rules.validation import validate_ruleset


@pytest.mark.parametrize("preset", PRESETS.values(), ids=list(PRESETS))
def test_every_preset_has_a_summary_and_five_sections(preset: RuleSet) -> None:
    assert summary(preset) is not None
    sections = rules_card(preset)
    assert len(sections) == 5
    assert all(section.lines for section in sections)


def test_a_rule_set_that_is_no_preset_has_no_summary() -> None:
    assert summary(MAY_I.with_changes(key="house")) is None


def test_unlimited_buys_are_said_to_be_unlimited() -> None:
    lines = [line.render() for line in rules_card(UNLIMITED_BUYS)[2].lines]
    assert "Buys are not limited." in lines


def test_five_buys_a_game_are_not_called_unlimited() -> None:
    rules = MAY_I.with_changes(buys=BuyRules(cap_per_round=None, cap_per_game=5))
    text = card_text(rules)
    assert "At most 5 buys per game." in text
    assert "not limited" not in text


def test_a_round_cap_of_zero_is_on_the_card() -> None:
    rounds = (replace(STANDARD_ROUNDS[0], buy_cap=0), *STANDARD_ROUNDS[1:])
    assert "Round 1: no buying." in card_text(MAY_I.with_changes(rounds=rounds))


def test_the_deal_passing_to_the_winner_is_not_called_clockwise() -> None:
    text = card_text(MAY_I.with_changes(deal_passes=DealPasses.WINNER))
    assert "whoever went out last round" in text
    assert "clockwise" not in text


def test_wild_twos_worth_20_and_one_wild_per_meld_are_told() -> None:
    values = {**ScoringRules().values, "2": 20}
    rules = MAY_I.with_changes(
        melds=MeldRules(wild_twos=True, max_wilds_per_meld=1), scoring=ScoringRules(values=values)
    )
    text = card_text(rules)
    assert "Every 2 is wild as well; a 2 left in hand counts 20." in text
    assert "At most 1 wild card in one meld." in text
    assert "2: 20 points." in text
    assert "3 to 10: their face value." in text


def test_unshuffled_turn_over_is_not_called_a_shuffle() -> None:
    text = card_text(MAY_I.with_changes(shuffle_on_reform=False))
    assert "without shuffling" in text
    assert "shuffle the discards" not in text


def test_no_jokers_lists_no_joker_value() -> None:
    assert "Joker:" not in card_text(NO_JOKERS)


def test_may_i_counts_the_next_players_call_as_a_buy() -> None:
    assert "The next player's “May I?” instead of a plain draw counts as a buy." in card_text(MAY_I)


def test_the_sheet_says_the_next_players_call_is_a_draw() -> None:
    assert "their draw, not a buy" in card_text(CONTRACT_RUMMY)


def test_the_sheet_tells_round_7_lifts_the_exact_length() -> None:
    assert "Round 7: all 13 cards go down at once" in card_text(CONTRACT_RUMMY)


def test_liverpool_tells_the_exact_cut() -> None:
    assert "(players × deal + 1) scores −50" in card_text(LIVERPOOL)


def test_shanghai_says_its_list_is_the_common_one() -> None:
    message = summary(SHANGHAI)
    assert message is not None
    assert "common list" in message.render()


# Every setting the property test varies, and what the card must then say.
BUY_SETTINGS = st.builds(
    BuyRules,
    cap_per_round=st.one_of(st.none(), st.integers(0, 6)),
    cap_per_game=st.one_of(st.none(), st.integers(0, 9)),
    penalty_cards=st.integers(0, 2),
    no_twice_in_a_row=st.booleans(),
    turn_player_call_is_buy=st.booleans(),
    no_buy_after_contract_down=st.booleans(),
)
MELD_SETTINGS = st.builds(
    MeldRules,
    aces=st.sampled_from(AceRule),
    exact_laydown=st.booleans(),
    abutting_runs=st.booleans(),
    jokers_wild=st.booleans(),
    wild_twos=st.booleans(),
    max_wilds_per_meld=st.one_of(st.none(), st.integers(1, 3)),
    wilds_never_outnumber_naturals=st.booleans(),
    layoff_same_turn=st.booleans(),
    layoff_without_drawing=st.booleans(),
    joker_swap=st.booleans(),
)
VALUES = st.fixed_dictionaries({code: st.integers(0, 50) for code in RANK_CODES.values()})
SCORING = st.builds(
    ScoringRules,
    values=st.one_of(st.just(ScoringRules().values), VALUES),
    cut_bonus=st.sampled_from([0, 25, 50]),
    adjustments=st.booleans(),
    tiebreak=st.sampled_from(TiebreakPolicy),
)
ROUND_CAPS = st.lists(st.one_of(st.none(), st.integers(0, 4)), min_size=7, max_size=7)


@st.composite
def house_rules(draw: st.DrawFn) -> RuleSet:
    """A playable house rule set built on May I?, any setting changed."""
    caps = draw(ROUND_CAPS)
    pairs = zip(STANDARD_ROUNDS, caps, strict=True)
    rounds = tuple(replace(spec, buy_cap=cap) for spec, cap in pairs)
    fewest = draw(st.integers(2, 4))
    most = draw(st.integers(max(fewest, 3), 8))
    rules = MAY_I.with_changes(
        min_players=fewest,
        max_players=most,
        recommended_min_players=draw(st.integers(fewest, max(fewest, 3))),
        key="house",
        name="House",
        rounds=rounds,
        buys=draw(BUY_SETTINGS),
        melds=draw(MELD_SETTINGS),
        scoring=draw(SCORING),
        reshuffle=draw(st.sampled_from(ReshufflePolicy)),
        shuffle_on_reform=draw(st.booleans()),
        first_dealer=draw(st.sampled_from(FirstDealer)),
        deal_passes=draw(st.sampled_from(DealPasses)),
        buy_call=draw(st.sampled_from(["May I?", "Mine!"])),
    )
    assume(not validate_ruleset(rules))
    return rules


def expected_phrases(rules: RuleSet) -> list[str]:
    """What the card must say for each setting that differs from the standard."""
    melds, buys, scoring = rules.melds, rules.buys, rules.scoring
    phrases = [f"{rules.min_players} to {rules.max_players} players."]
    if rules.recommended_min_players > rules.min_players:
        phrases.append(f"Best with {rules.recommended_min_players} or more")
    phrases += _meld_phrases(melds, rules.plays_jokers())
    if scoring.cut_bonus:
        phrases.append(f"scores −{scoring.cut_bonus} for that round")
    if scoring.adjustments:
        phrases.append("may be adjusted")
    phrases.append(
        {
            TiebreakPolicy.SHARED: "share the win",
            TiebreakPolicy.PLAYOFF: "Tied players play a tiebreaker round: 2 runs, 10 cards.",
            TiebreakPolicy.ROUNDS_OUT_THEN_PLAYOFF: "whoever went out in more rounds",
        }[scoring.tiebreak]
    )
    phrases.append("every time" if rules.reshuffle is ReshufflePolicy.ALWAYS else "second time")
    if not rules.shuffle_on_reform:
        phrases.append("without shuffling")
    phrases.append(
        {
            FirstDealer.HIGH_CARD: "highest card",
            FirstDealer.LOW_CARD: "lowest card",
            FirstDealer.RANDOM: "by chance",
        }[rules.first_dealer]
    )
    passes = "clockwise" if rules.deal_passes is DealPasses.LEFT else "went out last round"
    phrases.append(passes)
    phrases.append(f"“{rules.buy_call}”: buying out of turn")
    caps = [rules.buy_cap(number) for number in range(1, len(rules.rounds) + 1)]
    if buys.cap_per_game == 0 or all(cap == 0 for cap in caps):
        return [*phrases, "No buying out of turn."]
    return phrases + _buy_phrases(rules)


def _meld_phrases(melds: MeldRules, jokers: bool) -> list[str]:
    """The meld settings that differ from May I?'s (`jokers`: whether any table plays some)."""
    phrases = [
        {AceRule.LOW: "low only", AceRule.HIGH_OR_LOW: "low or high", AceRule.AROUND: "corner"}[
            melds.aces
        ]
    ]
    phrases.append("Jokers are wild" if jokers else "There are no jokers.")
    wilds = jokers or melds.wild_twos
    for setting, phrase in (
        (melds.wild_twos, "Every 2 is wild"),
        (melds.exact_laydown, "Lay down exactly the contract"),
        (not melds.abutting_runs, "may not simply continue"),
        (wilds and melds.wilds_never_outnumber_naturals, "never outnumber"),
        (melds.layoff_without_drawing, "on any turn, without drawing"),
        (not melds.layoff_same_turn and not melds.layoff_without_drawing, "turn after"),
        (jokers and melds.joker_swap, "swapped for the real card"),
        (
            wilds and melds.max_wilds_per_meld is not None,
            f"At most {melds.max_wilds_per_meld} wild card",
        ),
    ):
        if setting:
            phrases.append(phrase)
    return phrases


def _buy_phrases(rules: RuleSet) -> list[str]:
    """The buy settings: caps per round, per game, per round of play, penalty, precedence."""
    buys = rules.buys
    phrases = [
        f"takes {buys.penalty_cards} penalty card" if buys.penalty_cards else "no penalty card",
        "counts as a buy" if buys.turn_player_call_is_buy else "their draw, not a buy",
    ]
    if buys.no_twice_in_a_row:
        phrases.append("twice in a row")
    if buys.no_buy_after_contract_down:
        phrases.append("once their contract is down")
    if buys.cap_per_game is not None:
        phrases.append(f"At most {buys.cap_per_game} buy")
    for number, spec in enumerate(rules.rounds, start=1):
        if spec.buy_cap == 0:
            phrases.append(f"Round {number}: no buying.")
        elif spec.buy_cap is not None:
            phrases.append(f"Round {number}: at most {spec.buy_cap} buy")
    uses_default = any(spec.buy_cap is None for spec in rules.rounds)
    if uses_default and buys.cap_per_round is not None and buys.cap_per_round > 0:
        phrases.append(f"At most {buys.cap_per_round} buy")
    return phrases


@settings(max_examples=200, deadline=None)
@given(house_rules())
def test_the_card_mentions_every_setting_of_a_house_rule_set(rules: RuleSet) -> None:
    text = card_text(rules)
    for phrase in expected_phrases(rules):
        assert phrase in text
    if "not limited" in text:
        assert rules.buys.cap_per_game is None
        assert all(rules.buy_cap(n) is None for n in range(1, len(rules.rounds) + 1))


def stated_values(lines: list[Message]) -> dict[str, int]:
    """Read the card's value sentences back into a value table."""
    words = {"Joker": ["JK"], "Ace": ["A"], "King": ["K"], "Queen": ["Q"], "Jack": ["J"]}
    words["King, queen and jack"] = ["K", "Q", "J"]
    values: dict[str, int] = {}
    for line in lines:
        head = line.template.split(":")[0]
        if "low" in line.params:
            low, high = line.params["low"], line.params["high"]
            codes = [Rank(n).code for n in range(low, high + 1)]
        elif "rank" in line.params:
            codes = [line.params["rank"].code]
        else:
            codes = words[head]
        points = line.params.get("points")
        for code in codes:
            values[code] = points.count if points is not None else int(code)
    return values


@settings(max_examples=200, deadline=None)
@given(house_rules())
def test_the_card_states_every_card_value(rules: RuleSet) -> None:
    expected = dict(rules.scoring.values)
    if not rules.plays_jokers():
        del expected["JK"]
    assert stated_values(value_lines(rules)) == expected


@settings(max_examples=200, deadline=None)
@given(house_rules())
def test_every_house_rule_set_survives_the_json_round_trip(rules: RuleSet) -> None:
    assert ruleset_from_json(ruleset_to_json(rules)) == rules


@pytest.mark.parametrize("preset", PRESETS.values(), ids=list(PRESETS))
def test_every_preset_states_its_card_values(preset: RuleSet) -> None:
    expected = dict(preset.scoring.values)
    if not preset.plays_jokers():
        del expected["JK"]
    assert stated_values(value_lines(preset)) == expected


def test_a_pip_at_face_value_is_not_told_with_a_neighbour_of_the_same_value() -> None:
    values = {**ScoringRules().values, "7": 6}
    rules = MAY_I.with_changes(scoring=ScoringRules(values=values))
    assert stated_values(value_lines(rules)) == values
    assert "7: 6 points." in card_text(rules)


@pytest.mark.parametrize(
    ("base", "per", "said"),
    [
        (-1, 1, "one joker fewer than players"),
        (0, 1, "1 joker per player, plus 0"),
        (2, 1, "1 joker per player, plus 2"),
        (-2, 2, "2 jokers per player, less 2"),
        (4, 0, "4 jokers"),
    ],
)
def test_jokers_by_player_count_are_told(base: int, per: int, said: str) -> None:
    decks = (
        DeckRule(min_players=2, max_players=8, decks=3, jokers_base=base, jokers_per_player=per),
    )
    assert f"2 to 8 players: 3 decks and {said}." in card_text(MAY_I.with_changes(decks=decks))
