"""The round said in one line, on a phone: Enter fills in the form, and only Save saves."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE
from tests.browser.test_full_game import PLAYERS, start_game

pytestmark = pytest.mark.browser

FIVE = ["Bartholomeus", "Concepción", "Marie-Claire", "Oma", "Jo"]
SMALL_PHONE = {"width": 320, "height": 640}
# The box's height in lines of its own text, and whether its text fits without scrolling it.
LINES = """(box) => {
  const style = getComputedStyle(box);
  return [box.clientHeight / parseFloat(style.lineHeight), box.scrollHeight <= box.clientHeight];
}"""


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


def start_five(page: Page) -> None:
    """A game of five with long names, at its end-of-round form."""
    page.goto("/")
    page.get_by_role("link", name="Start a game").click()
    for seat, name in enumerate(FIVE, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="End of round: enter the hands").click()


@pytest.mark.parametrize(
    ("viewport", "text"), [(PHONE, "100%"), (SMALL_PHONE, "200%")], ids=["390px", "320px-200%"]
)
def test_a_dictated_round_is_read_back_and_each_hand_shows_its_words(
    page: Page, viewport: dict[str, int], text: str
) -> None:
    page.set_viewport_size(viewport)
    start_five(page)
    page.evaluate(f"document.documentElement.style.fontSize = '{text}'")
    said = page.get_by_label("The round in one line")
    dictated = "Bartholomeus is out. Concepción has 35 points, Oma twelve, Jo 40"
    said.fill(dictated)
    lines, fits = said.evaluate(LINES)
    assert lines >= 3, f"the box is {lines:.1f} lines tall"
    assert fits, "the dictated round does not fit its box: it cannot be read back"
    said.press("Enter")
    expect(page.get_by_role("alert").filter(has_text="Nothing for Marie-Claire.")).to_be_visible()
    page.evaluate(f"document.documentElement.style.fontSize = '{text}'")
    for seat, words in [(0, "Bartholomeus is out"), (1, "Concepción has 35"), (3, "Oma twelve")]:
        shown = page.get_by_test_id(f"read-from-{seat}")
        expect(shown).to_have_text(f"Read from “{words}”")
        shown.scroll_into_view_if_needed()
        expect(shown).to_be_in_viewport()
    expect(page.get_by_role("group", name="Oma").get_by_label("Points")).to_have_value("12")
    expect(said).to_have_value(dictated)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "scrolls sideways"
    # typing a hand's points makes it no longer what was read
    page.get_by_role("group", name="Oma").get_by_label("Points").fill("13")
    expect(page.get_by_test_id("read-from-3")).to_have_count(0)
