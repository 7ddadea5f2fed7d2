"""Every tap means what the table meant (issue 9): at phone size, in Chromium."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import Phone
from tests.browser.helpers import lossy_game, open_round_form, went_out
from tests.browser.test_full_game import PLAYERS, buy, buy_row, hand, start_game
from tests.browser.test_sharing import back_to_round, open_share

pytestmark = pytest.mark.browser


def test_enter_in_the_new_game_form_starts_the_game_in_seat_order(page: Page) -> None:
    page.goto("/games/new")
    page.get_by_label("Rule set").select_option(label="May I?")
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("First dealer").select_option(label="Seat 1")
    page.get_by_label("Seat 2", exact=True).press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 1 of 7")
    page.get_by_role("link", name="Score sheet").click()
    header = page.locator("thead").first
    expect(header).to_contain_text(re.compile(r"Anna.*Ben.*Carla.*Dan", re.S))


def test_enter_in_a_points_field_saves_the_round_with_the_typed_points(page: Page) -> None:
    start_game(page)
    open_round_form(page)
    went_out(page, "Anna")
    hand(page, "Carla").get_by_label("Points").fill("30")
    hand(page, "Dan").get_by_label("Points").fill("40")
    hand(page, "Ben").get_by_label("Points").fill("20")
    hand(page, "Ben").get_by_label("Points").press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    page.get_by_role("link", name="Score sheet").click()
    expect(page.locator("tbody tr").first.locator(".score")).to_have_text(["0", "20", "30", "40"])


def test_undo_right_after_a_buy_undoes_that_buy(page: Page) -> None:
    start_game(page)
    buy(page, "Ben", "2 buys left (1/3)")
    page.get_by_role("button", name="Undo last change").click()
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("3 buys left (0/3)")
    expect(page.get_by_text("Another change came in meanwhile")).to_have_count(0)


def test_undo_names_only_another_phones_change(
    page: Page, open_phone: Callable[..., Phone]
) -> None:
    start_game(page)
    buy(page, "Ben", "2 buys left (1/3)")
    other = open_phone().page
    other.goto(page.url)
    buy(other, "Carla", "2 buys left (1/3)")
    # The live refresh shows Carla's buy here; this phone's undo form still saw only Ben's.
    expect(buy_row(page, "Carla").get_by_test_id("buys-2")).to_have_text("2 buys left (1/3)")
    page.get_by_role("button", name="Undo last change").click()
    expect(
        page.get_by_text("Another change came in meanwhile: Round 1: Carla bought a card.")
    ).to_be_visible()
    expect(buy_row(page, "Carla").get_by_test_id("buys-2")).to_have_text("2 buys left (1/3)")


def redrawn_by_live_refresh(page: Page, region: str, change: Callable[[], None]) -> None:
    """Make a change on another phone and wait until this phone's region was redrawn for it."""
    page.locator(region).evaluate("(element) => element.setAttribute('data-before', '')")
    change()
    expect(page.locator(f"{region}[data-before]")).to_have_count(0)


def test_the_shuffle_instruction_stays_through_live_refreshes(
    page: Page, open_phone: Callable[..., Phone]
) -> None:
    start_game(page)
    stock = page.locator("#stock")
    stock.get_by_role("button", name="The stock ran out").click()
    shuffle = "Shuffle the discard pile, keep its top card, and play on."
    expect(stock.get_by_role("status")).to_have_text(shuffle)
    other = open_phone().page
    other.goto(page.url)
    redrawn_by_live_refresh(page, "#stock", lambda: buy(other, "Ben", "2 buys left (1/3)"))
    page.wait_for_timeout(5_000)  # the 5 s: more live refreshes come and go
    expect(stock.get_by_role("status")).to_have_text(shuffle)
    expect(other.locator("#stock").get_by_role("status")).to_have_text(shuffle)


def test_a_refused_buy_keeps_its_reason_through_another_phones_change(
    page: Page, open_phone: Callable[..., Phone]
) -> None:
    start_game(page)
    for shows in ("2 buys left (1/3)", "1 buy left (2/3)", "0 buys left (3/3)"):
        buy(page, "Ben", shows)
    buy_row(page, "Ben").get_by_role("button", name="Buy: Ben", exact=True).click()
    reason = "The limit of 3 buys per round is reached."
    expect(buy_row(page, "Ben").get_by_role("alert")).to_have_text(reason)
    other = open_phone().page
    other.goto(page.url)
    redrawn_by_live_refresh(page, "#buys", lambda: buy(other, "Carla", "2 buys left (1/3)"))
    expect(buy_row(page, "Carla").get_by_test_id("buys-2")).to_have_text("2 buys left (1/3)")
    expect(buy_row(page, "Ben").get_by_role("alert")).to_have_text(reason)
    buy(page, "Dan", "2 buys left (1/3)")  # this phone acts again: the old refusal goes
    expect(buy_row(page, "Ben").get_by_role("alert")).to_have_count(0)


