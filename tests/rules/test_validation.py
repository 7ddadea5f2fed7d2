"""Checking a rule set before play: a message per field (RULES.md section 9)."""

from dataclasses import replace

import pytest

from scorekeeper.rules.errors import RuleSetInvalid
from scorekeeper.rules.messages import Message
from scorekeeper.rules.presets import (
    CONTRACT_RUMMY,
    MAY_I,
    NO_BUYS,
    NO_JOKERS,
    PRESETS,
    SHANGHAI,
    STANDARD_ROUNDS,
)
from scorekeeper.rules.ruleset import Contract, DeckRule, RoundSpec, RuleSet, ScoringRules
from scorekeeper.rules.validation import check_ruleset, validate_ruleset

VALUES = ScoringRules().values


def with_round(rules: RuleSet, index: int, **changes: object) -> RuleSet:
    """The rule set with one round changed."""
    rounds = list(rules.rounds)
    rounds[index] = replace(rounds[index], **changes)  # type: ignore[arg-type]
    return replace(rules, rounds=tuple(rounds))


def with_contract(rules: RuleSet, index: int, **changes: int) -> RuleSet:
    """The rule set with one round's contract changed."""
    return with_round(rules, index, contract=replace(rules.rounds[index].contract, **changes))


def with_deck(rules: RuleSet, index: int, **changes: int) -> RuleSet:
    """The rule set with one deck rule changed."""
    decks = list(rules.decks)
    decks[index] = replace(decks[index], **changes)
    return replace(rules, decks=tuple(decks))


@pytest.mark.parametrize("rules", PRESETS.values(), ids=PRESETS.keys())
def test_every_preset_passes_validation(rules: RuleSet) -> None:
    assert validate_ruleset(rules) == {}
    check_ruleset(rules)


