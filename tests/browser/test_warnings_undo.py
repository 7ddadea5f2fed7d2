"""A warning before saving, and an undo that says what it took back (issue 21.6 and 21.7)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_full_game import hand, start_game
from tests.browser.test_trust import open_round_form, went_out

pytestmark = pytest.mark.browser


def test_a_warning_stands_at_its_field_and_save_anyway_saves(page: Page) -> None:
    start_game(page)
    open_round_form(page)
    went_out(page, "Anna")
    hand(page, "Ben").get_by_label("Points").fill("0")
    hand(page, "Carla").get_by_label("Points").fill("30")
    hand(page, "Dan").get_by_label("Points").fill("40")
    page.get_by_role("button", name="Save the round").click()
    ben = hand(page, "Ben").get_by_label("Points")
    # not saved: the warning names Ben at his field, which describes it and has the focus
    expect(ben).to_have_accessible_description(
        "Ben: 0 points, but Ben did not go out. Check the hand."
    )
    expect(ben).to_be_focused()
    expect(hand(page, "Carla").get_by_label("Points")).to_have_value("30")
    expect(page.get_by_role("heading", level=1)).to_have_text("End of round 1")
    page.get_by_role("button", name="Save anyway").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    expect(page.get_by_text("did not go out")).to_have_count(0)
    page.get_by_role("link", name="Score sheet").click()
    expect(page.locator("tbody tr").first.locator(".score")).to_have_text(["0", "0", "30", "40"])


def test_undo_of_a_saved_round_brings_back_its_form_as_entered(page: Page) -> None:
    start_game(page)
    open_round_form(page)
    went_out(page, "Anna")
    hand(page, "Ben").get_by_label("Points").fill("25")
    carla = hand(page, "Carla")
    carla.get_by_text("Tap the cards").click()
    carla.get_by_role("button", name="K", exact=True).click()
    carla.get_by_role("button", name="Q", exact=True).click()
    expect(carla.get_by_test_id("tally-2")).to_have_text("20")
    hand(page, "Dan").get_by_label("Points").fill("40")
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    page.get_by_role("button", name="Undo last change").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("End of round 1")
    expect(page.get_by_role("status").filter(has_text="Undone")).to_have_text(
        "Undone: Round 1 saved (Anna went out, Ben 25, Carla 20, and Dan 40)"
    )
    form = page.get_by_role("group", name="Who went out?")
    expect(form.get_by_label("Anna", exact=True)).to_be_checked()
    expect(hand(page, "Ben").get_by_label("Points")).to_have_value("25")
    expect(hand(page, "Dan").get_by_label("Points")).to_have_value("40")
    expect(carla.get_by_test_id("tally-2")).to_have_text("20")
    # fix one number and save again
    hand(page, "Ben").get_by_label("Points").fill("30")
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    page.get_by_role("link", name="Score sheet").click()
    expect(page.locator("tbody tr").first.locator(".score")).to_have_text(["0", "30", "20", "40"])
