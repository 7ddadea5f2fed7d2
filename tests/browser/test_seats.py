"""Seats in a real browser (issue 24.1, 24.3): a scorekeeper and two seat phones, one of them
"remote" on a laptop-sized window; both call "May I?", the arbiter decides, the scorekeeper
grants the buy with one tap, and every phone follows live."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Phone
from tests.browser.test_full_game import buy_row, start_game

pytestmark = pytest.mark.browser

REMOTE = {"width": 1280, "height": 800}  # a player on a video call, at their computer


def seat_url(page: Page, seat: int) -> str:
    """A seat's link as the share page shows it."""
    return page.locator(f"#seat-{seat}-url").input_value()


def test_two_seats_call_may_i_and_the_scorekeeper_grants_one(
    page: Page, open_phone: Callable[..., Phone]
) -> None:
    start_game(page)  # Anna deals: Ben plays first
    game_url = page.url
    page.goto(f"{game_url}/share")
    expect(page.locator("#seat-links")).to_contain_text("Ben")
    ben_url, dan_url = seat_url(page, 1), seat_url(page, 3)
    ben, dan = open_phone(), open_phone()
    dan.page.set_viewport_size(REMOTE)
    ben.page.goto(ben_url)
    dan.page.goto(dan_url)
    expect(dan.page.get_by_test_id("seat")).to_contain_text("Your seat: Dan")
    expect(dan.page.locator("#round-header")).to_contain_text("Round 1 of 7")
    page.goto(game_url)
    ben.page.get_by_test_id("call").click()
    dan.page.get_by_test_id("call").click()
    expect(ben.page.get_by_test_id("call-status")).to_contain_text("the scorekeeper decides")
    # The scorekeeper's screen shows both calls by name within a poll.
    calls = page.locator("#calls")
    expect(calls.get_by_test_id("call-1")).to_contain_text("Ben")
    expect(calls.get_by_test_id("call-3")).to_contain_text("Dan")
    # One tap per winner: Dan's if Ben or Carla discarded (Dan is next after them).
    calls.get_by_test_id("grant-3").click()
    expect(calls).to_contain_text("Buy recorded for Dan.")
    expect(buy_row(page, "Dan").get_by_test_id("buys-3")).to_have_text("2 buys left (1/3)")
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("3 buys left (0/3)")
    # Each seat's phone follows live: the winner's buy, the other passed over.
    expect(dan.page.get_by_test_id("call-status")).to_have_text("Your buy is recorded.")
    expect(dan.page.get_by_test_id("seat-buys")).to_have_text("1 buy this round · 2 buys left")
    expect(ben.page.get_by_test_id("call-status")).to_have_text("Another player got the card.")
    expect(ben.page.get_by_test_id("seat-buys")).to_contain_text("0 buys this round")