INVALID = [
    pytest.param(
        with_round(NO_BUYS, 4, deal=8), {"rounds.4.deal"}, id="2 books + 1 run from 8 cards"
    ),
    pytest.param(
        with_round(MAY_I, 4, deal=2), {"rounds.4.deal"}, id="2 books + 1 run from 2 + 3 buys"
    ),
    pytest.param(
        with_round(SHANGHAI, 7, buy_cap=0), {"rounds.7.deal"}, id="Shanghai's run of 10 unbought"
    ),
    pytest.param(with_round(MAY_I, 0, deal=0), {"rounds.0.deal"}, id="no cards dealt"),
    pytest.param(with_round(MAY_I, 6, deal=21), {"rounds.6.deal"}, id="deal overruns 3 decks"),
    pytest.param(
        with_contract(MAY_I, 1, books=0, runs=0), {"rounds.1.contract"}, id="empty contract"
    ),
    pytest.param(
        with_contract(MAY_I, 0, books=-1, runs=1), {"rounds.0.contract.books"}, id="-1 books"
    ),
    pytest.param(
        with_contract(MAY_I, 2, runs=-2, books=1), {"rounds.2.contract.runs"}, id="-2 runs"
    ),
    pytest.param(
        with_contract(MAY_I, 0, book_length=2), {"rounds.0.contract.book_length"}, id="pair"
    ),
    pytest.param(
        with_contract(MAY_I, 2, run_length=2), {"rounds.2.contract.run_length"}, id="run 2"
    ),
    pytest.param(with_round(MAY_I, 3, buy_cap=-1), {"rounds.3.buy_cap"}, id="round cap -1"),
    pytest.param(replace(MAY_I, rounds=()), {"rounds"}, id="no rounds"),
    pytest.param(replace(MAY_I, rounds=STANDARD_ROUNDS[:5]), {"rounds"}, id="5 rounds"),
    pytest.param(replace(MAY_I, rounds=(STANDARD_ROUNDS * 2)[:13]), {"rounds"}, id="13 rounds"),
    pytest.param(replace(MAY_I, rounds=STANDARD_ROUNDS * 3), {"rounds"}, id="21 rounds"),
    pytest.param(replace(MAY_I, min_players=1), {"min_players"}, id="solitaire"),
    pytest.param(
        replace(MAY_I, max_players=9, decks=(*MAY_I.decks, DeckRule(9, 9, 4, 8))),
        {"max_players", "decks.2.min_players", "decks.2.max_players"},
        id="9 players",
    ),
    pytest.param(replace(MAY_I, max_players=12), {"max_players"}, id="12 players"),
    pytest.param(
        replace(MAY_I, min_players=5, max_players=4, recommended_min_players=4),
        {"max_players", "recommended_min_players"},
        id="min above max",
    ),
    pytest.param(
        replace(MAY_I, recommended_min_players=9), {"recommended_min_players"}, id="rec 9"
    ),
    pytest.param(with_deck(MAY_I, 0, decks=0), {"decks.0.decks"}, id="no decks"),
    pytest.param(
        with_deck(MAY_I, 1, min_players=8, max_players=7),
        {"decks.1.max_players", "decks"},
        id="7-8 gap",
    ),
    pytest.param(replace(MAY_I, decks=MAY_I.decks[:1]), {"decks"}, id="no rule for 7-8"),
    pytest.param(with_deck(MAY_I, 0, jokers_base=-3, jokers_per_player=1), {"decks.0.jokers_base"}),
    pytest.param(with_deck(MAY_I, 0, jokers_base=9, jokers_per_player=-2), {"decks.0.jokers_base"}),
    pytest.param(
        replace(MAY_I, scoring=ScoringRules(values={**VALUES, "JK": -15})),
        {"scoring.values.JK"},
        id="negative value",
    ),
    pytest.param(
        replace(MAY_I, scoring=ScoringRules(values={**VALUES, "Z": 5})),
        {"scoring.values.Z"},
        id="unknown rank",
    ),
    pytest.param(
        replace(MAY_I, scoring=ScoringRules(values={k: v for k, v in VALUES.items() if k != "A"})),
        {"scoring.values"},
        id="no ace value",
    ),
    pytest.param(
        replace(
            NO_BUYS, scoring=ScoringRules(tiebreaker_round=RoundSpec(Contract(runs=2), deal=6))
        ),
        {"scoring.tiebreaker_round.deal"},
        id="tiebreaker too short",
    ),
    pytest.param(replace(MAY_I, scoring=ScoringRules(cut_bonus=-50)), {"scoring.cut_bonus"}),
    pytest.param(
        replace(MAY_I, buys=replace(MAY_I.buys, cap_per_round=-1)), {"buys.cap_per_round"}
    ),
    pytest.param(replace(MAY_I, buys=replace(MAY_I.buys, cap_per_game=-5)), {"buys.cap_per_game"}),
    pytest.param(
        replace(MAY_I, buys=replace(MAY_I.buys, penalty_cards=-1)), {"buys.penalty_cards"}
    ),
    pytest.param(
        replace(MAY_I, melds=replace(MAY_I.melds, max_wilds_per_meld=0)),
        {"melds.max_wilds_per_meld"},
    ),
    pytest.param(replace(MAY_I, key=""), {"key"}, id="empty key"),
    pytest.param(replace(MAY_I, key="May I"), {"key"}, id="key with capitals and space"),
    pytest.param(replace(MAY_I, key="may--i"), {"key"}, id="key with double hyphen"),
    pytest.param(replace(MAY_I, key="-may-i"), {"key"}, id="key with leading hyphen"),
    pytest.param(replace(MAY_I, name="  "), {"name"}, id="blank name"),
    pytest.param(replace(MAY_I, buy_call=""), {"buy_call"}, id="blank buy call"),
    pytest.param(
        replace(MAY_I, scoring=ScoringRules(values=dict.fromkeys(VALUES, 0))),
        {"scoring.values"},
        id="every card worth 0",
    ),
]


