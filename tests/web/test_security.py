"""CSRF on every state change; bad input never breaks anything."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.games import actions, seat_links
from scorekeeper.models import CardTable, Change
from scorekeeper.rules.presets import MAY_I
from scorekeeper.tables import people
from tests.databases import close, make_app


@pytest.fixture
def guarded_app(database_url: str, tmp_path: str) -> Iterator[Flask]:
    """The app with CSRF protection on, as it runs for real, with one game started."""
    app = make_app(database_url, str(tmp_path), WTF_CSRF_ENABLED=True)
    with app.app_context():
        app.config["TEST_TOKEN"] = token = actions.create_game(
            MAY_I, ["Anna", "Ben", "Carla"], 0
        ).edit_token
        # Table 1 opens with the same token, so one filled-in URL reaches every POST route.
        people.create_table("Club").edit_token = token
        people.seat_people(db.session.get_one(CardTable, 1), ["Anna"])
        db.session.commit()
    yield app
    close(app)


def html_post_urls(app: Flask, token: str) -> list[str]:
    """Every POST route of the HTML blueprints, filled in for game 1 and round 1."""
    fill = {"<int:game_id>": "1", "<token>": token, "<int:number>": "1", "<role>": "view"}
    fill |= {"<int:table_id>": "1", "<int:player_id>": "1"}
    fill["<int:ruleset_id>"] = "1"  # a saved house rule set
    fill["<int:party_id>"] = "1"  # a card party of the table (none: the CSRF check comes first)
    fill["<int(max=999):seat>"] = "1"  # a seat's hand sent back from the scorekeeper's screen
    urls = []
    for rule in app.url_map.iter_rules():
        if "POST" in (rule.methods or ()) and not rule.rule.startswith("/api/"):
            url = rule.rule
            for placeholder, value in fill.items():
                url = url.replace(placeholder, value)
            urls.append(url)
    return urls


def changes(app: Flask) -> int:
    """How many changes the history holds."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Change)) or 0


def test_every_form_post_without_a_csrf_token_is_refused(guarded_app: Flask) -> None:
    client = guarded_app.test_client()
    before = changes(guarded_app)
    urls = html_post_urls(guarded_app, guarded_app.config["TEST_TOKEN"])
    assert len(urls) >= 10
    with guarded_app.app_context():
        seat = seat_links.links_of(1)[0]  # a seat's own URLs open with its own link
    for url in urls:
        if url.startswith("/s/"):
            url = url.replace(guarded_app.config["TEST_TOKEN"], seat)
        response = client.post(url, data={"seat": "1", "went_out": "0", "points_1": "5"})
        assert response.status_code == 400, url
    assert changes(guarded_app) == before


def test_an_htmx_post_with_the_csrf_header_is_accepted(guarded_app: Flask) -> None:
    client = guarded_app.test_client()
    game = f"/g/1/{guarded_app.config['TEST_TOKEN']}"
    page = client.get(game).get_data(as_text=True)
    token = page.split('"X-CSRFToken": "')[1].split('"')[0]
    headers = {"HX-Request": "true", "X-CSRFToken": token}
    response = client.post(f"{game}/buys", data={"seat": "1"}, headers=headers)
    assert response.status_code == 200
    assert changes(guarded_app) == 2


JUNK = [
    {},
    {"seat": "99999999999999999999"},
    {"seat": "-3", "went_out": "9", "points_0": "1e9", "cards_1": "ZZ Q"},
    {"went_out": "stock", "points_0": "-0", "cards_2": "K " * 500, "cut_bonus_seat": "x"},
    {"discarder": "x", "callers": ["a", "7"], "seen": "-1", "tap": "9:K"},
    {"tap": "x:y", "move": "99", "players-0": "\x00", "ruleset": "\u2603"},
]


@pytest.mark.storage
@pytest.mark.parametrize("data", JUNK)
def test_no_form_input_breaks_the_server(app: Flask, data: dict[str, object]) -> None:
    with app.app_context():
        token = actions.create_game(MAY_I, ["Anna", "Ben", "Carla"], 0).edit_token
    client = app.test_client()
    for url in html_post_urls(app, token):
        response = client.post(url, data=data)
        assert response.status_code < 500, (url, data)
