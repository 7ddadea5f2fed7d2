"""Watching an evening: the TV view, the relatives' link, tonight's tally and its card."""

from __future__ import annotations

import re
from html import escape, unescape
from xml.etree import ElementTree

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import CardParty, CardTable
from scorekeeper.security import redact_links
from tests.conftest import Table
from tests.tables.party_helpers import ROUNDS, confirm, games_of, start_party, version_of
from tests.web.test_games import text

pytestmark = pytest.mark.storage

SIX = ["Bartholomeus", "Concepción", "Marie-Claire", "<script>alert(1)</script>", "Ben", "Ida"]


def play(game: Table, comeback: bool = False) -> list[str]:
    """Play a game: its first (the `<script>` name where it sits) goes out every round holding
    the others at 5, 10, …; with `comeback`, its second goes out in round 2 after holding 60
    in round 1. One buy and one stock run-out in round 1. Its people, first to last out."""
    first, second, *rest = sorted(game.names, key=lambda name: name != SIX[3])
    assert game.buy(second).status_code in (200, 303)
    assert game.run_out().status_code in (200, 303)
    for number in range(1, ROUNDS + 1):
        out, hands = first, {second: 5} | {name: 10 + 5 * i for i, name in enumerate(rest)}
        if comeback and number == 1:
            hands[second] = 60
        if comeback and number == 2:
            out, hands = second, {first: 5} | {name: 10 + 5 * i for i, name in enumerate(rest)}
        response = game.end_round(number, out, hands, anyway=True)
        assert response.status_code == 303, response.get_data(as_text=True)
    return [first, second, *rest]


def ended_evening(app: Flask, client: FlaskClient) -> tuple[str, list[list[str]]]:
    """An evening of six at two tables of three, both games played, ended by the organiser."""
    _, party_url = start_party(client, SIX)
    confirm(client, party_url)
    games = games_of(app, client, 1)
    orders = [play(games[0], comeback=True), play(games[1])]
    response = client.post(f"{party_url}/end", data={"version": str(version_of(app))})
    assert response.status_code == 303
    return party_url, orders


def relatives_link(app: Flask, client: FlaskClient, party_url: str) -> str:
    """Make (or replace) the relatives' link on the organiser's page; its path."""
    assert client.post(f"{party_url}/watch").status_code == 303
    with app.app_context():
        return f"/w/1/{db.session.get_one(CardParty, 1).watch_token}"


def read_only(page: str) -> None:
    """A page whose own part (the language and theme switches aside) offers no change and no
    link that could make one."""
    main = page.split("<main", 1)[1].split("</main>", 1)[0]
    assert "<form" not in main and "hx-post" not in main
    assert not re.search(r'href="[^"]*/(g|s|p|t)/\d+/', main), "a capability link"


