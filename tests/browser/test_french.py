"""A French table plays a round of Rami Contrat: the scorekeeper's phone and a seat's phone.

Every French word comes from the committed catalog, as in test_german.py: a changed
translation changes what the test looks for, a missing one fails it. The seat calls
« Puis-je ? » (the sheet's family says the call in French), the scorekeeper grants it, the seat
sends its own hand and the scorekeeper says the others in one French line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Phone
from tests.browser.test_lengths import SMALL_PHONE
from tests.browser.test_seats import seat_url
from tests.web.test_languages import catalog, plural, translated

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Bob", "Carl", "Denise"]
FR = "fr"
# English the French screens would show if a message were missed: whole words, any case.
ENGLISH = ["Round", "Buy", "buys", "left", "Score sheet", "Dealer", "Stock", "went out", "Save"]


def fr(msgid: str, **values: object) -> str:
    """The French catalog's translation of a message, filled in."""
    words = translated(FR, msgid)
    return words % values if values else words


def fr_n(msgid: str, count: int) -> str:
    """The French catalog's plural form of a message for this count, filled in."""
    return plural(FR, msgid, count) % {"num": count, "count": count}


def sheet_call() -> str:
    """The call as a game of the Contract Rummy sheet's family says it in French."""
    entry = catalog(FR).get("May I?", context="contract-rummy")
    assert entry is not None
    return str(entry.string)


def assert_french(page: Page, where: str) -> None:
    """The page is French, and no listed English word is left on it."""
    expect(page.locator("html")).to_have_attribute("lang", FR)
    body = page.inner_text("body")
    left = [w for w in ENGLISH if re.search(rf"\b{re.escape(w)}\b", body, re.IGNORECASE)]
    assert not left, f"English on the French {where}: {left}"


def start_french_game(page: Page) -> None:
    """Start a game of Rami Contrat through the French form: Anna deals, Bob plays first."""
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", FR)
    switch = page.locator("#language-switch")
    expect(switch.get_by_role("button", name="FR", exact=True)).to_have_attribute(
        "aria-current", "true"
    )
    page.get_by_role("link", name=fr("Start a game")).click()
    page.get_by_label(fr("Rule set")).select_option(label=fr("Contract Rummy"))
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(fr("Seat %(number)s", number=seat), exact=True).fill(name)
    page.get_by_label(fr("First dealer")).select_option(label=fr("Seat %(number)s", number=1))
    page.get_by_role("button", name=fr("Start the game")).click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_contain_text(fr("Round %(number)s of %(total)s", number=1, total=7))


def hand(page: Page, name: str) -> Locator:
    """A player's hand on the end-of-round form."""
    return page.get_by_role("group", name=name, exact=True)


def test_a_french_table_plays_a_round_on_the_scorekeepers_and_a_seats_phone(
    open_phone: Callable[..., Phone], artifacts: Path
) -> None:
    keeper = open_phone(locale="fr-FR")
    page = keeper.page
    start_french_game(page)
    game_url = page.url
    assert_french(page, "round screen")
    page.goto(f"{game_url}/share")
    carl_url = seat_url(page, 2)
    page.goto(game_url)

    # Carl's phone: his seat in French, the call button says « Puis-je ? ».
    carl = open_phone(locale="fr-FR").page
    carl.goto(carl_url)
    expect(carl.get_by_test_id("seat")).to_contain_text(fr("Your seat: %(name)s", name="Carl"))
    call = carl.get_by_test_id("call")
    expect(call).to_have_text(sheet_call())
    assert call.inner_text() == "Puis-je\u202f?"  # a narrow no-break space before the ?
    assert_french(carl, "seat page")
    call.click()
    expect(carl.get_by_test_id("call-status")).to_have_text(
        fr("You called “%(call)s”: the scorekeeper decides.", call=sheet_call())
    )

    # The scorekeeper's phone shows the call in French and grants it with one tap.
    calls = page.locator("#calls")
    expect(calls.get_by_test_id("call-2")).to_have_text(
        fr("%(name)s: “%(call)s”", name="Carl", call=sheet_call())
    )
    calls.get_by_test_id("grant-call").click()
    expect(calls).to_contain_text(fr("Buy recorded for %(name)s.", name="Carl"))
    expect(carl.get_by_test_id("call-status")).to_have_text(fr("Your buy is recorded."))
    expect(carl.get_by_test_id("seat-buys")).to_contain_text(fr_n("%(num)d buy this round", 1))
    page.screenshot(path=str(artifacts / "fr-round-screen.png"), full_page=True)

    # Carl counts his own hand on his phone and sends it.
    pad = carl.get_by_test_id("own-hand")
    pad.get_by_label(fr("Points")).fill("35")
    pad.get_by_test_id("send-hand").click()
    expect(carl.get_by_test_id("hand-status")).to_contain_text(
        fr("Your hand is with the scorekeeper: %(points)s points.", points=35)
    )
    carl.screenshot(path=str(artifacts / "fr-seat.png"), full_page=True)

    # The scorekeeper says the others in one French line; Carl's hand came from his phone.
    page.get_by_role("link", name=fr("End of round: enter the hands")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        fr("End of round %(number)s", number=1)
    )
    expect(hand(page, "Carl").get_by_label(fr("Points"))).to_have_value("35")
    phones = page.get_by_test_id("phone-hands")
    expect(phones.get_by_test_id("entry-2")).to_contain_text(fr("%(name)s:", name="Carl"))
    assert "Anna\u00a0:" in phones.get_by_test_id("entry-0").inner_text()  # French spacing
    said = page.get_by_label(fr("The round in one line"))
    said.fill("Anna est sortie, Bob trente-cinq, Denise douze")
    said.press("Enter")
    expect(hand(page, "Bob").get_by_label(fr("Points"))).to_have_value("35")
    expect(hand(page, "Denise").get_by_label(fr("Points"))).to_have_value("12")
    expect(page.get_by_role("radio", name="Anna")).to_be_checked()
    assert_french(page, "end-of-round form")
    page.get_by_role("button", name=fr("Save the round")).last.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(
        fr("Round %(number)s of %(total)s", number=2, total=7)
    )

    # Both phones move on: the seat is told its hand counted, the sheet shows round 1.
    expect(carl.get_by_test_id("hand-saved")).to_have_text(
        fr("Round %(number)s is saved: your hand counts %(points)s points.", number=1, points=35)
    )
    page.get_by_role("link", name=fr("Score sheet")).click()
    expect(page.locator("#sheet tbody tr").first.locator(".score")).to_have_text(
        ["0", "35", "35", "12"]
    )
    assert_french(page, "score sheet")


def test_the_header_with_five_languages_fits_a_small_phone_at_200_percent(
    page: Page, live_server: str
) -> None:
    page.set_viewport_size(SMALL_PHONE)
    page.goto("/")
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    buttons = page.locator("#language-switch button")
    expect(buttons).to_have_text(["EN", "DE", "NL", "ES", "FR"])
    for button in buttons.all():
        expect(button).to_be_in_viewport()
    outside = buttons.evaluate_all(
        "(bs) => bs.filter((b) => b.getBoundingClientRect().right > innerWidth)"
    )
    assert outside == []
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "scrolls sideways"
