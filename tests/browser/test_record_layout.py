"""A table's record and a person's page on a phone, at 390 and 320 px (issue 20.10).

Before: the record's wide table hid its right-hand columns with no hint, its empty state sat
in a right-aligned cell far off-screen, and head to head on a person's page ran past the
screen's edge.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_record import open_table, play_rounds, start_at_table

pytestmark = pytest.mark.browser

LONG_NAMES = ["Anneliese", "Bartholomeus", "Concepción", "Maximiliane"]
WIDTHS = (390, 320)
# Elements past the right edge of the screen, but for those inside a region that scrolls
# sideways by itself (and says so) or hidden for screen readers only.
PAST_THE_EDGE = """() => [...document.querySelectorAll('body *')]
  .filter(e => !e.closest('.visually-hidden, .table-scroll.edged'))
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .map(e => `${e.tagName}#${e.id}.${e.className}`)"""


def fits(page: Page) -> None:
    """Nothing scrolls the page sideways and nothing sticks out past its edge."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(PAST_THE_EDGE) == []


def test_an_empty_record_says_so_where_it_can_be_read(page: Page, artifacts: Path) -> None:
    open_table(page, "New club")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        empty = page.locator("#record-empty")
        expect(empty).to_have_text("No one has played at this table yet.")
        expect(empty).to_be_in_viewport()
        box = empty.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        fits(page)
        page.screenshot(path=artifacts / f"record-empty-{width}.png", full_page=True)


def test_the_wide_record_says_it_scrolls_and_the_person_page_fits(
    page: Page, artifacts: Path
) -> None:
    open_table(page, "Thursday club")
    table_url = page.url
    start_at_table(page, LONG_NAMES)
    play_rounds(page, LONG_NAMES, 7)
    page.goto(table_url)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        hint = page.locator("#record-hint")
        expect(hint).to_be_visible()
        expect(hint).to_have_text("Swipe sideways to see every column.")
        region = page.get_by_role("region", name="Record")
        assert region.evaluate("e => e.scrollWidth > e.clientWidth")  # there is more to see
        assert region.evaluate("e => e.tabIndex") == 0  # and a keyboard can scroll to it
        last = page.locator("#record thead th").last
        expect(last).to_have_text("Tiebreaks")
        expect(last).not_to_be_in_viewport()
        fits(page)
        page.screenshot(path=artifacts / f"record-{width}.png", full_page=True)
        region.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        expect(last).to_be_in_viewport()
        region.evaluate("e => { e.scrollLeft = 0; }")

    page.get_by_role("link", name="Bartholomeus", exact=True).click()
    expect(page.locator("#head-to-head")).to_be_visible()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        fits(page)
        table = page.locator("#head-to-head table")
        box = table.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert table.evaluate("e => e.parentElement.scrollWidth <= e.parentElement.clientWidth")
        expect(page.locator("#head-to-head thead th:visible").last).to_have_text("Even")
        page.screenshot(path=artifacts / f"person-{width}.png", full_page=True)
