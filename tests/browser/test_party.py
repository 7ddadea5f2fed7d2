"""A card party in the browser (issue 36): 11 people at tables of 4, 4 and 3, one round of the
evening with one table finishing late, and a person's phone following them to their next table."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.games.facts import read_game
from scorekeeper.models import PartyGame
from tests.browser.conftest import Phone, _fail_on
from tests.conftest import make_app, serving

pytestmark = pytest.mark.browser

PEOPLE = ["Anna", "Ben", "Carla", "Dan", "Eva", "Fritz", "Gina", "Hugo", "Ida", "Jan", "Kim"]
ONE_POLL_MS = 9_000  # the evening's pages ask every 5 s; room for two shared cores


@dataclass
class Served:
    """The app on a live server, and its URL."""

    app: Flask
    url: str


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[Served]:
    """The app with CSRF on, served on a free local port."""
    app = make_app(database_url, str(tmp_path), WTF_CSRF_ENABLED=True)
    with serving(app) as url:
        yield Served(app, url)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def finish_table(app: Flask, table_number: int) -> list[str]:
    """Play a table's game of round 1 to its end through the API, seat 0 going out every
    round and the others holding 5, 10, …; its people by seat."""
    with app.app_context():
        query = select(PartyGame.game_id).where(PartyGame.table_number == table_number)
        facts = read_game(db.session.scalars(query.order_by(PartyGame.round)).first() or 0)
        assert facts is not None
    api = app.test_client()
    edit = {"Authorization": f"Bearer {facts.edit_token}"}
    hands = {str(seat): {"points": 5 * seat} for seat in range(1, len(facts.seats))}
    for number in range(1, 8):
        round_end = {"went_out": 0, "hands": hands}
        answer = api.put(f"/api/v1/games/{facts.id}/rounds/{number}", json=round_end, headers=edit)
        assert answer.status_code in (200, 201), answer.get_data(as_text=True)
    return [seat.name for seat in facts.seats]


def draw_seating(page: Page, people: list[str]) -> None:
    """Open a table named Reunion and draw a card party's first seating for these people."""
    page.goto("/tables/new")
    page.get_by_label("Name of the table").fill("Reunion")
    page.get_by_role("button", name="Open the table").click()
    page.get_by_role("link", name="Start a card party").click()
    page.get_by_label("New people, one name a line").fill("\n".join(people))
    page.get_by_role("button", name="Draw the seating").click()


def test_an_evening_round_at_three_tables_and_a_phone_following_its_person(
    browser: Browser, server: Served
) -> None:
    organiser, guest = Phone(browser, server.url), Phone(browser, server.url)
    try:
        page = organiser.page
        draw_seating(page, PEOPLE)
        tables = page.locator(".party-seating > li")
        expect(tables).to_have_count(3)
        expect(tables.nth(2).locator("li")).to_have_count(3)
        page.get_by_role("button", name="Draw again").click()
        expect(page.locator("#party-changes")).to_contain_text("The seating was drawn again.")
        page.get_by_role("button", name="Start", exact=True).click()
        expect(page.locator(".party-table")).to_have_count(3)
        evening = page.url
        page.get_by_role("link", name="Everyone's link for tonight").click()
        card = page.locator("details", has=page.get_by_role("heading", name="Anna", exact=True))
        card.locator("summary").click()
        expect(card.locator(".qr svg")).to_be_visible()
        anna = card.get_by_label("Link").input_value()
        page.goto(evening)

        phone = guest.page
        phone.goto(anna)
        expect(phone.locator("#my-table")).to_contain_text(re.compile(r"Table \d"))

        late = _table_of(server.app, "Anna")
        for number in {1, 2, 3} - {late}:
            finish_table(server.app, number)
        expect(page.locator("#waiting")).to_have_text(
            f"Waiting for table {late}", timeout=ONE_POLL_MS
        )
        finish_table(server.app, late)
        expect(page.locator("#proposal h2")).to_have_text(
            "Seating for round 2", timeout=ONE_POLL_MS
        )
        expect(phone.locator("#my-table")).to_contain_text("being drawn", timeout=ONE_POLL_MS)
        expect(page.locator("#party-standings tbody tr")).to_have_count(11)

        page.get_by_role("button", name="Start round 2").click()
        expect(page.locator("#party-tables h2")).to_have_text("Round 2 of the evening")
        expect(phone.locator("#my-seat")).to_be_visible(timeout=ONE_POLL_MS)
        phone.locator("#my-seat").click()
        expect(phone).to_have_url(re.compile(r"/s/\d+/[^/]+$"))
        expect(phone.get_by_test_id("seat")).to_contain_text("Your seat: Anna")
    finally:
        _fail_on(organiser.close() + guest.close())


def _table_of(app: Flask, name: str) -> int:
    """The table a person sits at in round 1."""
    with app.app_context():
        rows = db.session.execute(select(PartyGame.table_number, PartyGame.game_id)).tuples()
        for number, game_id in rows:
            facts = read_game(game_id)
            if facts and any(seat.name == name for seat in facts.seats):
                return int(number)
    raise AssertionError(name)
