"""A German-speaking table plays a round of May I? in German, at phone size.

Every German word comes from the committed catalog (`translated`, `plural`), so the test follows
the catalog: a changed translation changes what the test looks for, a missing one fails it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Phone
from tests.browser.test_full_game import buy_row
from tests.web.test_languages import FACES, catalog, plural, translated

pytestmark = pytest.mark.browser

PLAYERS = ["Anke", "Bernd", "Claudia", "Dieter"]
DE = "de"

# English the app shows on the round screen, the end-of-round form and the score sheet. None
# may be left on a German page. Matched as whole words, ignoring case; names and words German
# shares with English ("Joker", "May I?", "Scorekeeper") are not on the list.
ENGLISH = [
    "Round",
    "Rounds",
    "Buy",
    "buys",
    "left",
    "Score sheet",
    "Dealer",
    "Deal",
    "Plays first",
    "Decks",
    "cards each",
    "book",
    "books",
    "run",
    "runs",
    "Standings",
    "No round played yet",
    "End of round",
    "enter the hands",
    "The stock ran out",
    "Stock",
    "went out",
    "Who went out",
    "Nobody",
    "Points",
    "Tap the cards",
    "tapped",
    "Clear",
    "Save the round",
    "Back to the round",
    "Share",
    "Rules",
    "Undo",
    "Total",
    "History",
    "Ask the arbiter",
    "Who discarded",
    "Who called",
    "limit",
    "reached",
    "the",
    "and",
    "of",
    "each",
]


def de(msgid: str) -> str:
    """The German catalog's translation of an English message."""
    return translated(DE, msgid)


def de_n(msgid: str, count: int, name: str = "num") -> str:
    """The German catalog's plural form of a message, filled in with its count."""
    return plural(DE, msgid, count) % {name: count}


def english_left_in(text: str) -> list[str]:
    """The English the text still holds: listed words and the catalog's multi-word phrases."""
    found = [word for word in ENGLISH if re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE)]
    # Every English phrase of two words or more that German says differently, cut at the
    # placeholders ("%(name)s went out" gives "went out").
    for message in catalog(DE):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        # Skipped: what German writes the same, and the Contract Rummy sheet's own wording
        # of a message (its context), whose plain entry is checked. An untranslated message
        # shows in English.
        if not message.id or message.context or ids[0] in strings:
            continue
        for msgid in ids:
            for fragment in re.split(r"%\(\w+\)[sd]|%[sd]", msgid):
                phrase = fragment.strip(" .,:;!?“”\"'()")
                if len(phrase.split()) >= 2 and phrase in text:
                    found.append(phrase)
    return sorted(set(found))


def assert_no_english(page: Page, where: str) -> None:
    """No English left in the visible text of the page."""
    left = english_left_in(page.inner_text("body"))
    assert not left, f"English on the German {where}: {left}"


def buy(page: Page, name: str, left: int, used: int) -> None:
    """Tap a player's Kaufen button and wait for the German count ("2 Käufe übrig (1/3)")."""
    row = buy_row(page, name)
    row.get_by_role("button", name=de("Buy: %(name)s") % {"name": name}, exact=True).click()
    count = f"{de_n('%(num)d buy left', left)} ({used}/{used + left})"
    expect(row.get_by_test_id(re.compile(r"buys-\d"))).to_have_text(count)


def hand(page: Page, name: str) -> Locator:
    """A player's hand on the end-of-round form."""
    return page.get_by_role("group", name=name, exact=True)


def rank_button(cards: Locator, letter: str, taps: int = 0) -> Locator:
    """A card button; once tapped its name carries the German count ("B, 1 angetippt")."""
    name = f"{letter}, {de_n('%(num)d tapped', taps)}" if taps else letter
    return cards.get_by_role("button", name=name, exact=True)


def tap_cards(page: Page, name: str, letters: list[str]) -> list[int]:
    """Open a hand's card buttons, tap each card, and return the running sum after each tap."""
    cards = hand(page, name)
    cards.get_by_text(de("Tap the cards")).click()
    sums: list[int] = []
    for number, letter in enumerate(letters):
        before = letters[:number].count(letter)
        rank_button(cards, letter, before).click()
        # The tap counts on the phone at once; the server then says the sum ("…" meanwhile).
        expect(rank_button(cards, letter, before + 1)).to_be_visible()
        tally = cards.get_by_test_id(re.compile(r"tally-\d"))
        expect(tally).not_to_have_text("…")
        sums.append(int(tally.inner_text()))
    return sums


