"""The blank sheet prints on one page: 8 players × 12 rounds, on A4 and on Letter."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.pages.ruleset_form import encode
from scorekeeper.rules.bounds import MAX_ROUNDS
from scorekeeper.rules.presets import PRESETS
from scorekeeper.rules.ruleset import BuyRules, Contract
from scorekeeper.rules.ruleset_json import ruleset_to_dict

pytestmark = pytest.mark.browser


def pages_in(pdf: bytes) -> int:
    """The number of pages a PDF holds: its page objects, not the page tree."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def longest_sheet() -> str:
    """The widest sheet a set may ask for: the most rounds, long contracts, ten buys a round."""
    may_i = PRESETS["may-i"]
    spec = replace(may_i.rounds[-1], deal=14, contract=Contract(books=2, runs=2, run_length=7))
    rules = replace(
        may_i,
        name="Bartholomeus' endless evening",
        rounds=(spec,) * MAX_ROUNDS,
        buys=BuyRules(cap_per_round=10),
    )
    return encode(ruleset_to_dict(rules))


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_eight_players_and_twelve_rounds_fit_one_page(
    page: Page, live_server: str, artifacts: Path, paper: str
) -> None:
    page.goto(f"{live_server}/rules/sheet?r={longest_sheet()}&players=8")
    expect(page.locator(".player-rows tr")).to_have_count(8)
    expect(page.locator(".paper-sheet thead th")).to_have_count(MAX_ROUNDS + 2)
    pdf = page.pdf(format=paper, prefer_css_page_size=False, landscape=True, print_background=True)
    (artifacts / f"blank-sheet-{paper}.pdf").write_bytes(pdf)
    assert pages_in(pdf) == 1


def test_the_print_button_asks_the_browser_to_print(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/rules/may-i/sheet?players=6")
    page.evaluate("window.print = () => { document.body.dataset.printed = 'yes'; }")
    page.get_by_role("button", name="Print").click()
    expect(page.locator("body")).to_have_attribute("data-printed", "yes")
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