def test_the_tv_view_shows_every_tables_round_contract_and_leader(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(client, SIX)
    confirm(client, party_url)
    first, _ = games_of(app, client, 1)
    assert first.end_round(1, first.names[0], {first.names[1]: 5, first.names[2]: 30}).status_code
    page = client.get(f"{party_url}/tv").get_data(as_text=True)
    words = text(page)
    assert 'class="tv"' in page and "Round 1 of the evening" in words
    assert f"Table 1 Round 2 of 7 1 book + 1 run Leading: {first.names[0]}" in words
    assert "Table 2 Round 1 of 7 2 books" in words and "Leading" not in words.split("Table 2")[1]
    read_only(page)
    assert client.post(f"{party_url}/tv").status_code == 405


def test_the_tv_view_polls_without_rendering_while_nothing_changed(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(client, SIX)
    with app.app_context():
        table = db.session.get_one(CardTable, 1)
        viewer = party_url.replace(table.edit_token, table.view_token)
    page = client.get(f"{viewer}/tv").get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]+/tv/live\?v=[^"]+)"', page)
    assert poll, page
    url = poll.group(1).replace("&amp;", "&")
    quiet = client.get(url, headers={"HX-Request": "true"})
    assert quiet.status_code == 200 and quiet.get_data() == b""
    confirm(client, party_url)
    moved = client.get(url, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'id="watch"' in moved and "<html" not in moved and "Table 2" in text(moved)


def test_who_moves_next_shows_once_the_round_is_over(app: Flask, client: FlaskClient) -> None:
    _, party_url = start_party(client, SIX)
    confirm(client, party_url)
    first, second = games_of(app, client, 1)
    play(first)
    assert "Who moves next" not in text(client.get(f"{party_url}/tv").get_data(as_text=True))
    play(second)
    words = text(client.get(f"{party_url}/tv").get_data(as_text=True))
    assert "Who moves next Round 2 of the evening, as proposed" in words


def test_the_relatives_link_shows_the_evening_and_offers_no_change(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(client, SIX)
    confirm(client, party_url)
    play(games_of(app, client, 1)[0])
    link = relatives_link(app, client, party_url)
    organiser = client.get(f"{party_url}/watch").get_data(as_text=True)
    assert link in organiser and "Replace this link" in organiser
    page = client.get(link).get_data(as_text=True)
    words = text(page)
    assert "Standings tonight" in words and "Table 1" in words and "Table 2" in words
    assert "&lt;script&gt;" in page and "<script>alert" not in page
    read_only(page)
    assert client.post(link).status_code == 405
    assert client.post(f"{link}/live").status_code == 405
    assert client.get(f"{link}/tally").status_code == 200
    assert client.get(f"{link}/card.svg").status_code == 404  # the evening has not ended
    assert version_of(app) == 2


def test_a_replaced_relatives_link_opens_nothing(app: Flask, client: FlaskClient) -> None:
    _, party_url = start_party(client, SIX)
    old = relatives_link(app, client, party_url)
    new = relatives_link(app, client, party_url)
    assert new != old
    assert client.get(old).status_code == 404 and client.get(f"{old}/live").status_code == 404
    assert client.get(new).status_code == 200
    assert client.get("/w/1/not-a-link").status_code == 404
    assert client.get("/w/99999999999/x").status_code == 404


def test_only_the_organiser_makes_the_relatives_link(app: Flask, client: FlaskClient) -> None:
    _, party_url = start_party(client, SIX)
    with app.app_context():
        table = db.session.get_one(CardTable, 1)
        viewer = party_url.replace(table.edit_token, table.view_token)
    assert client.post(f"{viewer}/watch").status_code == 403
    assert client.get(f"{viewer}/watch").status_code == 403
    with app.app_context():
        assert db.session.get_one(CardParty, 1).watch_token is None
    assert client.get("/w/1/").status_code == 404


def test_the_tally_names_the_podium_places_and_highlights(app: Flask, client: FlaskClient) -> None:
    party_url, (first, second) = ended_evening(app, client)
    page = client.get(f"{party_url}/tally").get_data(as_text=True)
    words = text(page)
    podium = set(re.findall(r'<li class="place-(\d)">([^<]*)</li>', page))
    # Table 1 ends 5, 70, 85 (its second seat came back from 60 behind), table 2 0, 35, 70.
    assert podium == {
        ("1", f"1. {escape(first[0])} · 10.0 points"),
        ("1", f"1. {escape(second[0])} · 10.0 points"),
        ("3", f"3. {escape(second[1])} · 5.0 points"),
    }
    assert f"{first[0]} · place 1 tonight · place in each game: 1" in words
    assert f"Went out most {second[0]} · 7 times" in words
    buyers = re.search(r"Most buys \(May I\?\) (.+?) · 1 buy\b", words)
    assert buyers and set(buyers.group(1).split(", ")) == {first[1], second[1]}
    assert f"A round won from furthest behind {first[1]}, 60 points behind" in words
    assert "(table 1, round 1 of the evening)" in words
    assert "The stock ran out 2 times tonight." in words
    assert "<script>alert" not in page and 'src="/static/js/tally_card' in page


def test_the_tally_as_text_is_ready_to_copy(app: Flask, client: FlaskClient) -> None:
    party_url, (first, _) = ended_evening(app, client)
    page = client.get(f"{party_url}/tally").get_data(as_text=True)
    found = re.search(r'<textarea id="tally-text" readonly[^>]*>(.*?)</textarea>', page, re.S)
    assert found
    lines = [line for line in unescape(found.group(1)).splitlines() if line.strip()]
    assert lines[0].startswith("Card party of ") and lines[1] == "Podium"
    assert f"1. {first[0]} · 10.0 points" in lines
    assert "Highlights" in lines and "The stock: The stock ran out 2 times tonight." in lines


def test_the_card_is_well_formed_svg_escaping_every_name(app: Flask, client: FlaskClient) -> None:
    party_url, _ = ended_evening(app, client)
    response = client.get(f"{party_url}/card.svg")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    svg = response.get_data(as_text=True)
    root = ElementTree.fromstring(svg.encode())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert not root.findall(".//{http://www.w3.org/2000/svg}script")
    shown = "".join(root.itertext())
    assert "<script>alert(1)</script>" in shown and "<script>" not in svg
    assert "Highlights" in shown and "Tonight's tally" in shown


def test_the_tally_waits_for_the_end_of_the_evening(app: Flask, client: FlaskClient) -> None:
    _, party_url = start_party(client, SIX)
    page = text(client.get(f"{party_url}/tally").get_data(as_text=True))
    assert "The tally is ready when the evening ends." in page and "Podium" not in page
    assert client.get(f"{party_url}/card.svg").status_code == 404


def test_a_relatives_link_is_no_cached_page_and_no_log_line(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(client, SIX)
    link = relatives_link(app, client, party_url)
    assert client.get(link).headers["Cache-Control"] == "no-store"
    line = f'"GET {link}/live?v=2.14.0 HTTP/1.1" 200 -'
    assert redact_links(line) == '"GET /w/1/…/live?v=2.14.0 HTTP/1.1" 200 -'
