"""Every tap counts, at any speed and offline (issue 21.1-21.3, 21.11), in Chromium."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.conftest import Phone, _fail_on, served
from tests.browser.helpers import lossy_game, open_round_form, went_out
from tests.browser.test_full_game import buy_row, hand, rank_button, start_game

pytestmark = pytest.mark.browser

TAP_GAP_MS = 150


@contextmanager
def slow_server_phone(browser: Browser, database_url: str, tmp_path: Path) -> Iterator[Phone]:
    """A phone on a server whose every answer arrives 600 ms late; fails on its errors."""
    with contextmanager(served)(database_url, tmp_path, slow=True) as url:
        phone = Phone(browser, url)
        yield phone
        errors = phone.close()
    _fail_on(errors)


@pytest.fixture
def slow_phone(browser: Browser, database_url: str, tmp_path: Path) -> Iterator[Phone]:
    """A phone on a server whose every answer arrives 600 ms late."""
    with slow_server_phone(browser, database_url, tmp_path) as phone:
        yield phone


SEATS = {"Anna": 0, "Ben": 1, "Carla": 2, "Dan": 3}


def count_of(page: Page, name: str) -> Locator:
    """A player's buy count on the round screen."""
    return buy_row(page, name).get_by_test_id(f"buys-{SEATS[name]}")


def test_taps_on_three_players_150_ms_apart_are_all_recorded(slow_phone: Phone) -> None:
    page = slow_phone.page
    start_game(page)
    for name in ("Ben", "Carla", "Dan"):
        buy_row(page, name).get_by_role("button", name=f"Buy: {name}", exact=True).click()
        page.wait_for_timeout(TAP_GAP_MS)
    for name in ("Ben", "Carla", "Dan"):  # shown by their answers, whatever their order
        expect(count_of(page, name)).to_have_text("2 buys left (1/3)")
    expect(page.get_by_text("Not saved")).to_have_count(0)
    page.reload()
    assert [count_of(page, n).inner_text() for n in SEATS] == [
        "3 buys left (0/3)",
        *["2 buys left (1/3)"] * 3,
    ]


def test_a_double_tap_records_once_and_the_button_says_it_is_on_its_way(
    slow_phone: Phone,
) -> None:
    page = slow_phone.page
    start_game(page)
    ben = buy_row(page, "Ben").get_by_role("button", name="Buy: Ben", exact=True)
    ben.click()
    expect(ben).to_have_attribute("aria-busy", "true")
    expect(page.locator("#sending-status")).to_have_text("Sending: Buy: Ben")
    ben.click()  # the same tap again while the first is on its way
    # Another player's tap is not held up meanwhile.
    buy_row(page, "Carla").get_by_role("button", name="Buy: Carla", exact=True).click()
    expect(buy_row(page, "Carla").get_by_test_id("buys-2")).to_have_text("2 buys left (1/3)")
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("2 buys left (1/3)")
    expect(page.locator("#buys [aria-busy]")).to_have_count(0)
    expect(page.locator("#sending-status")).to_have_text("Saved: Buy: Carla")
    page.reload()
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("2 buys left (1/3)")


def test_focus_stays_on_the_pressed_buy_button(page: Page) -> None:
    start_game(page)
    carla = buy_row(page, "Carla").get_by_role("button", name="Buy: Carla", exact=True)
    carla.focus()
    page.keyboard.press("Enter")
    expect(buy_row(page, "Carla").get_by_test_id("buys-2")).to_have_text("2 buys left (1/3)")
    expect(carla).to_be_focused()
    page.keyboard.press("Enter")  # the keyboard buys again without finding its way back
    expect(buy_row(page, "Carla").get_by_test_id("buys-2")).to_have_text("1 buy left (2/3)")


def test_two_offline_taps_are_both_kept_and_retried_once_each(
    open_phone: Callable[..., Phone], artifacts: Path
) -> None:
    phone = lossy_game(open_phone)
    page = phone.page
    phone.context.set_offline(True)
    for name in ("Ben", "Dan"):
        buy_row(page, name).get_by_role("button", name=f"Buy: {name}", exact=True).click()
        expect(buy_row(page, name).get_by_role("alert")).to_contain_text("Not saved")
    # The first failure keeps its marker when the second fails.
    expect(buy_row(page, "Ben").get_by_role("alert")).to_contain_text("Buy: Ben — Not saved")
    page.screenshot(path=str(artifacts / "taps-offline-two-not-saved.png"), full_page=True)
    phone.back_online()
    buy_row(page, "Dan").get_by_role("button", name="Try again").click()  # sends both
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("2 buys left (1/3)")
    expect(buy_row(page, "Dan").get_by_test_id("buys-3")).to_have_text("2 buys left (1/3)")
    expect(page.get_by_text("Not saved")).to_have_count(0)
    page.reload()
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("2 buys left (1/3)")
    expect(buy_row(page, "Dan").get_by_test_id("buys-3")).to_have_text("2 buys left (1/3)")


