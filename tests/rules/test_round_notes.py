"""The round screen's reminders come from the rule set, round by round (docs/RULES.md 3-9)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.rules.deal import deal_for
from scorekeeper.rules.presets import CONTRACT_RUMMY, LIVERPOOL, MAY_I, NO_JOKERS
from scorekeeper.rules.round_notes import exact_cut, round_notes
from scorekeeper.rules.ruleset import BuyRules, MeldRules, RuleSet, ScoringRules

FIVE_A_GAME = MAY_I.with_changes(buys=BuyRules(cap_per_round=None, cap_per_game=5))
NOT_ONCE_DOWN = MAY_I.with_changes(buys=BuyRules(no_buy_after_contract_down=True))
WILD_TWOS = MAY_I.with_changes(
    melds=MeldRules(wild_twos=True, max_wilds_per_meld=1),
    scoring=ScoringRules(values={**ScoringRules().values, "2": 20}),
)


def notes(rules: RuleSet, round_number: int, players: int = 4) -> list[str]:
    """The reminders of one round, in English."""
    setup = deal_for(rules, players, round_number, 0)
    return [note.render() for note in round_notes(rules, setup, players)]


@pytest.mark.parametrize(
    ("rules", "number", "note"),
    [
        (MAY_I, 7, "No final discard: go out by melding every card."),
        (MAY_I, 1, "Stock runs out: shuffle the discards once; the second time the round ends."),
        (
            MAY_I.with_changes(shuffle_on_reform=False),
            1,
            "Stock runs out: turn the discards over, unshuffled, once; the second time the "
            "round ends.",
        ),
        (CONTRACT_RUMMY, 1, "Stock runs out: shuffle the discards into a new stock every time."),
        (CONTRACT_RUMMY, 6, "Lay down exactly the contract: 1 book of 3 + 2 runs of 4, no longer."),
        (CONTRACT_RUMMY, 6, "Runs of one suit may not continue each other."),
        (FIVE_A_GAME, 1, "At most 5 buys per game."),
        (NOT_ONCE_DOWN, 1, "Nobody may buy once their contract is down."),
        (replace(MAY_I, rounds=(replace(MAY_I.rounds[0], buy_cap=0),)), 1, "No buying this round."),
        (WILD_TWOS, 1, "2s are wild; a 2 left in hand counts 20."),
        (WILD_TWOS, 1, "At most 1 wild card in one meld."),
        (NO_JOKERS, 1, "There are no jokers."),
        (LIVERPOOL, 1, "An exact cut is 41 cards (4 × 10 + 1): −50."),
        (LIVERPOOL, 5, "An exact cut is 49 cards (4 × 12 + 1): −50."),
    ],
)
def test_a_round_reminds_the_table_of_its_rules(rules: RuleSet, number: int, note: str) -> None:
    assert note in notes(rules, number)


def test_the_sheets_round_seven_says_the_exact_length_is_lifted_instead() -> None:
    seventh = notes(CONTRACT_RUMMY, 7)
    assert any(note.startswith("Round 7: all 13 cards go down at once") for note in seventh)
    assert not any(note.startswith("Lay down exactly") for note in seventh)


def test_plain_may_i_has_no_buy_or_wild_reminders() -> None:
    assert notes(MAY_I, 1) == [
        "Stock runs out: shuffle the discards once; the second time the round ends."
    ]


@pytest.mark.parametrize(("players", "deal", "cards"), [(4, 10, 41), (3, 12, 37), (8, 12, 97)])
def test_an_exact_cut_is_the_deal_for_everyone_plus_the_up_card(
    players: int, deal: int, cards: int
) -> None:
    assert exact_cut(players, deal) == cards
