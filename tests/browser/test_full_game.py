"""A whole game of May I? played in Chromium at phone size, through clicks and typing only."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]

# Hands per round as the table counted them (None: the stock ended the round). Tapped hands
# are card codes; round 3's Ben is entered as 25 and corrected to 15 through the score sheet.
ROUNDS: list[tuple[str | None, dict[str, int | list[str]]]] = [
    ("Anna", {"Ben": 25, "Carla": 40, "Dan": 55}),
    ("Ben", {"Anna": 10, "Carla": ["K", "JK"], "Dan": 20}),
    ("Anna", {"Ben": 25, "Carla": 35, "Dan": 40}),
    (None, {"Anna": 20, "Ben": ["5"], "Carla": 45, "Dan": 30}),
    ("Dan", {"Anna": 30, "Ben": 20, "Carla": 15}),
    ("Anna", {"Ben": 10, "Carla": 30, "Dan": 25}),
    ("Ben", {"Anna": 15, "Carla": 50, "Dan": 60}),
]
# The sheet after the correction, counted by hand: each round's scores, then running totals.
SCORES = [
    [0, 25, 40, 55],
    [10, 0, 25, 20],
    [0, 15, 35, 40],
    [20, 5, 45, 30],
    [30, 20, 15, 0],
    [0, 10, 30, 25],
    [15, 0, 50, 60],
]
RUNNING = [
    [0, 25, 40, 55],
    [10, 25, 65, 75],
    [10, 40, 100, 115],
    [30, 45, 145, 145],
    [60, 65, 160, 145],
    [60, 75, 190, 170],
    [75, 75, 240, 230],
]
TOTALS = [75, 75, 240, 230]


def start_game(page: Page, players: list[str] = PLAYERS) -> None:
    """Open the app, fill in the new-game form and start: the first player deals first."""
    page.goto("/")
    page.get_by_role("link", name="Start a game").click()
    page.get_by_label("Rule set").select_option(label="May I?")
    for seat, name in enumerate(players, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("First dealer").select_option(label="Seat 1")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 1 of 7")


def buy_row(page: Page, name: str) -> Locator:
    """A player's line in the buys list."""
    return (
        page.locator("#buys").get_by_role("listitem").filter(has=page.get_by_text(name, exact=True))
    )


def buy(page: Page, name: str, shows: str) -> None:
    """Tap a player's Buy button and wait for the new count."""
    row = buy_row(page, name)
    row.get_by_role("button", name=f"Buy: {name}", exact=True).click()
    expect(row.get_by_test_id(re.compile(r"buys-\d"))).to_have_text(shows)


def hand(page: Page, name: str) -> Locator:
    """A player's hand on the end-of-round form."""
    return page.get_by_role("group", name=name, exact=True)


def rank_button(cards: Locator, code: str, taps: str | None = None) -> Locator:
    """A card button of a hand; once tapped its name carries the count ("K, 2 tapped")."""
    suffix = r"(, \d+ tapped)?" if taps is None else rf", {taps} tapped"
    return cards.get_by_role("button", name=re.compile(rf"^{re.escape(code)}{suffix}$"))


def tap_cards(page: Page, name: str, codes: list[str]) -> list[int]:
    """Open a hand's card buttons, tap each card, and return the running sum after each tap."""
    cards = hand(page, name)
    cards.get_by_text("Tap the cards").click()
    tapped: Counter[str] = Counter()
    sums: list[int] = []
    for code in codes:
        rank_button(cards, code).click()
        tapped[code] += 1
        # The tap counts on the phone at once; the server then says the sum ("…" meanwhile).
        expect(rank_button(cards, code, str(tapped[code]))).to_be_visible()
        tally = cards.get_by_test_id(re.compile(r"tally-\d"))
        expect(tally).not_to_have_text("…")
        sums.append(int(tally.inner_text()))
    return sums


def enter_hands(page: Page, out: str | None, hands: dict[str, int | list[str]]) -> None:
    """Choose who went out (unless the stock did) and type or tap every other hand."""
    if out is not None:
        page.get_by_role("group", name="Who went out?").get_by_label(out, exact=True).check()
    for name, held in hands.items():
        if isinstance(held, int):
            hand(page, name).get_by_label("Points").fill(str(held))
        else:
            tap_cards(page, name, held)


def save_round(page: Page, next_heading: str) -> None:
    """Save the end-of-round form and land back on the game."""
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("heading").filter(has_text=next_heading)).to_be_visible()


def play_round(page: Page, number: int) -> None:
    """End round `number` from the round screen with the hands in ROUNDS."""
    out, hands = ROUNDS[number - 1]
    page.get_by_role("link", name="End of round: enter the hands").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"End of round {number}")
    enter_hands(page, out, hands)
    save_round(page, f"Round {number + 1} of 7" if number < 7 else "Final standings")


