"""At a real table, at real speed (issue 35.1-35.3), in Chromium, every POST answered 600 ms
late: a "May I?" call shows at the top of the scorekeeper's round screen whatever its scroll,
granted to the arbiter's choice or dismissed with one tap; the scorekeeper holds a seat and
enters its own hand on the round screen, and once every hand is in the round saves with one
tap; every seat phone says what the stock's run-outs mean and stops offering what the rules no
longer allow. At 390×844, and at 320 px with 200 % text."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Phone
from tests.browser.test_full_game import buy_row, start_game
from tests.browser.test_seat_hands import send_hand
from tests.browser.test_seats import seat_url
from tests.browser.test_table_feel import SIZES, TEXT_SIZE

pytestmark = pytest.mark.browser

NAMES = ["Oma", "Bartholomeus", "Concepción", "Marie-Claire"]  # Oma deals round 1
POLL_MS = 2_000 + 600 + 1_400  # one poll, its answer, and room for two shared cores


@pytest.fixture
def slow_phones(open_slow_phone: Callable[..., Phone]) -> Callable[[], Phone]:
    """Phones at one table on a server whose every answer (but static files) is 600 ms late."""
    return open_slow_phone


def small(page: Page, screen: str) -> None:
    """Size the phone for the screen: 390×844, or 320 px wide with 200 % text."""
    viewport, text_size = SIZES[screen]
    page.set_viewport_size(viewport)
    if text_size:
        page.add_init_script(TEXT_SIZE % text_size)


def start(page: Page) -> list[str]:
    """Start a May I? game of the four long names; the seats' links from the share page."""
    start_game(page, NAMES)
    game_url = page.url
    page.goto(f"{game_url}/share")
    links = [seat_url(page, seat) for seat in range(len(NAMES))]
    page.goto(game_url)
    return links


def seated(open_phone: Callable[[], Phone], screen: str, players: int = 4) -> list[Page]:
    """A new game on the scorekeeper's phone, then a phone on each seat's link but the
    scorekeeper's own (seat 0), up to `players`: the scorekeeper's page first."""
    keeper = open_phone().page
    small(keeper, screen)
    links = start(keeper)
    pages = [keeper]
    for link in links[1:players]:
        page = open_phone().page
        small(page, screen)
        page.goto(link)
        pages.append(page)
    return pages


def to_the_bottom(page: Page) -> None:
    """Scroll the round screen all the way down, as the scorekeeper does to the standings."""
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("window.scrollY > 0")


@pytest.mark.parametrize("screen", SIZES)
def test_an_open_call_shows_at_the_top_and_one_tap_settles_it(
    slow_phones: Callable[[], Phone], screen: str
) -> None:
    keeper, _, concepcion, marie = seated(slow_phones, screen)
    to_the_bottom(keeper)
    concepcion.get_by_test_id("call").click()
    marie.get_by_test_id("call").click()
    calls = keeper.locator("#calls")
    # Within one poll, wherever the screen is scrolled: both callers and the arbiter's choices.
    expect(calls.get_by_test_id("call-3")).to_be_in_viewport(timeout=2 * POLL_MS)
    expect(calls.get_by_test_id("call-2")).to_be_in_viewport()
    # A button per winner by who discarded: Concepción's if Oma, Bartholomeus or Marie-Claire
    # did, Marie-Claire's if Concepción did. At 200 % text the box scrolls past the first.
    winner, passed = (marie, concepcion) if screen == "390x844" else (concepcion, marie)
    name = "Marie-Claire" if winner is marie else "Concepción"
    grant = calls.get_by_test_id(f"grant-{NAMES.index(name)}")
    expect(grant).to_contain_text(f"Record the buy for {name}")
    expect(grant).to_be_in_viewport()
    grant.click()  # one tap
    expect(buy_row(keeper, name).get_by_test_id(f"buys-{NAMES.index(name)}")).to_have_text(
        "2 buys left (1/3)"
    )
    expect(winner.get_by_test_id("call-status")).to_have_text("Your buy is recorded.")
    expect(passed.get_by_test_id("call-status")).to_have_text("Another player got the card.")
    expect(calls.get_by_test_id("call-3")).to_have_count(0)
    # Another call, dismissed with one tap from the top of the screen.
    to_the_bottom(keeper)
    concepcion.get_by_test_id("call").click()
    dismiss = calls.get_by_test_id("dismiss-calls")
    expect(dismiss).to_be_in_viewport(timeout=2 * POLL_MS)
    dismiss.click()
    expect(concepcion.get_by_test_id("call-status")).to_have_text(
        "The scorekeeper dismissed the call."
    )