def test_an_unsaved_tap_stays_marked_through_a_redraw_until_discarded(
    open_phone: Callable[..., Phone],
) -> None:
    phone = lossy_game(open_phone)
    page = phone.page
    page.route("**/buys", lambda route: route.abort("internetdisconnected"), times=1)
    buy_row(page, "Ben").get_by_role("button", name="Buy: Ben", exact=True).click()
    expect(buy_row(page, "Ben").get_by_role("alert")).to_contain_text("Not saved")
    # Carla's buy is saved and redraws the region: Ben's marker is still there.
    buy_row(page, "Carla").get_by_role("button", name="Buy: Carla", exact=True).click()
    expect(buy_row(page, "Carla").get_by_test_id("buys-2")).to_have_text("2 buys left (1/3)")
    expect(buy_row(page, "Ben").get_by_role("alert")).to_contain_text("Buy: Ben — Not saved")
    buy_row(page, "Ben").get_by_role("button", name="Drop this change").click()
    expect(page.get_by_text("Not saved")).to_have_count(0)
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("3 buys left (0/3)")


def test_card_taps_add_up_offline_and_nothing_typed_is_lost(
    open_phone: Callable[..., Phone],
) -> None:
    phone = lossy_game(open_phone, round_form=True)
    page = phone.page
    hand(page, "Ben").get_by_label("Points").fill("20")
    hand(page, "Dan").get_by_label("Points").fill("40")
    carla = hand(page, "Carla")
    carla.get_by_text("Tap the cards").click()
    phone.context.set_offline(True)
    for code in ("K", "Q", "K"):
        rank_button(carla, code).click()
    expect(rank_button(carla, "K", "2")).to_be_visible()
    expect(rank_button(carla, "Q", "1")).to_be_visible()
    expect(carla.get_by_text("their sum is shown when the phone is back online")).to_be_visible()
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("alert")).to_contain_text("Not saved")
    expect(hand(page, "Ben").get_by_label("Points")).to_have_value("20")
    phone.back_online()
    expect(carla.get_by_test_id("tally-2")).to_have_text("30")  # counted by the server
    page.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    page.get_by_role("link", name="Score sheet").click()
    expect(page.locator("tbody tr").first.locator(".score")).to_have_text(["0", "20", "30", "40"])


def test_card_taps_on_a_slow_network_are_all_counted(slow_phone: Phone) -> None:
    page = slow_phone.page
    start_game(page)
    open_round_form(page)
    carla = hand(page, "Carla")
    carla.get_by_text("Tap the cards").click()
    for code in ("K", "Q", "J", "2"):
        rank_button(carla, code).click()
        page.wait_for_timeout(TAP_GAP_MS)
    expect(carla.get_by_test_id("tally-2")).to_have_text("32")
    for code in ("K", "Q", "J", "2"):
        expect(rank_button(carla, code, "1")).to_be_visible()


def test_hearts_and_diamonds_show_red_and_a_joker_is_no_star(page: Page) -> None:
    start_game(page)
    page.get_by_text("Check a meld or a laydown").click()
    checker = page.locator("#checker")
    checker.get_by_label("one book").check()
    checker.get_by_label("Cards (melds apart with |)").fill("7H 7S JK")
    checker.get_by_role("button", name="Check", exact=True).click()
    melds = page.get_by_test_id("checked-melds")
    expect(melds).to_have_text("7♥ 7♠ JK")
    colour = "(el) => getComputedStyle(el).color"
    red, black = melds.locator(".red-suit"), melds.get_by_text("7♠")
    expect(red).to_have_text("7♥")
    assert red.evaluate(colour) != black.evaluate(colour)


def test_the_table_display_fills_a_tablet_in_big_type(page: Page, artifacts: Path) -> None:
    start_game(page)
    page.get_by_role("link", name="Table display").click()
    page.set_viewport_size({"width": 1180, "height": 820})
    display = page.locator("#display")
    expect(display).to_be_visible()
    size = display.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 36, f"{size} px type on the table display"
    page.screenshot(path=str(artifacts / "table-display-1180x820.png"))
    height = display.evaluate("(el) => el.getBoundingClientRect().height")
    assert height >= 0.55 * 820, f"the display fills {height} px of 820"


def test_the_print_page_offers_a_print_button(page: Page) -> None:
    start_game(page)
    page.goto(page.url + "/print")
    expect(page.get_by_role("button", name="Print")).to_be_visible()


def test_a_refused_round_shows_its_first_error_and_the_player_out_has_no_field(
    open_phone: Callable[..., Phone],
) -> None:
    phone = open_phone()
    phone.allow(422)
    page = phone.page
    start_game(page)
    open_round_form(page)
    went_out(page, "Anna")
    expect(hand(page, "Anna").get_by_label("Points")).to_be_disabled()
    went_out(page, "Ben")  # changed their mind: Anna's hand opens again
    expect(hand(page, "Anna").get_by_label("Points")).to_be_enabled()
    expect(hand(page, "Ben").get_by_label("Points")).to_be_disabled()
    hand(page, "Anna").get_by_label("Points").fill("-5")
    hand(page, "Dan").get_by_label("Points").fill("40")
    page.get_by_role("button", name="Save the round").click()
    first = hand(page, "Anna").get_by_label("Points")
    expect(first).to_be_focused()
    expect(first).to_be_in_viewport()
    # Every hand's refusal at once: Carla has no points either.
    expect(hand(page, "Carla").get_by_role("alert")).to_have_text(
        "Enter the points or the cards left in hand."
    )
    expect(hand(page, "Ben").get_by_label("Points")).to_be_disabled()  # still out after the redraw