def switch_to_german(phone: Phone) -> None:
    """An English phone taps DE: the app speaks German, and still does on the next page."""
    page = phone.page
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("link", name="Start a game")).to_be_visible()
    page.locator("#language-switch").get_by_role("button", name="DE", exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", DE)
    expect(page.get_by_role("button", name="DE", exact=True)).to_have_attribute(
        "aria-current", "true"
    )
    cookies = {cookie["name"]: cookie["value"] for cookie in phone.context.cookies()}
    assert cookies.get("lang") == DE
    # Remembered: the next page, reached by a plain link, is German although the browser asks
    # for English.
    page.get_by_role("link", name=de("Start a game")).click()
    expect(page.locator("html")).to_have_attribute("lang", DE)
    expect(page.get_by_role("heading", level=1)).to_have_text(de("New game"))


def start_german_game(page: Page) -> None:
    """Open the app in German and start a May I? game through the German form."""
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", DE)
    page.get_by_role("link", name=de("Start a game")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(de("New game"))
    page.get_by_label(de("Rule set")).select_option(label=de("May I?"))
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(de("Seat %(number)s") % {"number": seat}, exact=True).fill(name)
    seat_1 = de("Seat %(number)s") % {"number": 1}
    page.get_by_label(de("First dealer")).select_option(label=seat_1)
    page.get_by_role("button", name=de("Start the game")).click()


def test_a_german_table_plays_a_round_in_german(
    open_phone: Callable[..., Phone], artifacts: Path
) -> None:
    switch_to_german(open_phone())

    page = open_phone(locale="de-DE").page
    start_german_game(page)

    # The round screen: round, contract and dealer in German words.
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_contain_text(de("Round %(number)s of %(total)s") % {"number": 1, "total": 7})
    expect(heading.locator(".contract")).to_have_text(de_n("%(count)s book", 2, "count"))
    expect(page.locator("#round-header")).to_contain_text(de("Dealer"))
    expect(page.locator(".dealer")).to_have_text("Anke")

    # Claudia buys once; Bernd buys three times and his fourth is refused, in German.
    buy(page, "Claudia", left=2, used=1)
    for used in (1, 2, 3):
        buy(page, "Bernd", left=3 - used, used=used)
    bernd = buy_row(page, "Bernd")
    bernd.get_by_role("button", name=de("Buy: %(name)s") % {"name": "Bernd"}, exact=True).click()
    limit = de_n("The limit of %(count)s buy per round is reached.", 3, "count")
    expect(bernd.get_by_role("alert")).to_have_text(limit)
    expect(bernd.get_by_test_id(re.compile(r"buys-\d"))).to_have_text(
        f"{de_n('%(num)d buy left', 0)} (3/3)"
    )
    assert_no_english(page, "round screen")
    page.screenshot(path=str(artifacts / "round-screen-de.png"), full_page=True)

    # The end of round 1: Anke went out, Bernd's hand is tapped in: B + D = 20.
    page.get_by_role("link", name=de("End of round: enter the hands")).click()
    expect(heading).to_have_text(de("End of round %(number)s") % {"number": 1})
    page.get_by_role("group", name=de("Who went out?")).get_by_label("Anke", exact=True).check()
    letters = hand(page, "Bernd").locator("button.rank")
    expect(letters.filter(has_text=re.compile(r"^[A-Z]$"))).to_have_text(["A", *FACES[DE].split()])
    assert tap_cards(page, "Bernd", ["B", "D"]) == [10, 20]
    hand(page, "Claudia").get_by_label(de("Points")).fill("35")
    hand(page, "Dieter").get_by_label(de("Points")).fill("40")
    assert_no_english(page, "end-of-round form")
    page.get_by_role("button", name=de("Save the round")).click()
    expect(heading).to_contain_text(de("Round %(number)s of %(total)s") % {"number": 2, "total": 7})

    # The score sheet: round 1 as the table counted it, in German.
    page.get_by_role("link", name=de("Score sheet")).click()
    expect(heading).to_have_text(de("Score sheet"))
    cells = page.locator("#sheet tbody tr").first.get_by_role("cell")
    expect(cells.locator(".score")).to_have_text(["0", "20", "35", "40"])
    expect(cells.locator(".cards").first).to_have_text("B D")
    assert_no_english(page, "score sheet")
