"""The presets hold what docs/RULES.md 8 decides for each named variant."""

from __future__ import annotations

from scorekeeper.rules.presets import CONTRACT_RUMMY_PROPER, SHANGHAI, STANDARD_ROUNDS
from scorekeeper.rules.rules_card import summary
from scorekeeper.rules.table import contract_message
from scorekeeper.rules.validation import validate_ruleset


def test_shanghai_plays_the_ten_common_deals_of_eleven_cards() -> None:
    contracts = [contract_message(spec.contract).render() for spec in SHANGHAI.rounds]
    assert contracts == [
        "2 books",
        "1 book + 1 run",
        "2 runs",
        "3 books",
        "1 book + 1 run of 7",
        "2 books + 1 run of 5",
        "3 runs",
        "1 book + 1 run of 10",
        "3 books + 1 run of 5",
        "3 runs of 5",
    ]
    assert {spec.deal for spec in SHANGHAI.rounds} == {11}
    assert SHANGHAI.buys.cap_per_round == 2


def test_contract_rummy_proper_buys_openly_over_the_standard_rounds() -> None:
    assert CONTRACT_RUMMY_PROPER.rounds == STANDARD_ROUNDS
    assert CONTRACT_RUMMY_PROPER.buys.cap_per_round is None
    assert CONTRACT_RUMMY_PROPER.buys.cap_per_game is None
    assert not CONTRACT_RUMMY_PROPER.buys.no_twice_in_a_row
    assert validate_ruleset(CONTRACT_RUMMY_PROPER) == {}


def test_contract_rummy_proper_tells_the_table_to_enter_its_card_values() -> None:
    message = summary(CONTRACT_RUMMY_PROPER)
    assert message is not None
    assert "enter your table's card values in the editor" in message.render()
