"""A house rule set built on a 390-px phone, saved, and played: its card, buys and hands."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import Phone
from .test_full_game import buy, buy_row, hand, save_round, tap_cards
from .test_phones import _axe_clean, _no_sideways_scroll, _targets_are_big_enough

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Ben", "Carla"]


def no_sideways_scroll(page: Page) -> None:
    """Nothing on the page is wider than the phone, even at 200 % text; taps and axe pass too."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _no_sideways_scroll(page, page.url)
    _targets_are_big_enough(page)
    for scheme in ("light", "dark"):
        _axe_clean(page, scheme)


def change(page: Page, label: str, value: str, within: str = "#editor") -> None:
    """Type into a field and leave it, as a thumb does: the editor checks the change."""
    field = page.locator(within).get_by_label(label, exact=True)
    with page.expect_response(re.compile(r"/house-rules/check$")):
        field.fill(value)
        field.press("Tab")
    settled(page)


def settled(page: Page) -> None:
    """Wait until htmx has swapped the answer in: typing into the old form would be lost."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def build_house_rules(page: Page, artifacts: Path) -> None:
    """Aces high, 5 buys per game, wild 2s worth 20, and an eighth round of a book + a run of 7."""
    page.goto("/")
    page.get_by_role("link", name="House rules: make your own").click()
    page.get_by_label("Start from").select_option(label="May I?")
    page.get_by_role("button", name="Open the editor").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New house rules")
    change(page, "Name of these house rules", "Friday rules")
    with page.expect_response(re.compile(r"/house-rules/check$")):
        page.get_by_label("Aces in runs").select_option("high_or_low")
    settled(page)
    change(page, "Buys per player per game", "5")
    with page.expect_response(re.compile(r"/house-rules/check$")):
        page.get_by_label("2s are wild too").check()
    settled(page)
    change(page, "2", "20", within="#values")
    with page.expect_response(re.compile(r"/house-rules/check$")):
        page.get_by_role("button", name="Add a round").click()
    settled(page)
    round_8 = page.locator("#round-8")
    expect(round_8).to_be_visible()
    change(page, "Books", "1", within="#round-8")
    change(page, "Runs", "1", within="#round-8")
    change(page, "Cards per run", "7", within="#round-8")
    # A deal too small for the contract is refused at its field, with the reason.
    change(page, "Cards dealt", "2", within="#round-8")
    expect(round_8.get_by_role("alert")).to_contain_text(
        "2 cards, one draw and 6 cards from buys cannot make a contract of 10 cards."
    )
    change(page, "Cards dealt", "12", within="#round-8")
    expect(round_8.get_by_role("alert")).to_have_count(0)
    card = page.locator("#house-card")
    expect(card.locator("tbody tr")).to_have_count(8)
    expect(card).to_contain_text("Friday rules")
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "house-rules-editor.png"), full_page=True)
    page.get_by_role("button", name="Save these house rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("House rules")
    no_sideways_scroll(page)


def test_a_house_rule_set_built_saved_and_played_on_a_phone(page: Page, artifacts: Path) -> None:
    page.set_default_timeout(10_000)
    build_house_rules(page, artifacts)
    page.get_by_role("link", name="Start a game").first.click()
    expect(page.get_by_label("Rule set")).to_have_value(re.compile(r"^house-\d+$"))
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("First dealer").select_option(label="Seat 1")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 1 of 8")
    header = page.locator("#round-header")
    expect(header).to_contain_text("At most 5 buys per game.")
    expect(header).to_contain_text("2s are wild; a 2 left in hand counts 20.")

    # Five buys in the game: three in round 1, two in round 2; the sixth is refused.
    for shows in (
        "2 buys left (1/3, 1/5 this game)",
        "1 buy left (2/3, 2/5 this game)",
        "0 buys left (3/3, 3/5 this game)",
    ):
        buy(page, "Ben", shows)
    page.get_by_role("link", name="End of round: enter the hands").click()
    page.get_by_role("group", name="Who went out?").get_by_label("Anna", exact=True).check()
    hand(page, "Ben").get_by_label("Points").fill("5")
    # A hand with two 2s, wild and worth 20 each.
    assert tap_cards(page, "Carla", ["2", "2"]) == [20, 40]
    save_round(page, "Round 2 of 8")
    buy(page, "Ben", "1 buy left (1/3, 4/5 this game)")  # the game's cap leaves one
    buy(page, "Ben", "0 buys left (2/3, 5/5 this game)")
    buy_row(page, "Ben").get_by_role("button", name="Buy: Ben", exact=True).click()
    expect(buy_row(page, "Ben").get_by_role("alert")).to_have_text(
        "The limit of 5 buys per game is reached."
    )
    # A dispute: is 7♥ 7♠ 2♣ a book? With wild 2s it is.
    checker = page.locator("#checker")
    checker.get_by_text("Check a meld or a laydown").click()
    checker.get_by_label("one book").check()
    for suit, rank in (("Hearts", "7"), ("Spades", "7"), ("Clubs", "2")):
        page.locator("#checker").get_by_label(suit).check()
        cards_before = page.locator("#checker-cards").input_value()
        page.locator("#checker").get_by_role("button", name=f"Add {rank}", exact=True).click()
        expect(page.locator("#checker-cards")).not_to_have_value(cards_before)
    expect(page.locator("#checker-cards")).to_have_value("7H 7S 2C")
    page.locator("#checker").get_by_role("button", name="Check", exact=True).click()
    expect(page.get_by_test_id("verdict")).to_have_text("Valid under this game's rules.")
    # Who is down: the table marks Ben.
    page.get_by_test_id("down-1").click()
    expect(page.get_by_test_id("who-is-down")).to_have_text("Down: Ben.")
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "house-rules-round-2.png"), full_page=True)

    page.get_by_role("link", name=re.compile("rules", re.I)).first.click()
    card = page.locator("#rules-card")
    expect(card).to_contain_text("Friday rules")
    for line in (
        "The ace is low or high: A-2-3-4 or J-Q-K-A, not both.",
        "At most 5 buys per game.",
        "Every 2 is wild as well; a 2 left in hand counts 20.",
    ):
        expect(card).to_contain_text(line)
    expect(card.locator("tbody tr").nth(7)).to_contain_text("1 book + 1 run of 7")
    expect(card.locator("tbody tr")).to_have_count(8)
    no_sideways_scroll(page)


def test_another_phone_sees_a_set_only_through_its_share_link(
    page: Page, open_phone: Callable[..., Phone]
) -> None:
    page.goto("/house-rules/new?from=may-i")
    change(page, "Name of these house rules", "Secret rules")
    page.get_by_role("button", name="Save these house rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("House rules")
    expect(page.locator("main")).to_contain_text("Secret rules")
    edit_link = page.get_by_role("link", name="Edit").first.get_attribute("href") or ""
    assert re.fullmatch(r"/house-rules/\d+/[A-Za-z0-9_-]{32,}/edit", edit_link), edit_link

    other = open_phone()
    other.allow(404)
    for path in ("/", "/house-rules/", "/games/new"):
        other.page.goto(path)
        expect(other.page.locator("main")).not_to_contain_text("Secret rules")
    ruleset_id = edit_link.split("/")[2]
    assert other.page.goto(f"/house-rules/{ruleset_id}/guessed/edit").status == 404

    page.get_by_role("link", name="Share").first.click()
    shared = page.locator(".share-link a").get_attribute("href") or ""
    other.page.goto(shared)
    other.page.get_by_role("button", name="Save these house rules on this phone").click()
    expect(other.page.get_by_role("heading", level=1)).to_have_text("House rules")
    expect(other.page.locator("main")).to_contain_text("Secret rules")
    copy_link = other.page.get_by_role("link", name="Edit").first.get_attribute("href")
    assert copy_link != edit_link  # the other phone's own copy, with its own link
