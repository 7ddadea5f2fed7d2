"""A family's record in the browser: two games at one table, a typo merged, stats, chart, print.

The printed sheet is checked as Chromium prints it (`page.pdf`): one page, no buttons.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_full_game import enter_hands, save_round
from tests.browser.test_house_rules import change

pytestmark = pytest.mark.browser

FOUR = ["Anna", "Ben", "Carla", "Dan"]
EIGHT = ["Anna", "Ben", "Carla", "Dan", "Eve", "Finn", "Gina", "Hugo"]


def open_table(page: Page, name: str) -> None:
    """Open a table from the home page."""
    page.goto("/")
    page.get_by_role("link", name="Open a table for your group").click()
    page.get_by_label("Name of the table").fill(name)
    page.get_by_role("button", name="Open the table").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)


def start_at_table(page: Page, players: list[str], ruleset: str = "May I?") -> None:
    """Start a game from the table's page."""
    page.get_by_role("link", name="Start a game at this table").click()
    page.get_by_label("Rule set").select_option(label=ruleset)
    for seat, name in enumerate(players, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("First dealer").select_option(label="Seat 1")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 1 of")


def play_rounds(page: Page, players: list[str], rounds: int) -> None:
    """End each round with the next player going out and everyone else on 5 × their seat."""
    for number in range(1, rounds + 1):
        out = players[number % len(players)]
        page.get_by_role("link", name="End of round: enter the hands").click()
        hands: dict[str, int | list[str]] = {
            name: 5 * (seat + 1) for seat, name in enumerate(players) if name != out
        }
        enter_hands(page, out, hands)
        last = number == rounds
        save_round(page, "Final standings" if last else f"Round {number + 1} of {rounds}")


def back_to_table(page: Page, table_url: str) -> None:
    """Return to the table's page through its link."""
    page.goto(table_url)
    expect(page.locator("#record")).to_be_visible()


def printed_pages(page: Page) -> int:
    """How many pages Chromium prints the current page on (A4)."""
    pdf = page.pdf(format="A4")
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


def test_two_games_a_merged_typo_stats_chart_and_one_printed_page(
    page: Page, artifacts: Path
) -> None:
    open_table(page, "Thursday club")
    table_url = page.url
    start_at_table(page, FOUR)
    play_rounds(page, FOUR, 7)
    expect(page.locator("#running-chart polyline")).to_have_count(4)
    back_to_table(page, table_url)
    start_at_table(page, ["Anne", "Ben"])
    back_to_table(page, table_url)

    expect(page.locator("#people")).to_contain_text("Anna and Anne: the same person?")
    page.get_by_role("link", name="Merge Anne into Anna").click()
    expect(page.locator("#merge")).to_contain_text("Anne's 1 game will count as Anna's.")
    page.get_by_role("button", name="Merge Anne into Anna").click()
    expect(page.locator("#people")).to_contain_text("Anne counts as Anna")
    anna = page.locator("#record tbody tr").filter(has=page.get_by_role("link", name="Anna"))
    expect(anna.locator("td").first).to_have_text("1")
    page.screenshot(path=artifacts / "table-390.png", full_page=True)

    page.get_by_role("link", name="Anna", exact=True).click()
    expect(page.locator("#totals-chart svg")).to_be_visible()
    expect(page.locator("#totals-chart table")).to_contain_text("Total")
    page.screenshot(path=artifacts / "person-390.png", full_page=True)

    back_to_table(page, table_url)
    page.locator("#table-games a").filter(has_text="Anna, Ben, Carla, Dan").click()
    page.get_by_role("link", name="Print").click()
    page.emulate_media(media="print")
    expect(page.locator("#sheet")).to_be_visible()
    # a round's number stays on paper, its ✎ that corrects it not
    assert page.locator("button:visible, .button:visible, .edit-link .pen:visible").count() == 0
    assert page.locator("#sheet tbody th").first.inner_text().strip() == "1"
    assert page.locator("header:visible").count() == 0
    assert printed_pages(page) == 1
    page.screenshot(path=artifacts / "print-sheet.png", full_page=True)


def test_eight_players_and_nine_rounds_print_on_one_page(page: Page, artifacts: Path) -> None:
    open_table(page, "Big family")
    start_at_table(page, EIGHT, ruleset="Nine-round marathon")
    play_rounds(page, EIGHT, 9)
    page.get_by_role("link", name="Print").click()
    page.emulate_media(media="print")
    assert page.locator("button:visible").count() == 0
    assert printed_pages(page) == 1
    page.pdf(path=artifacts / "eight-by-nine.pdf", format="A4")
    letter = page.pdf(format="Letter")
    assert len(re.findall(rb"/Type\s*/Page\b", letter)) == 1


def test_the_record_filters_by_a_house_set_the_table_played(page: Page) -> None:
    page.goto("/house-rules/new?from=may-i")
    change(page, "Name of these house rules", "At Oma's")
    page.get_by_role("button", name="Save these house rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("House rules")
    open_table(page, "Thursday club")
    table_url = page.url
    start_at_table(page, ["Anna", "Ben"], ruleset="At Oma's")
    play_rounds(page, ["Anna", "Ben"], 7)
    back_to_table(page, table_url)
    start_at_table(page, ["Carla", "Dan"])
    play_rounds(page, ["Carla", "Dan"], 7)
    back_to_table(page, table_url)
    record = page.locator("#record")
    record.get_by_label("Rule set").select_option(label="At Oma's")
    record.get_by_role("button", name="Show").click()
    expect(record.get_by_label("Rule set")).to_have_value("house:At Oma's")
    for name, played in (("Anna", "1"), ("Ben", "1"), ("Carla", "0"), ("Dan", "0")):
        row = page.locator("#record tbody tr").filter(has=page.get_by_role("link", name=name))
        expect(row.locator("td").first).to_have_text(played)
