"""A seat's "May I?" made offline is kept, and once "Try again" saves it, nothing says it is not
saved any more (issue 35.8), on a slow network at 390 px and at 320 px with 200 % text."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Phone
from tests.browser.test_full_game import start_game
from tests.browser.test_seats import seat_url

pytestmark = pytest.mark.browser

SIZES = {
    "390px": ({"width": 390, "height": 844}, "100%"),
    "320px-200%": ({"width": 320, "height": 640}, "200%"),
}


def open_seat(keeper: Page, seat_phone: Phone, seat: int, size: str) -> Page:
    """Open a seat's link from the keeper's share page on a phone of that size and text."""
    game_url = keeper.url
    keeper.goto(f"{game_url}/share")
    url = seat_url(keeper, seat)
    keeper.goto(game_url)
    viewport, text = SIZES[size]
    page = seat_phone.page
    page.set_viewport_size(viewport)
    page.goto(url)
    page.evaluate(f"document.documentElement.style.fontSize = '{text}'")
    return page


@pytest.mark.parametrize("size", SIZES)
def test_an_offline_call_retried_and_saved_leaves_no_not_saved_box(
    open_slow_phone: Callable[..., Phone], size: str
) -> None:
    keeper = open_slow_phone().page
    start_game(keeper)
    ben = open_slow_phone()
    ben.allow_lost_requests()
    page = open_seat(keeper, ben, 1, size)
    seat = page.get_by_test_id("seat")
    ben.context.set_offline(True)
    seat.get_by_test_id("call").click()
    expect(seat.get_by_role("alert")).to_contain_text("Not saved")
    ben.back_online()
    seat.get_by_role("button", name="Try again").click()
    expect(seat.get_by_test_id("call-status")).to_contain_text("the scorekeeper decides")
    expect(page.get_by_text("Not saved")).to_have_count(0)
    # It stays gone through the polls that follow, and the call was made once.
    page.wait_for_timeout(2500)
    expect(page.get_by_text("Not saved")).to_have_count(0)
    expect(keeper.locator("#calls").get_by_test_id("call-1")).to_contain_text("Ben")
    expect(keeper.locator("#calls .call-list li")).to_have_count(1)
