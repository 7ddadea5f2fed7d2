"""Each player counts their own hand, in real browsers (issue 24.2): the scorekeeper and four
seat phones, Dan "remote" on a laptop-sized window, play two rounds. Two seats call "May I?" at
once and the arbiter decides; every seat enters its own hand; the scorekeeper sends one back
with a note and that seat sends it again; one tap saves the round; a view link's sheet follows
live; in round 2 a second "I went out" is refused at the phone, entries arriving while the
end-of-round form is open fill its blank hands but never what the scorekeeper typed, and the
a hand sent back from the form is blank there until its phone sends it again, a save drawn
before a phone's newer hand is refused and shows it (issue 32), and the history names who
entered what."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Phone
from tests.browser.helpers import open_round_form
from tests.browser.test_full_game import PLAYERS, buy_row, hand, rank_button, start_game
from tests.browser.test_seats import REMOTE, seat_url

pytestmark = pytest.mark.browser


def send_hand(seat: Page, *, out: bool = False, points: int | None = None, cards: str = "") -> None:
    """Enter a seat's own hand on its pad and send it; the page then says it is with the
    scorekeeper."""
    pad = seat.get_by_test_id("own-hand")
    if out:
        pad.get_by_test_id("went-out").check()
    if points is not None:
        pad.get_by_label("Points").fill(str(points))
    if cards:
        pad.get_by_text("Tap the cards", exact=True).click()
        for code in cards.split():
            rank_button(pad, code).click()
        expect(pad.get_by_test_id(re.compile(r"tally-\d"))).to_have_text(re.compile(r"^\d+$"))
    pad.get_by_test_id("send-hand").click()
    expect(seat.get_by_test_id("hand-status")).to_contain_text("Your hand is with the scorekeeper")


def test_two_rounds_with_every_hand_counted_on_its_own_phone(
    open_phone: Callable[..., Phone],
) -> None:
    keeper = open_phone()
    keeper.allow(409)  # round 2's save drawn before Ben's newer hand
    page = keeper.page
    start_game(page)  # Anna deals: Ben plays first
    game_url = page.url
    page.goto(f"{game_url}/share")
    links = [seat_url(page, seat) for seat in range(4)]
    view_url = page.locator("#view-url").input_value()
    anna, ben, carla, dan = (open_phone() for _ in PLAYERS)
    dan.page.set_viewport_size(REMOTE)
    viewer = open_phone()
    for phone, link in zip((anna, ben, carla, dan), links, strict=True):
        phone.page.goto(link)
    viewer.page.goto(f"{view_url}/sheet")
    page.goto(game_url)

    # Two seats call "May I?" at once; the arbiter decides; one tap adds the buy.
    ben.page.get_by_test_id("call").click()
    dan.page.get_by_test_id("call").click()
    calls = page.locator("#calls")
    expect(calls.get_by_test_id("call-3")).to_contain_text("Dan")
    expect(calls.get_by_test_id("call-1")).to_contain_text("Ben")
    # One tap per winner: Dan's if Ben or Carla discarded (Dan is next after them).
    calls.get_by_test_id("grant-3").click()
    expect(buy_row(page, "Dan").get_by_test_id("buys-3")).to_have_text("2 buys left (1/3)")
    expect(dan.page.get_by_test_id("call-status")).to_have_text("Your buy is recorded.")

    # Each seat enters its own hand.
    send_hand(anna.page, out=True)
    send_hand(ben.page, points=35)
    send_hand(carla.page, cards="K K JK")
    send_hand(dan.page, points=12)
    entries = page.get_by_test_id("phone-hands")
    expect(entries.get_by_test_id("entry-0")).to_contain_text("went out")
    expect(entries.get_by_test_id("entry-2")).to_contain_text("35 points")
    expect(entries.get_by_test_id("entry-3")).to_contain_text("12 points")

    # The scorekeeper sends Dan's back with a word; Dan's page shows it and Dan sends again.
    entries.get_by_test_id("note-3").fill("You bought a card: count it too")
    entries.get_by_test_id("send-back-3").click()
    expect(entries.get_by_test_id("sent-back-3")).to_contain_text("count it too")
    expect(dan.page.get_by_test_id("sent-back")).to_contain_text("You bought a card")
    send_hand(dan.page, points=27)
    expect(entries.get_by_test_id("entry-3")).to_contain_text("27 points")

    # Every hand is in: one tap saves the round; the view link's sheet follows live.
    page.get_by_test_id("save-from-phones").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    first = viewer.page.locator("tbody tr").first.locator(".score")
    expect(first).to_have_text(["0", "35", "35", "27"])
    for phone in (anna, ben, carla, dan):  # each seat's page moves on: a fresh pad
        expect(phone.page.locator("#round-header")).to_contain_text("Round 2 of 7")
    expect(ben.page.get_by_test_id("hand-saved")).to_have_text(
        "Round 1 is saved: your hand counts 35 points."
    )

    # Round 2: a second "I went out" is refused at that phone, with the reason.
    send_hand(carla.page, out=True)
    anna.allow(422)
    anna.page.get_by_test_id("own-hand").get_by_test_id("went-out").check()
    anna.page.get_by_test_id("send-hand").click()
    expect(anna.page.get_by_test_id("hand-refused")).to_have_text(
        "Carla already said they went out."
    )
    anna.page.get_by_test_id("went-out").uncheck()
    send_hand(anna.page, points=8)

    # The scorekeeper opens the form: filled in from the phones so far; types Ben's hand.
    open_round_form(page)
    expect(hand(page, "Anna").get_by_label("Points")).to_have_value("8")
    expect(hand(page, "Anna").get_by_test_id("from-phone-0")).to_have_text("From Anna’s phone")
    hand(page, "Ben").get_by_label("Points").fill("25")
    # Ben's and Dan's entries arrive while the form is open: Dan's fills his blank hand, Ben's
    # shows beside the 25 the scorekeeper typed, which stays.
    send_hand(ben.page, points=20)
    send_hand(dan.page, points=40)
    expect(hand(page, "Dan").get_by_label("Points")).to_have_value("40")
    expect(hand(page, "Dan").get_by_test_id("from-phone-3")).to_be_visible()
    expect(page.get_by_test_id("phone-hands").get_by_test_id("entry-1")).to_contain_text(
        "20 points"
    )
    expect(hand(page, "Ben").get_by_label("Points")).to_have_value("25")
    # Sent back from the form: the hand filled from it is blank again until Dan sends it again.
    entries = page.get_by_test_id("phone-hands")
    entries.get_by_test_id("note-3").fill("Really 40?")
    entries.get_by_test_id("send-back-3").click()
    expect(hand(page, "Dan").get_by_label("Points")).to_have_value("")
    expect(dan.page.get_by_test_id("sent-back")).to_contain_text("Really 40?")
    send_hand(dan.page, points=40)
    expect(hand(page, "Dan").get_by_label("Points")).to_have_value("40")
    # Ben's 20 came after the form was drawn: the save would replace it, so it is refused and
    # shows it (issue 32); the scorekeeper, sure of 25, types it again on the form drawn anew.
    page.get_by_role("button", name="Save the round", exact=True).last.click()
    expect(page.get_by_role("alert").first).to_have_text(
        "Ben changed their hand on their phone: 20, not 25."
    )
    expect(hand(page, "Ben").get_by_label("Points")).to_have_value("20")
    hand(page, "Ben").get_by_label("Points").fill("25")
    page.get_by_role("button", name="Save the round", exact=True).last.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 3 of 7")
    second = viewer.page.locator("tbody tr").nth(1).locator(".score")
    expect(second).to_have_text(["8", "25", "0", "40"])

    # The history names who entered what.
    page.get_by_role("link", name="Score sheet").click()
    history = page.locator("#history")
    expect(history).to_contain_text(
        "Entered on their own phones: Anna, Carla, and Dan. "
        "Entered by the scorekeeper, who saved the round: Ben."
    )
    expect(history).to_contain_text(
        "Every hand entered on its player's phone (Anna, Ben, Carla, and Dan)"
    )