@pytest.mark.parametrize(("rules", "paths"), INVALID)
def test_an_invalid_rule_set_is_refused_on_exactly_the_bad_fields(
    rules: RuleSet, paths: set[str]
) -> None:
    errors = validate_ruleset(rules)
    assert set(errors) == paths
    assert all(isinstance(m, Message) and m.render() for ms in errors.values() for m in ms)


@pytest.mark.parametrize(("rules", "paths"), INVALID)
def test_check_ruleset_raises_with_the_same_errors(rules: RuleSet, paths: set[str]) -> None:
    with pytest.raises(RuleSetInvalid) as excinfo:
        check_ruleset(rules)
    assert excinfo.value.errors == validate_ruleset(rules)
    assert excinfo.value.field in paths


VALID_EDGES = [
    pytest.param(with_round(MAY_I, 4, deal=9), id="deal plus one draw just makes 10"),
    pytest.param(with_round(MAY_I, 4, deal=3), id="deal, one draw and 3 buys of 2 make 10"),
    pytest.param(SHANGHAI, id="Shanghai's run of 10 and 3 runs of 5 need buys"),
    pytest.param(with_round(MAY_I, 6, deal=17), id="6 players x 17 + up-card = 103 of 108"),
    pytest.param(
        replace(CONTRACT_RUMMY, rounds=(RoundSpec(Contract(runs=2), deal=20),) * 6),
        id="8 players x 20 + up-card = 161 of 163",
    ),
    pytest.param(replace(MAY_I, rounds=STANDARD_ROUNDS[:6]), id="six rounds"),
    pytest.param(replace(MAY_I, rounds=(STANDARD_ROUNDS * 2)[:12]), id="twelve rounds"),
    pytest.param(with_contract(MAY_I, 2, run_length=3), id="runs of 3"),
    pytest.param(with_round(MAY_I, 3, contract=Contract(books=4), deal=11), id="4 books from 11+1"),
    pytest.param(with_round(MAY_I, 0, buy_cap=0), id="no buys in round 1"),
    pytest.param(replace(MAY_I, buys=replace(MAY_I.buys, cap_per_round=0, cap_per_game=0))),
    pytest.param(replace(MAY_I, buys=replace(MAY_I.buys, penalty_cards=0))),
    pytest.param(replace(MAY_I, melds=replace(MAY_I.melds, max_wilds_per_meld=1))),
    pytest.param(replace(MAY_I, min_players=2, max_players=2, recommended_min_players=2)),
    pytest.param(replace(MAY_I, key="x"), id="one-letter key"),
    pytest.param(replace(MAY_I, key="may-i-2"), id="key with digits"),
]


@pytest.mark.parametrize("rules", VALID_EDGES)
def test_a_rule_set_at_the_edge_of_the_limits_is_accepted(rules: RuleSet) -> None:
    assert validate_ruleset(rules) == {}


@pytest.mark.parametrize("count", [5, 13])
def test_a_round_count_outside_6_to_12_names_both_bounds(count: int) -> None:
    rules = replace(MAY_I, rounds=(STANDARD_ROUNDS * 2)[:count])
    [message] = validate_ruleset(rules)["rounds"]
    assert message.params == {"low": 6, "high": 12}
    assert message.render() == "Play 6 to 12 rounds."


@pytest.mark.parametrize("count", [1, 3, 5, 13, 20])
def test_a_stored_copy_keeps_the_round_count_allowed_when_it_was_made(count: int) -> None:
    rules = replace(MAY_I, rounds=(STANDARD_ROUNDS * 3)[:count])
    assert validate_ruleset(rules, stored=True) == {}
    check_ruleset(rules, stored=True)


@pytest.mark.parametrize("count", [0, 21])
def test_a_stored_copy_outside_1_to_20_rounds_is_still_refused(count: int) -> None:
    rules = replace(MAY_I, rounds=(STANDARD_ROUNDS * 3)[:count])
    [message] = validate_ruleset(rules, stored=True)["rounds"]
    assert message.render() == "Play 1 to 20 rounds."


