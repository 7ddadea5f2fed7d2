"""Every phone agrees (issue 32), in real browsers: two seat phones and the scorekeeper race on
one round's end. Ben and Carla enter their hands; the scorekeeper opens the end-of-round form,
which fills them in; Carla corrects hers on her phone while the form is open; the scorekeeper's
save, drawn before, is refused with Carla's newer hand shown, then saved; every phone ends
showing the same values."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Phone
from tests.browser.helpers import open_round_form, went_out
from tests.browser.test_full_game import hand, start_game
from tests.browser.test_seat_hands import send_hand
from tests.browser.test_seats import seat_url

pytestmark = pytest.mark.browser


def test_two_seats_and_the_scorekeeper_race_and_every_phone_ends_the_same(
    open_phone: Callable[..., Phone],
) -> None:
    keeper = open_phone()
    page = keeper.page
    start_game(page)  # Anna, Ben, Carla, Dan
    game_url = page.url
    page.goto(f"{game_url}/share")
    ben, carla = open_phone(), open_phone()
    ben.page.goto(seat_url(page, 1))
    carla.page.goto(seat_url(page, 2))
    page.goto(game_url)

    send_hand(ben.page, points=35)
    send_hand(carla.page, points=20)
    open_round_form(page)  # Ben's and Carla's hands filled in from their phones
    expect(hand(page, "Carla").get_by_label("Points")).to_have_value("20")
    went_out(page, "Anna")
    hand(page, "Dan").get_by_label("Points").fill("12")

    send_hand(carla.page, points=45)  # Carla corrects hers while the form is open
    entries = page.get_by_test_id("phone-hands")
    expect(entries.get_by_test_id("entry-2")).to_contain_text("45 points")
    keeper.allow(409)
    page.get_by_role("button", name="Save the round", exact=True).last.click()
    expect(page.get_by_role("alert").first).to_have_text(
        "Carla changed their hand on their phone: 45, not 20."
    )
    expect(hand(page, "Carla").get_by_label("Points")).to_have_value("45")  # hers stands
    expect(hand(page, "Dan").get_by_label("Points")).to_have_value("12")  # what was typed stays
    page.get_by_role("button", name="Save the round", exact=True).last.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")

    page.get_by_role("link", name="Score sheet").click()
    expect(page.locator("tbody tr").first.locator(".score")).to_have_text(["0", "35", "45", "12"])
    expect(ben.page.get_by_test_id("hand-saved")).to_have_text(
        "Round 1 is saved: your hand counts 35 points."
    )
    expect(carla.page.get_by_test_id("hand-saved")).to_have_text(
        "Round 1 is saved: your hand counts 45 points."
    )