def test_the_history_on_a_view_phone_updates_live(
    page: Page, open_phone: Callable[..., Phone]
) -> None:
    start_game(page)
    view_url, _edit_url = open_share(page)
    viewer = open_phone().page
    viewer.goto(f"{view_url}/sheet")
    expect(viewer.locator("#history")).to_contain_text("Game started")
    back_to_round(page)
    buy(page, "Ben", "2 buys left (1/3)")
    expect(viewer.locator("#history")).to_contain_text("Round 1: Ben bought a card")


def test_replacing_a_link_asks_first_and_keep_changes_nothing(page: Page) -> None:
    start_game(page)
    view_url, _edit_url = open_share(page)
    page.locator("#view-link").get_by_role("link", name="Replace this link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Replace the view link?")
    expect(page.get_by_text("The old view link stops working at once")).to_be_visible()
    page.get_by_role("link", name="Keep the link").click()
    expect(page.locator("#view-url")).to_have_value(view_url)


def test_typed_points_and_tapped_cards_keep_one_answer_per_hand(page: Page) -> None:
    start_game(page)
    open_round_form(page)
    ben = hand(page, "Ben")
    ben.get_by_label("Points").fill("20")
    ben.get_by_text("Tap the cards").click()
    ben.get_by_role("button", name="K", exact=True).click()
    expect(ben.get_by_role("status")).to_have_text("The tapped cards replace the 20 points typed.")
    expect(ben.get_by_label("Points")).to_have_value("")
    expect(ben.get_by_test_id("tally-1")).to_have_text("10")
    ben.get_by_label("Points").fill("25")
    expect(ben.get_by_role("status")).to_have_text("The typed points replace the tapped cards.")
    expect(ben.get_by_test_id("tally-1")).to_have_count(0)
    went_out(page, "Anna")
    # Who went out holds no cards: their hand has no field (the server refuses points for them).
    expect(hand(page, "Anna").get_by_label("Points")).to_be_disabled()
    hand(page, "Carla").get_by_label("Points").fill("30")
    hand(page, "Dan").get_by_label("Points").fill("40")
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    page.get_by_role("link", name="Score sheet").click()
    expect(page.locator("tbody tr").first.locator(".score")).to_have_text(["0", "25", "30", "40"])


def test_an_impossible_total_is_refused_at_its_hand(page: Page) -> None:
    start_game(page)
    open_round_form(page)
    went_out(page, "Anna")
    hand(page, "Ben").get_by_label("Points").fill("1")
    hand(page, "Carla").get_by_label("Points").fill("999")
    hand(page, "Dan").get_by_label("Points").fill("40")
    page.get_by_role("button", name="Save the round").click()
    expect(hand(page, "Ben").get_by_role("alert")).to_have_text(
        "No hand is worth 1: the cheapest card counts 2."
    )
    expect(hand(page, "Carla").get_by_role("alert")).to_contain_text("No hand is worth 999")
    hand(page, "Ben").get_by_label("Points").fill("20")
    page.get_by_role("button", name="Save the round").click()
    expect(hand(page, "Ben").get_by_role("alert")).to_have_count(0)  # the answer is in
    expect(hand(page, "Carla").get_by_role("alert")).to_contain_text("No hand is worth 999")
    hand(page, "Carla").get_by_label("Points").fill("150")
    page.get_by_role("button", name="Save the round").click()
    # possible but unusual: held at Carla's hand until the table saves it anyway (issue 21.6)
    expect(hand(page, "Carla").get_by_role("alert")).to_have_text(
        "Carla: 150 points is unusually high for one hand. Check it."
    )
    page.get_by_role("button", name="Save anyway").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")


def test_reload_mid_entry_restores_the_entry_until_it_is_saved(page: Page) -> None:
    start_game(page)
    open_round_form(page)
    went_out(page, "Anna")
    hand(page, "Ben").get_by_label("Points").fill("20")
    carla = hand(page, "Carla")
    carla.get_by_text("Tap the cards").click()
    carla.get_by_role("button", name="K", exact=True).click()
    expect(carla.get_by_test_id("tally-2")).to_have_text("10")
    page.reload()
    expect(page.get_by_text("Restored what you had entered on this phone")).to_be_visible()
    expect(page.get_by_role("group", name="Who went out?").get_by_label("Anna")).to_be_checked()
    expect(hand(page, "Ben").get_by_label("Points")).to_have_value("20")
    expect(hand(page, "Carla").get_by_test_id("tally-2")).to_have_text("10")
    page.go_back()
    page.go_forward()
    expect(hand(page, "Ben").get_by_label("Points")).to_have_value("20")
    expect(hand(page, "Carla").get_by_test_id("tally-2")).to_have_text("10")
    hand(page, "Dan").get_by_label("Points").fill("40")
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    page.goto(page.url + "/rounds/1")
    expect(page.get_by_text("Restored what you had entered")).to_have_count(0)
    expect(hand(page, "Carla").get_by_test_id("tally-2")).to_have_text("10")


