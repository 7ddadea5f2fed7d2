"""The sheet and the round form on small screens (issue 35.6): every player's running total on
the sheet's first screen at 390×844, at least one at 320 px with 200 % text, the ✎ that corrects
a round in sight, and the stock's choice on the round form never cut; five and eight long
names, in every language, on a server whose answers come 600 ms late."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Phone
from tests.browser.test_lengths import LANGUAGES, LONG_NAMES, speak

pytestmark = pytest.mark.browser

FIVE = ["Bartholomeus", "Concepción", "Marie-Claire", "Oma", "Jo"]  # and test_lengths.LONG_NAMES
SIZES = {
    "390px": ({"width": 390, "height": 844}, "100%"),
    "320px-200%": ({"width": 320, "height": 640}, "200%"),
}
# Whether each element is wholly on the first screen and on top there (not clipped by the
# sheet's scrolling box, not under its sticky column): its left edge, middle and right edge.
IN_SIGHT = """
(elements) => elements.map((el) => {
  const r = el.getBoundingClientRect();
  if (!r.width || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) {
    return false;
  }
  const y = (r.top + r.bottom) / 2;
  return [r.left + 1, (r.left + r.right) / 2, r.right - 1]
    .every((x) => el.contains(document.elementFromPoint(x, y)));
})
"""
# Texts that do not show whole: cut by an ellipsis or by the screen's edge.
CUT_CHOICES = """
(texts) => texts.filter((el) => el.scrollWidth > el.clientWidth + 1
  || el.getBoundingClientRect().right > innerWidth).map((el) => el.textContent)
"""


def played_game(page: Page, players: list[str], rounds: int = 3) -> str:
    """A game of these players with some rounds ended, through the API; its edit link's URL."""
    started = page.request.post(
        "/api/v1/games", data={"ruleset": "may-i", "players": players, "first_dealer": 0}
    )
    assert started.ok, started.text()
    game = started.json()
    game_id, token = game["id"], game["links"]["edit_token"]
    for number in range(1, rounds + 1):
        out = number % len(players)
        hands = {str(s): {"points": 40 + 5 * s} for s in range(len(players)) if s != out}
        ended = page.request.put(
            f"/api/v1/games/{game_id}/rounds/{number}",
            headers={"Authorization": f"Bearer {token}"},
            data={"went_out": out, "hands": hands},
        )
        assert ended.ok, ended.text()
    return f"/g/{game_id}/{token}"


def first_screen(page: Page, url: str, text: str) -> None:
    """Open a screen at the top, its text at that size."""
    page.goto(url)
    page.evaluate(f"document.documentElement.style.fontSize = '{text}'")


def sheet_in_sight(page: Page) -> tuple[list[bool], list[bool]]:
    """Which totals and which names are in sight on the first screen."""
    totals = page.locator("#sheet td.total").evaluate_all(IN_SIGHT)
    names = page.locator("#sheet thead tr").first.locator("th:not(:first-child)")
    return totals, names.evaluate_all(IN_SIGHT)


def pen_in_sight(page: Page, at_top: bool) -> bool:
    """Whether round 1's ✎ is in sight: on the first screen, or once the page (not the sheet's
    own box) is scrolled down to it."""
    pen = page.locator("#sheet tbody tr").first.locator(".edit-link")
    if not at_top:
        pen.evaluate("(el) => scrollBy(0, el.getBoundingClientRect().bottom - innerHeight + 8)")
    return bool(pen.evaluate_all(IN_SIGHT) == [True])


@pytest.mark.parametrize("size", SIZES)
def test_every_total_is_on_the_sheets_first_screen_and_no_choice_is_cut(
    open_slow_phone: Callable[..., Phone], size: str, artifacts: Path
) -> None:
    viewport, text = SIZES[size]
    phone = open_slow_phone()
    page = phone.page
    page.set_viewport_size(viewport)
    games = {len(family): played_game(page, family) for family in (FIVE, LONG_NAMES)}
    page.goto("/")
    home, found = page.url, []
    for language in LANGUAGES:
        speak(page, home, language)
        for players, game in games.items():
            where = f"{language}, {players} players, {size}"
            first_screen(page, f"{game}/sheet", text)
            expect(page.locator("html")).to_have_attribute("lang", language)
            page.screenshot(path=artifacts / f"small-sheet-{language}-{players}-{size}.png")
            totals, names = sheet_in_sight(page)
            if viewport["width"] == 390 and not all(totals):
                found.append(f"{where}: totals in sight {totals}")
            if not any(totals):
                found.append(f"{where}: no total in sight")
            if any(t and not n for t, n in zip(totals, names, strict=False)):
                found.append(f"{where}: a total in sight without its name {names}")
            # Round 1's row is below the first screen at 320 px and 200 %; its ✎ never aside.
            if not pen_in_sight(page, at_top=viewport["width"] == 390):
                found.append(f"{where}: the ✎ of round 1 is out of sight")
            first_screen(page, f"{game}/rounds/4", text)
            stock = page.locator(".went-out label.chip:has(input[value=stock]) > span")
            cut = stock.evaluate_all(CUT_CHOICES)
            found += [f"{where}: round form cuts {words!r}" for words in cut]
    assert not found, "\n".join(found)