def test_two_problems_at_once_are_both_reported() -> None:
    rules = replace(
        with_round(NO_BUYS, 4, deal=8), scoring=ScoringRules(values={**VALUES, "K": -10})
    )
    assert set(validate_ruleset(rules)) == {"rounds.4.deal", "scoring.values.K"}


def test_every_round_with_a_problem_is_reported() -> None:
    rules = replace(MAY_I, rounds=tuple(replace(spec, deal=0) for spec in STANDARD_ROUNDS))
    assert set(validate_ruleset(rules)) == {f"rounds.{i}.deal" for i in range(7)}


def test_a_short_deal_says_how_many_cards_the_contract_needs() -> None:
    [message] = validate_ruleset(with_round(NO_BUYS, 4, deal=8))["rounds.4.deal"]
    assert message.params == {"deal": 8, "needed": 10}
    assert message.render() == "8 cards plus one draw cannot make a contract of 10 cards."


def test_a_short_deal_counts_what_the_rounds_buys_can_add() -> None:
    [message] = validate_ruleset(with_round(MAY_I, 4, deal=2))["rounds.4.deal"]
    assert message.render() == (
        "2 cards, one draw and 6 cards from buys cannot make a contract of 10 cards."
    )


def test_a_cap_per_game_limits_what_buys_can_add() -> None:
    rules = replace(SHANGHAI, buys=replace(SHANGHAI.buys, cap_per_game=0))
    assert {"rounds.7.deal", "rounds.9.deal"} <= set(validate_ruleset(rules))


def test_an_overrunning_deal_names_the_table_and_the_cards_available() -> None:
    # Jokers that are not wild are taken out: 3 decks hold 156 cards, not 162.
    [message] = validate_ruleset(with_round(NO_JOKERS, 6, deal=20))["rounds.6.deal"]
    assert message.render() == (
        "8 players dealt 20 cards need 161 cards with the up-card, "
        "but 3 decks and 0 jokers hold 156."
    )


def test_a_deal_must_fit_the_smaller_deck_choice_too() -> None:
    # The sheet lets 6-8 players choose three or four decks: three must suffice.
    tame = replace(CONTRACT_RUMMY, melds=replace(CONTRACT_RUMMY.melds, jokers_wild=False))
    [message] = validate_ruleset(with_round(tame, 0, deal=20))["rounds.0.deal"]
    assert message.params["decks"] == 3
    assert message.params["available"] == 3 * 52


def test_a_deal_that_fits_eight_players_may_still_overrun_six_on_two_decks() -> None:
    [message] = validate_ruleset(with_round(MAY_I, 6, deal=18))["rounds.6.deal"]
    assert (message.params["players"], message.params["available"]) == (6, 108)


def test_missing_card_values_are_named() -> None:
    values = {k: v for k, v in VALUES.items() if k not in ("JK", "Q")}
    [message] = validate_ruleset(replace(MAY_I, scoring=ScoringRules(values=values)))[
        "scoring.values"
    ]
    assert message.render() == "No value for JK and Q."


def test_uncovered_player_counts_are_named() -> None:
    rules = replace(MAY_I, decks=(DeckRule(2, 4, 2, 4), DeckRule(7, 8, 3, 6)))
    [message] = validate_ruleset(rules)["decks"]
    assert message.render() == "No deck rule for 5 and 6 players."


@pytest.mark.parametrize("minimum", [1, 2])
def test_a_tiny_deck_rule_does_not_hide_the_rounds_it_cannot_deal(minimum: int) -> None:
    rules = replace(MAY_I, min_players=minimum, decks=(DeckRule(1, 8, 1, 0),))
    errors = validate_ruleset(rules)
    assert "rounds.4.deal" in errors
    assert ("min_players" in errors) is (minimum < 2)
