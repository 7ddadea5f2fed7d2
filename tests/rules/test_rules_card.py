"""The rules card: every preset told in sentences."""

from __future__ import annotations

import pytest

from scorekeeper.rules.presets import MAY_I, PRESETS, UNLIMITED_BUYS
from scorekeeper.rules.rules_card import rules_card, summary
from scorekeeper.rules.ruleset import RuleSet


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
