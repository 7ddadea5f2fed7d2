"""The presets hold what docs/RULES.md 8 decides for each named variant."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.rules.deal import contract_message
from scorekeeper.rules.messages import VERBATIM
from scorekeeper.rules.presets import (
    CONTRACT_RUMMY_PROPER,
    HOUSE_KEY,
    MAY_I,
    SHANGHAI,
    STANDARD_ROUNDS,
    own_identity,
    preset_of,
)
from scorekeeper.rules.rules_card import summary
from scorekeeper.rules.sheet_words import buy_call, set_name
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


def test_a_custom_set_under_a_presets_key_is_the_tables_own() -> None:
    six = replace(MAY_I, rounds=MAY_I.rounds[:6])
    assert own_identity(six).key == HOUSE_KEY and preset_of(six) is None
    assert own_identity(MAY_I) is MAY_I and preset_of(MAY_I) is MAY_I
    assert own_identity(replace(six, key="ours")).key == "ours"
    assert summary(six) is None and summary(MAY_I) is not None


@pytest.mark.parametrize("typed", ["%(x)s", "100%", "<b>Ours</b>", "May I?!"])
def test_a_tables_own_words_are_a_parameter_never_a_template(typed: str) -> None:
    rules = replace(MAY_I, key=HOUSE_KEY, name=typed, buy_call=typed)
    for message in (set_name(rules), buy_call(rules)):
        assert message.template == VERBATIM and message.params == {"text": typed}
        assert message.render() == typed


def test_our_own_words_stay_translatable() -> None:
    assert set_name(MAY_I).template == "May I?" and buy_call(MAY_I).template == "May I?"
    assert set_name(replace(MAY_I, key=HOUSE_KEY)).template == VERBATIM