def test_a_whole_game_of_may_i_at_phone_size(page: Page, artifacts: Path) -> None:
    start_game(page)
    expect(page.locator(".dealer")).to_have_text("Anna")

    # Round 1: Ben buys three times, the fourth is refused, one is taken back.
    buy(page, "Ben", "2 buys left (1/3)")
    buy(page, "Ben", "1 buy left (2/3)")
    buy(page, "Ben", "0 buys left (3/3)")
    buy_row(page, "Ben").get_by_role("button", name="Buy: Ben", exact=True).click()
    expect(buy_row(page, "Ben").get_by_role("alert")).to_have_text(
        "The limit of 3 buys per round is reached."
    )
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("0 buys left (3/3)")
    page.get_by_role("button", name="Take back a buy of Ben").click()
    expect(buy_row(page, "Ben").get_by_test_id("buys-1")).to_have_text("1 buy left (2/3)")

    # The arbiter: Anna discards, Carla and Dan call; Carla sits nearer and gets the card.
    page.get_by_text("Ask the arbiter").click()
    page.get_by_role("group", name="Who discarded?").get_by_label("Anna").check()
    called = page.get_by_role("group", name="Who called?")
    called.get_by_label("Carla").check()
    called.get_by_label("Dan").check()
    page.get_by_role("button", name="Who gets the card?").click()
    ruling = page.locator("#arbiter").get_by_role("status")
    expect(ruling.get_by_test_id("ruling-winner")).to_have_text("Carla gets the card.")
    expect(ruling).to_contain_text("The nearest caller clockwise buys the card")
    expect(ruling).to_contain_text("Dan: A caller nearer the discarder's left gets the card.")
    page.get_by_role("button", name="Record the buy for Carla").click()
    expect(buy_row(page, "Carla").get_by_test_id("buys-2")).to_have_text("2 buys left (1/3)")
    page.screenshot(path=str(artifacts / "round-screen.png"), full_page=True)

    play_round(page, 1)

    # Round 2: Carla's hand is tapped in: K + JK = 25.
    page.get_by_role("link", name="End of round: enter the hands").click()
    out, hands = ROUNDS[1]
    enter_hands(page, out, {n: h for n, h in hands.items() if n != "Carla"})
    assert tap_cards(page, "Carla", ["K", "JK"]) == [10, 25]
    save_round(page, "Round 3 of 7")

    play_round(page, 3)

    # Round 4: the stock runs out twice; the second time the round ends and all hands count.
    stock = page.locator("#stock")
    stock.get_by_role("button", name="The stock ran out").click()
    expect(stock.get_by_role("status")).to_have_text(
        "Shuffle the discard pile, keep its top card, and play on."
    )
    expect(stock.get_by_test_id("run-outs")).to_have_text("The stock ran out 1 time this round.")
    stock.get_by_role("button", name="The stock ran out").click()
    expect(page).to_have_url(re.compile(r"/rounds/4$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("End of round 4")
    expect(page.get_by_label("Nobody: the stock ended the round")).to_be_checked()
    out, hands = ROUNDS[3]
    enter_hands(page, out, hands)
    save_round(page, "Round 5 of 7")

    play_round(page, 5)

    # Correct round 3 from the score sheet: Ben held 15, not 25.
    page.get_by_role("link", name="Score sheet").click()
    page.get_by_role("link", name="Correct round 3").click()
    expect(hand(page, "Ben").get_by_label("Points")).to_have_value("25")
    hand(page, "Ben").get_by_label("Points").fill("15")
    save_round(page, "Score sheet")  # a correction goes back to the sheet it was made from
    expect(page.locator("#history")).to_contain_text("Round 3: Ben 25 → 15")
    page.get_by_role("link", name="Back to the round").click()

    play_round(page, 6)
    play_round(page, 7)

    # Anna and Ben tie on 75; Anna went out in three rounds, Ben in two: Anna wins.
    standings = page.locator("#standings")
    first = standings.get_by_role("listitem").first
    expect(first).to_contain_text("Anna")
    expect(first).to_contain_text("75")
    explanation = standings.locator(".explanation")
    expect(explanation.first).to_have_text("Anna and Ben tied on 75.")
    expect(explanation.last).to_have_text("Anna wins on rounds gone out.")
    page.screenshot(path=str(artifacts / "final-standings.png"), full_page=True)

    page.get_by_role("link", name="Score sheet").click()
    rows = page.locator("#sheet tbody tr")
    expect(rows).to_have_count(7)
    for number in range(7):
        cells = rows.nth(number).get_by_role("cell")
        expect(cells.locator(".score")).to_have_text([str(s) for s in SCORES[number]])
        expect(cells.locator(".running")).to_have_text([str(s) for s in RUNNING[number]])
    expect(page.locator("#sheet td.total")).to_have_text([str(t) for t in TOTALS])
    # Round 1's buys stayed on the sheet: Ben kept two of his three, Carla bought once.
    expect(rows.first.get_by_role("cell").locator(".buys-used")).to_have_text(["••", "•"])


def test_round_screen_fits_a_phone_and_buy_buttons_are_tappable(page: Page) -> None:
    start_game(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the round screen scrolls sideways: {width}px wide"
    buttons = page.locator("#buys").get_by_role("button", name=re.compile(r"^Buy: "))
    expect(buttons).to_have_count(4)
    for index in range(4):
        box = buttons.nth(index).bounding_box()
        assert box is not None
        assert box["height"] >= 44, f"Buy button {index + 1} is {box['height']}px tall"
