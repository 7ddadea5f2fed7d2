"""The round said in one line, on a phone: Enter fills in the form, and only Save saves."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_full_game import PLAYERS, start_game

pytestmark = pytest.mark.browser


def test_enter_fills_in_the_form_and_saves_nothing(page: Page) -> None:
    start_game(page)
    page.get_by_role("link", name="End of round: enter the hands").click()
    said = page.get_by_label("The round in one line")
    first, second, third, fourth = PLAYERS
    # (a 0 for a player who did not go out would hold the save with a warning: issue 21.6)
    said.fill(f"{first[:2]} out, {second} twelve, {third} 35, {fourth} 8")
    said.press("Enter")
    expect(page.get_by_role("group", name=second).get_by_label("Points")).to_have_value("12")
    expect(page.get_by_role("group", name=third).get_by_label("Points")).to_have_value("35")
    expect(page.get_by_role("radio", name=first)).to_be_checked()
    expect(page.get_by_role("heading", level=1)).to_contain_text("End of round 1")  # not saved
    page.get_by_role("button", name="Save the round").last.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