@pytest.mark.parametrize("screen", SIZES)
def test_a_whole_round_with_the_keeper_in_a_seat(
    slow_phones: Callable[[], Phone], screen: str
) -> None:
    keeper, bartholomeus, concepcion, marie = seated(slow_phones, screen)
    # The scorekeeper is Oma, once for this game on this phone.
    keeper.get_by_text("Do you play too?").click()
    keeper.get_by_test_id("i-am-0").click()
    pad = keeper.get_by_test_id("own-hand")
    expect(pad).to_be_visible()
    keeper.reload()
    expect(keeper.get_by_test_id("own-hand")).to_be_visible()  # remembered
    expect(keeper.get_by_test_id("not-playing")).to_have_text("I am not Oma")
    # One seat calls; the scorekeeper grants it from the top of the screen.
    to_the_bottom(keeper)
    bartholomeus.get_by_test_id("call").click()
    grant = keeper.locator("#calls").get_by_test_id("grant-call")
    expect(grant).to_be_in_viewport(timeout=2 * POLL_MS)
    grant.click()
    expect(bartholomeus.get_by_test_id("call-status")).to_have_text("Your buy is recorded.")
    # Every hand is entered: three on their phones, Oma's on the round screen's pad.
    send_hand(bartholomeus, points=35)
    send_hand(concepcion, cards="K K JK")
    send_hand(marie, points=12)
    pad.get_by_test_id("went-out").check()
    pad.get_by_test_id("send-hand").click()
    hands = keeper.get_by_test_id("phone-hands")
    expect(hands.get_by_test_id("entry-0")).to_contain_text("Oma: went out")
    expect(hands.get_by_test_id("entry-2")).to_contain_text("35 points")
    save = hands.get_by_test_id("save-from-phones")
    expect(save).to_have_text("Every hand is in: save the round", timeout=2 * POLL_MS)
    save.click()
    expect(keeper.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    keeper.get_by_role("link", name="Score sheet").click()
    expect(keeper.locator("tbody tr").first.locator(".score")).to_have_text(["0", "35", "35", "12"])
    history = keeper.locator("#history")
    expect(history).to_contain_text(re.compile(r"Oma.*went out|went out.*Oma"))


@pytest.mark.parametrize("screen", SIZES)
def test_seat_phones_hear_about_the_stock(slow_phones: Callable[[], Phone], screen: str) -> None:
    keeper, bartholomeus = seated(slow_phones, screen, players=2)
    stock = bartholomeus.locator("#stock")
    expect(stock).to_contain_text("The stock has not run out this round.")
    keeper.get_by_role("button", name="The stock ran out").click()
    expect(stock).to_contain_text(
        "Shuffle the discard pile, keep its top card, and play on.", timeout=2 * POLL_MS
    )
    expect(bartholomeus.get_by_test_id("call")).to_be_visible()
    keeper.goto(re.sub(r"/rounds/.*", "", keeper.url))
    keeper.get_by_role("button", name="The stock ran out").click()
    expect(keeper.get_by_role("heading", level=1)).to_contain_text("End of round 1")
    expect(stock).to_contain_text(
        "The stock ran out a second time: the round ends and everybody counts their hand.",
        timeout=2 * POLL_MS,
    )
    expect(bartholomeus.get_by_test_id("call")).to_have_count(0)
    expect(bartholomeus.get_by_test_id("went-out")).to_have_count(0)
    send_hand(bartholomeus, points=35)  # counting the hand goes on
