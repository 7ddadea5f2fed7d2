"""Play again at a real table (issue 35.9): the scorekeeper presses it on the finished game, and
two seat phones and a view phone still on that game are on the next one within one poll, each
on its own page there (its seat, the view), without anyone typing or sharing a link."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Phone, _fail_on, slowed
from tests.conftest import serving
from tests.databases import close, make_app
from tests.tables.helpers import TIED_GAME

pytestmark = pytest.mark.browser

# One poll: its 2 s interval, its 600 ms answer and the next page's, with room for two shared
# cores; a phone left to a second poll (or a reload by hand) would take longer than this.
ONE_POLL_MS = 5_500
PLAYERS = ["Anna", "Ben", "Carla", "Dan"]
SMALL = ({"width": 320, "height": 640}, "200%")
LARGE = ({"width": 390, "height": 844}, "100%")


@dataclass
class Served:
    """The app on a live server whose answers come late, and its URL."""

    app: Flask
    url: str


@pytest.fixture
def slow_server(database_url: str, tmp_path: Path) -> Iterator[Served]:
    """The app with CSRF on, every answer but a static file's 600 ms late (conftest.slowed)."""
    app = make_app(database_url, str(tmp_path), WTF_CSRF_ENABLED=True)
    app.wsgi_app = slowed(app.wsgi_app)  # type: ignore[method-assign]
    with serving(app) as url:
        yield Served(app, url)
    close(app)


def finished_game(app: Flask) -> dict[str, Any]:
    """A whole game played through the API (it needs no CSRF token); its links."""
    api = app.test_client()
    body = {"ruleset": "may-i", "players": PLAYERS, "first_dealer": 0}
    created: Any = api.post("/api/v1/games", json=body).json
    edit = {"Authorization": f"Bearer {created['links']['edit_token']}"}
    for number, (out, hands) in enumerate(TIED_GAME, start=1):
        sent = {str(PLAYERS.index(name)): {"points": points} for name, points in hands.items()}
        went_out = None if out is None else PLAYERS.index(out)
        round_end = {"went_out": went_out, "hands": sent}
        answer = api.put(f"/api/v1/games/1/rounds/{number}", json=round_end, headers=edit)
        assert answer.status_code in (200, 201), answer.get_data(as_text=True)
    return dict(created)


def phone_at(browser: Browser, url: str, size: tuple[dict[str, int], str]) -> Phone:
    """A phone of this size and text size."""
    phone = Phone(browser, url)
    phone.page.set_viewport_size(size[0])
    return phone


def open_at(phone: Phone, path: str, text: str) -> Page:
    """Open a page at a text size (set again after each load, as a phone's setting is)."""
    phone.page.goto(path)
    phone.page.evaluate(f"document.documentElement.style.fontSize = '{text}'")
    return phone.page


def fits(page: Page) -> bool:
    """Whether the page is no wider than the phone."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= innerWidth"))


@pytest.mark.parametrize("size", [LARGE, SMALL], ids=["390x844", "320px-200%"])
def test_play_again_takes_every_phone_to_its_own_page_of_the_next_game(
    browser: Browser, slow_server: Served, size: tuple[dict[str, int], str]
) -> None:
    game = finished_game(slow_server.app)
    seats = {link["name"]: f"/s/1/{link['token']}" for link in game["seat_links"]}
    view_token = game["links"]["view_token"]
    text = size[1]
    phones = [phone_at(browser, slow_server.url, size) for _ in range(4)]
    keeper, ben, dan, viewer = (phone.page for phone in phones)
    try:
        open_at(phones[0], f"/g/1/{game['links']['edit_token']}", text)
        open_at(phones[1], seats["Ben"], text)
        open_at(phones[2], seats["Dan"], text)
        open_at(phones[3], f"/g/1/{view_token}", text)
        for page in (keeper, ben, dan, viewer):
            expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
        keeper.get_by_role("button", name="Play again with the same players").click()
        expect(keeper.get_by_role("heading", level=1)).to_contain_text("Round 1 of 7")
        new_game = keeper.url.split("/g/")[1].split("/")[0]
        for page, name in ((ben, "Ben"), (dan, "Dan")):
            expect(page).to_have_url(re.compile(f"/s/{new_game}/[^/]+$"), timeout=ONE_POLL_MS)
            expect(page.get_by_test_id("seat")).to_contain_text(f"Your seat: {name}")
            expect(page.locator("#round-header")).to_contain_text("Round 1 of 7")
        expect(viewer).to_have_url(re.compile(f"/g/{new_game}/[^/]+$"), timeout=ONE_POLL_MS)
        expect(viewer.locator("#round-header")).to_contain_text("Round 1 of 7")
        assert game["links"]["edit_token"] not in viewer.url
        expect(viewer.get_by_role("button", name="Buy: Ben")).to_have_count(0)  # still a view
        # A phone that comes back to its old link later is offered its own seat at once.
        old = open_at(phones[2], seats["Dan"], text)
        offer = old.get_by_test_id("next-game")
        expect(offer).to_contain_text("The next game has started.")
        expect(offer).to_be_in_viewport()
        assert fits(old), "the offer is wider than the phone"
        offer.get_by_role("link", name="Go to your seat").click()
        expect(old.get_by_test_id("seat")).to_contain_text("Your seat: Dan")
        assert f"/s/{new_game}/" in old.url
    finally:
        _fail_on([error for phone in phones for error in phone.close()])
