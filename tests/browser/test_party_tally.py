"""Tonight's tally in the browser: the card drawn as a PNG on the phone, the page at 320 px."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Phone, _fail_on
from tests.browser.test_party import Served, finish_table, server  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser

FOUR = ["Bartholomeus", "Concepción", "Marie-Claire", "Ida"]
PNG = b"\x89PNG\r\n\x1a\n"


def test_the_tally_card_downloads_as_a_png_and_the_page_fits_320_px(
    browser: Browser,
    server: Served,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
) -> None:
    organiser = Phone(browser, server.url)
    try:
        page = organiser.page
        page.goto("/tables/new")
        page.get_by_label("Name of the table").fill("Reunion")
        page.get_by_role("button", name="Open the table").click()
        page.get_by_role("link", name="Start a card party").click()
        page.get_by_label("New people, one name a line").fill("\n".join(FOUR))
        page.get_by_role("button", name="Draw the seating").click()
        page.get_by_role("button", name="Start", exact=True).click()
        expect(page.locator(".party-table")).to_have_count(1)
        winner = finish_table(server.app, 1)[0]
        page.reload()
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