def test_an_offline_buy_says_not_saved_and_a_retry_records_it_once(
    open_phone: Callable[..., Phone],
) -> None:
    phone = lossy_game(open_phone)
    page = phone.page
    phone.context.set_offline(True)
    buy_row(page, "Ben").get_by_role("button", name="Buy: Ben", exact=True).click()
    expect(buy_row(page, "Ben").get_by_role("alert")).to_contain_text("Not saved")
    phone.back_online()
    buy_row(page, "Ben").get_by_role("button", name="Try again").click()
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("2 buys left (1/3)")
    expect(page.get_by_text("Not saved")).to_have_count(0)


def test_a_retry_after_an_unclear_failure_records_once(open_phone: Callable[..., Phone]) -> None:
    phone = lossy_game(open_phone)
    page = phone.page

    def reached_but_answer_lost(route: Route) -> None:
        route.fetch()  # the server records the buy, then the answer never arrives
        route.abort("connectionreset")

    page.route("**/buys", reached_but_answer_lost, times=1)
    buy_row(page, "Ben").get_by_role("button", name="Buy: Ben", exact=True).click()
    expect(buy_row(page, "Ben").get_by_role("alert")).to_contain_text("Not saved")
    buy_row(page, "Ben").get_by_role("button", name="Try again").click()
    expect(page.get_by_text("Not saved")).to_have_count(0)
    page.reload()
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("2 buys left (1/3)")


def test_another_tap_after_a_lost_answer_is_recorded(open_phone: Callable[..., Phone]) -> None:
    phone = lossy_game(open_phone)
    page = phone.page

    def reached_but_answer_lost(route: Route) -> None:
        route.fetch()  # the server records Ben's buy, then the answer never arrives
        route.abort("connectionreset")

    page.route("**/buys", reached_but_answer_lost, times=1)
    buy_row(page, "Ben").get_by_role("button", name="Buy: Ben", exact=True).click()
    expect(buy_row(page, "Ben").get_by_role("alert")).to_contain_text("Not saved")
    # The same form, the same action id: Carla's buy is another tap, not a duplicate.
    buy(page, "Carla", "2 buys left (1/3)")
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("2 buys left (1/3)")


def test_saving_a_round_offline_keeps_the_form_and_saves_on_retry(
    open_phone: Callable[..., Phone],
) -> None:
    phone = lossy_game(open_phone, round_form=True)
    page = phone.page
    for name, points in (("Ben", "20"), ("Carla", "30"), ("Dan", "40")):
        hand(page, name).get_by_label("Points").fill(points)
    phone.context.set_offline(True)
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("alert")).to_contain_text("Not saved")
    expect(hand(page, "Ben").get_by_label("Points")).to_have_value("20")
    phone.back_online()
    page.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")


def test_a_server_error_says_not_saved_and_keeps_the_tap(open_phone: Callable[..., Phone]) -> None:
    phone = open_phone()
    phone.allow(500)
    page = phone.page
    start_game(page)
    page.route("**/buys", lambda route: route.fulfill(status=500, body="boom"), times=1)
    buy_row(page, "Ben").get_by_role("button", name="Buy: Ben", exact=True).click()
    expect(buy_row(page, "Ben").get_by_role("alert")).to_have_text(
        re.compile("^Buy: Ben — Not saved: the server had a problem.")
    )
    buy_row(page, "Ben").get_by_role("button", name="Try again").click()
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("2 buys left (1/3)")


def test_the_stock_ends_a_may_i_round_only_on_its_second_run_out(page: Page) -> None:
    start_game(page)
    open_round_form(page)
    page.get_by_label("Nobody: the stock ended the round").check()
    for name, points in (("Anna", "20"), ("Ben", "20"), ("Carla", "30"), ("Dan", "40")):
        hand(page, name).get_by_label("Points").fill(points)
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("group", name="Who went out?").get_by_role("alert")).to_contain_text(
        "The stock ends the round only when it runs out a second time"
    )
    page.get_by_role("link", name="Back to the round").click()
    stock = page.locator("#stock")
    stock.get_by_role("button", name="The stock ran out").click()
    expect(stock.get_by_test_id("run-outs")).to_have_text("The stock ran out 1 time this round.")
    stock.get_by_role("button", name="The stock ran out").click()
    expect(page).to_have_url(re.compile(r"/rounds/1$"))
    page.get_by_role("link", name="Back to the round").click()
    expect(page.locator("#buys").get_by_role("button", name="Buy")).to_have_count(0)
