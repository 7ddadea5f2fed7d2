"""Sharing a game: a view-only phone follows live, a replaced link locks it out, typing survives.

Phone A keeps the score through the edit link; phone B follows through the view link; phone A2 is
a second scorekeeper on the edit link. Each phone is its own browser context (its own cookies).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Phone
from tests.browser.test_full_game import buy, buy_row, enter_hands, hand, start_game

pytestmark = [pytest.mark.browser, pytest.mark.storage]

# Pages poll every 2 s, so a change shows within one poll and its answer; the wait is generous
# because CI shares two cores with the server and Chromium (latency is measured by `make bench`).
LIVE = 10_000
# A replaced link: the poll gets 410, the page reloads and shows the replaced-link page.
LOCKED_OUT = 10_000
REPLACED = "This link was replaced; ask the table for the new one."
CHANGED_ELSEWHERE = "This game changed on another phone."


def open_share(page: Page) -> tuple[str, str]:
    """Open the Share page from the round screen; return its view and edit links."""
    page.get_by_role("link", name="Share", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Share this game")
    return page.locator("#view-url").input_value(), page.locator("#edit-url").input_value()


def back_to_round(page: Page) -> None:
    """Leave the Share page for the round screen."""
    page.get_by_role("link", name="Back to the round").click()
    expect(page.locator("#buys")).to_be_visible()


def mark(page: Page) -> None:
    """Leave a mark in the page's window: it survives live updates but not a navigation."""
    page.evaluate("window.__marker = 'still here'")


def marked(page: Page) -> bool:
    """Whether the page is still the one `mark` marked (it did not navigate or reload)."""
    return bool(page.evaluate("window.__marker === 'still here'"))


def test_view_link_follows_live_and_a_replaced_link_is_locked_out(
    page: Page, open_phone: Callable[[], Phone]
) -> None:
    # 1. Phone A starts the game and shares the view link; phone B opens it.
    start_game(page)
    view_url, edit_url = open_share(page)
    back_to_round(page)
    assert page.url == edit_url, "the Share page shows another edit link than phone A's"
    assert view_url != edit_url

    phone_b = open_phone()
    b = phone_b.page
    b.goto(view_url)
    expect(b.get_by_role("heading", level=1)).to_contain_text("Round 1 of 7")
    expect(b.get_by_text("View only", exact=False)).to_be_visible()
    expect(b.locator("#buys").get_by_role("button")).to_have_count(0)
    expect(b.get_by_role("button", name="The stock ran out")).to_have_count(0)
    expect(b.get_by_role("link", name="End of round: enter the hands")).to_have_count(0)
    expect(b.get_by_role("button", name="Undo last change")).to_have_count(0)
    expect(b.get_by_test_id("buys-1")).to_have_text("3 buys left (0/3)")

    # 2. A buy on phone A shows on phone B without a reload.
    mark(b)
    buy(page, "Ben", "2 buys left (1/3)")
    expect(buy_row(b, "Ben").get_by_test_id("buys-1")).to_have_text(
        "2 buys left (1/3)", timeout=LIVE
    )
    assert marked(b), "phone B navigated instead of updating in place"

    # 3. Phone B has no game form to submit (the meld checker only reads), and a hand-made buy
    # with its link is refused.
    expect(b.locator("form[action*='/g/']:not([method=get])")).to_have_count(0)
    csrf = json.loads(b.locator("body").get_attribute("hx-headers") or "{}")["X-CSRFToken"]
    poll = b.locator("#poller").get_attribute("hx-get") or ""
    refused = b.request.post(
        f"{view_url}/buys",
        form={"csrf_token": csrf, "seat": "1"},
        headers={"X-CSRFToken": csrf, "HX-Request": "true"},
    )
    assert refused.status == 403, refused.text()
    assert b.request.get(poll).body() == b"", "the refused buy changed the game"
    buys = b.request.get(f"{view_url}/buys", headers={"HX-Request": "true"}).text()
    assert "2 buys left (1/3)" in buys
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("2 buys left (1/3)")

    # 4. Phone A records round 1; phone B moves on to round 2 with the totals.
    page.get_by_role("link", name="End of round: enter the hands").click()
    enter_hands(page, "Anna", {"Ben": 25, "Carla": 40, "Dan": 55})
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    expect(b.locator("#round-header h1")).to_contain_text("Round 2 of 7", timeout=LIVE)
    standings = b.locator("#standings")
    expect(standings.locator(".name")).to_have_text(["Anna", "Ben", "Carla", "Dan"])
    expect(standings.locator(".total")).to_have_text(["0", "25", "40", "55"])
    expect(buy_row(b, "Ben").get_by_test_id("buys-1")).to_have_text("3 buys left (0/3)")
    assert marked(b), "phone B navigated instead of updating in place"

    # 5. Phone A replaces the view link: phone B's next poll gets 410 and it reloads.
    phone_b.allow(410)
    open_share(page)
    page.locator("#view-link").get_by_role("link", name="Replace this link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Replace the view link?")
    page.get_by_role("button", name="Replace the view link").click()
    expect(page.locator("#view-url")).not_to_have_value(view_url)
    new_view_url = page.locator("#view-url").input_value()
    expect(b.get_by_text(REPLACED)).to_be_visible(timeout=LOCKED_OUT)
    assert not marked(b), "phone B showed the notice without reloading"
    assert b.url == view_url
    expect(b.locator("#buys")).to_have_count(0)

    # Phone A still keeps the score, and the new view link works.
    back_to_round(page)
    buy(page, "Ben", "2 buys left (1/3)")
    b.goto(new_view_url)
    expect(b.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    expect(buy_row(b, "Ben").get_by_test_id("buys-1")).to_have_text("2 buys left (1/3)")
    expect(b.locator("#buys").get_by_role("button")).to_have_count(0)


def test_a_live_update_keeps_what_another_phone_is_typing(
    page: Page, open_phone: Callable[[], Phone]
) -> None:
    start_game(page)
    _view_url, edit_url = open_share(page)
    back_to_round(page)

    # Phone A2, a second scorekeeper, opens the end-of-round form and starts typing.
    a2 = open_phone().page
    a2.goto(edit_url)
    a2.get_by_role("link", name="End of round: enter the hands").click()
    expect(a2.get_by_role("heading", level=1)).to_have_text("End of round 1")
    points = hand(a2, "Ben").get_by_label("Points")
    points.press_sequentially("25")
    mark(a2)

    # Phone A records a buy meanwhile: A2 hears of it but keeps its form as typed.
    buy(page, "Ben", "2 buys left (1/3)")
    bought = time.monotonic()
    expect(a2.locator("#notice")).to_contain_text(CHANGED_ELSEWHERE, timeout=LIVE)
    a2.wait_for_timeout(max(0, 3_000 - (time.monotonic() - bought) * 1_000))
    expect(points).to_have_value("25", timeout=0)
    expect(points).to_be_focused(timeout=0)
    assert marked(a2), "phone A2 reloaded its form"
    expect(a2.locator("#notice")).to_contain_text(CHANGED_ELSEWHERE, timeout=0)
