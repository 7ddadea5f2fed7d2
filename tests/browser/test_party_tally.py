"""Watching an evening in the browser: the TV view and a relative's page live, then the tally's
card drawn as a PNG on the phone and the tally page at 320 px."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Phone, _fail_on
from tests.browser.test_party import (  # noqa: F401 (the fixture `server`)
    ONE_POLL_MS,
    Served,
    draw_seating,
    finish_table,
    server,
)

pytestmark = pytest.mark.browser

FOUR = ["Bartholomeus", "Concepción", "Marie-Claire", "Ida"]
PNG = b"\x89PNG\r\n\x1a\n"


def test_the_tv_and_relatives_watch_live_then_the_card_downloads_as_a_png(
    browser: Browser,
    server: Served,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
) -> None:
    organiser = Phone(browser, server.url)
    try:
        page = organiser.page
        draw_seating(page, FOUR)
        page.get_by_role("button", name="Start", exact=True).click()
        expect(page.locator(".party-table")).to_have_count(1)
        evening = page.url
        page.get_by_role("link", name="Link for relatives at home").click()
        page.get_by_role("button", name="Make a link for relatives at home").click()
        relatives = page.get_by_label("Link").input_value()
        page.goto(evening)
        page.get_by_role("link", name="TV view").click()
        page.set_viewport_size({"width": 1280, "height": 720})
        expect(page.locator("#watch-table-1 .watch-contract")).to_have_text("2 books")
        home = Phone(browser, server.url)
        home.page.goto(relatives)
        expect(home.page.locator("#standings-empty")).to_be_visible()
        winner = finish_table(server.app, 1)[0]
        expect(page.locator("#watch-table-1 .watch-leader")).to_have_text(
            f"Won by {winner}", timeout=ONE_POLL_MS
        )
        expect(home.page.locator("#party-standings tbody tr")).to_have_count(4, timeout=ONE_POLL_MS)
        _fail_on(home.close())
        page.goto(evening)
        page.get_by_role("button", name="End the evening").click()
        page.get_by_role("link", name="Tonight's tally").click()
        expect(page.locator("#podium li").first).to_have_text(f"1. {winner} · 10.0 points")

        page.set_viewport_size({"width": 320, "height": 640})
        wide = page.evaluate("document.scrollingElement.scrollWidth")
        assert wide <= 320, f"the tally page scrolls sideways at 320 px: {wide}"
        card = page.locator("img.tally-card")
        expect(card).to_be_visible()
        assert card.evaluate("img => img.complete && img.naturalWidth") == 1080

        # Headless Chromium shares no files: the card is downloaded instead.
        with page.expect_download() as download:
            page.get_by_role("button", name="Share the card").click()
        saved = tmp_path / "card.png"
        download.value.save_as(saved)
        assert download.value.suggested_filename.endswith(".png")
        data = saved.read_bytes()
        assert data.startswith(PNG) and len(data) > 20_000  # drawn, not a blank canvas
        assert struct.unpack(">II", data[16:24]) == (1080, 1350)  # the IHDR's width, height
    finally:
        _fail_on(organiser.close())
