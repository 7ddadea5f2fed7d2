"""A card party through its pages: start, draw, swap, confirm, rounds, standings, the end."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update

from scorekeeper.extensions import db
from scorekeeper.games.facts import read_game
from scorekeeper.games.state import game_state
from scorekeeper.models import (
    CardParty,
    CardTable,
    Game,
    PartyChange,
    PartyGame,
    TablePlayer,
    utcnow,
)
from scorekeeper.security import LINK_PREFIXES, redact_links
from tests.tables.party_helpers import (
    confirm,
    finish,
    games_of,
    person_id,
    posted_seating,
    start_party,
    version_of,
)
from tests.web.test_games import text

pytestmark = pytest.mark.storage

ELEVEN = ["Anna", "Ben", "Carla", "Dan", "Eva", "Fritz", "Gina", "Hugo", "Ida", "Jan", "Kim"]


def seating(app: Flask, page: str) -> list[list[str]]:
    """The seating a page proposes, by name."""
    with app.app_context():
        names = {p.id: p.name for p in db.session.scalars(select(TablePlayer))}
    tables = posted_seating(page).split(";")
    return [[names[int(key)] for key in table.split(",")] for table in tables]


def count(app: Flask, model: type, *where: object) -> int:
    """How many rows of a model there are."""
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def test_an_evening_draws_eleven_people_at_tables_of_four_four_and_three(
    app: Flask, client: FlaskClient
) -> None:
    table_url, party_url = start_party(client, ELEVEN)
    page = client.get(party_url).get_data(as_text=True)
    drawn = seating(app, page)
    assert [len(t) for t in drawn] == [4, 4, 3]
    assert sorted(name for t in drawn for name in t) == sorted(ELEVEN)
    assert "Seating for round 1" in text(page) and count(app, PartyGame) == 0
    assert count(app, TablePlayer) == 11  # the new names joined the table
    assert "Start a card party" in client.get(table_url).get_data(as_text=True)


def test_draw_again_and_a_swap_change_the_seating_before_the_start(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(client, ELEVEN)
    before = seating(app, client.get(party_url).get_data(as_text=True))
    response = client.post(f"{party_url}/redraw", data={"version": "1"})
    assert response.status_code == 303
    redrawn = seating(app, client.get(party_url).get_data(as_text=True))
    assert sorted(n for t in redrawn for n in t) == sorted(n for t in before for n in t)
    first, second = redrawn[0][0], redrawn[2][0]
    data = {"version": "2", "first": person_id(app, first), "second": person_id(app, second)}
    assert client.post(f"{party_url}/swap", data=data).status_code == 303
    swapped = seating(app, client.get(party_url).get_data(as_text=True))
    assert swapped[0][0] == second and swapped[2][0] == first
    assert swapped[1] == redrawn[1]
    assert count(app, PartyChange) == 3 and version_of(app) == 3
    page = text(client.get(party_url).get_data(as_text=True))
    assert f"{first} and {second} swapped seats." in page
    assert "The seating was drawn again." in page and "started with 11 people" in page


def test_confirming_starts_one_game_per_table_with_its_own_decks(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(client, [*ELEVEN[:9], "Lea", "Max", "Nora", "Otto"], tables="2")
    confirm(client, party_url)
    games = games_of(app, client, 1)
    assert [len(g.names) for g in games] == [7, 6]
    with app.app_context():
        decks = []
        for game_id in db.session.scalars(select(PartyGame.game_id).order_by(PartyGame.id)):
            facts = read_game(game_id)
            assert facts is not None
            state = game_state(facts)
            assert state.current is not None
            decks.append(state.current.setup.decks)
    assert decks == [3, 2]  # May I? deals 3 decks to 7 players, 2 to 6
    page = client.get(party_url).get_data(as_text=True)
    assert "Scorekeeper of table 1" in text(page) and games[0].url in page
    share = client.get(f"{games[1].url}/share").get_data(as_text=True)
    assert f'href="{games[1].url}/share"' in page and "Seat links" in text(share)


def test_a_confirm_drawn_on_an_older_evening_is_refused_with_409(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(client, ELEVEN)
    shown = posted_seating(client.get(party_url).get_data(as_text=True))
    assert client.post(f"{party_url}/redraw", data={"version": "1"}).status_code == 303
    response = client.post(f"{party_url}/confirm", data={"version": "1", "seating": shown})
    assert response.status_code == 409
    assert "changed on another phone" in text(response.get_data(as_text=True))
    assert count(app, PartyGame) == 0 and count(app, Game) == 0
    other = ";".join(reversed(shown.split(";")))
    response = client.post(f"{party_url}/confirm", data={"version": "2", "seating": other})
    assert response.status_code == 409 and count(app, Game) == 0


def test_a_round_closes_only_when_every_table_has_finished(app: Flask, client: FlaskClient) -> None:
    _, party_url = start_party(client, ELEVEN)
    confirm(client, party_url)
    games = games_of(app, client, 1)
    for game in games[:2]:
        finish(game, game.names)
    page = client.get(party_url).get_data(as_text=True)
    assert "Waiting for table 3" in text(page) and 'name="seating"' not in page
    refused = client.post(f"{party_url}/confirm", data={"version": "2", "seating": "1"})
    assert refused.status_code == 422
    assert "still playing, table 3" in text(refused.get_data(as_text=True))
    finish(games[2], games[2].names)
    page = client.get(party_url).get_data(as_text=True)
    assert "Waiting for" not in text(page) and "Seating for round 2" in text(page)
    confirm(client, party_url)
    assert [len(g.names) for g in games_of(app, client, 2)] == [4, 4, 3]


def test_the_standings_come_from_placements_never_raw_totals(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(client, ["Anna", "Ben", "Carla", "Dan", "Eva", "Fritz", "Gina"])
    confirm(client, party_url)
    four, three = games_of(app, client, 1)
    finish(four, four.names)
    finish(three, three.names)
    page = text(client.get(party_url).get_data(as_text=True))
    # Each table's winner scores 10 and went out every round; the last of 4 holds 15 a round.
    rows = re.findall(r"(\d) (\w+) (\d+\.\d) (\d) 1 (\d+)", page)
    by_name = {name: (place, points, won, margin) for place, name, points, won, margin in rows}
    assert by_name[four.names[0]] == ("1", "10.0", "1", "0")
    assert by_name[three.names[0]] == ("1", "10.0", "1", "0")
    assert by_name[four.names[1]] == ("3", "6.7", "0", "35")
    assert by_name[three.names[1]] == ("4", "5.0", "0", "35")
    assert by_name[four.names[2]] == ("5", "3.3", "0", "70")
    # Both lasts score 0: the one 70 behind the winner of 3 ahead of the one 105 behind at 4.
    assert by_name[three.names[2]] == ("6", "0.0", "0", "70")
    assert by_name[four.names[3]] == ("7", "0.0", "0", "105")


def test_an_evening_ends_six_hours_after_its_last_change(app: Flask, client: FlaskClient) -> None:
    _, party_url = start_party(client, ELEVEN)
    confirm(client, party_url)
    long_ago = utcnow() - timedelta(hours=6, minutes=1)
    with app.app_context():
        db.session.execute(update(CardParty).values(updated_at=long_ago))
        db.session.execute(update(Game).values(updated_at=long_ago))
        db.session.commit()
    page = client.get(party_url).get_data(as_text=True)
    assert "This evening has ended." in text(page) and "hx-trigger" not in page
    refused = client.post(f"{party_url}/end", data={"version": "2"})
    assert refused.status_code == 422


def test_the_organiser_ends_the_evening(app: Flask, client: FlaskClient) -> None:
    _, party_url = start_party(client, ELEVEN)
    assert client.post(f"{party_url}/end", data={"version": "1"}).status_code == 303
    page = client.get(party_url).get_data(as_text=True)
    assert "This evening has ended." in text(page) and 'name="seating"' not in page
    with app.app_context():
        assert db.session.get_one(CardParty, 1).state == "ended"


def test_a_persons_link_follows_them_to_their_next_table(app: Flask, client: FlaskClient) -> None:
    _, party_url = start_party(client, ELEVEN, rotation="progressive")
    links = client.get(f"{party_url}/links").get_data(as_text=True)
    first = re.findall(r'value="(http://localhost/p/1/[^"]+)"', links)
    assert len(first) == 11
    opened = client.get(first[0])
    assert opened.headers["Cache-Control"] == "no-store"
    assert "The next seating is being drawn" in text(opened.get_data(as_text=True))
    confirm(client, party_url)
    games = games_of(app, client, 1)
    for game in games:
        finish(game, game.names)
    winner = games[1].names[0]  # table 2's winner moves up to table 1
    url = next(u for u in first if f"· {winner}</h1>" in client.get(u).get_data(as_text=True))
    assert "The next seating is being drawn" in text(client.get(url).get_data(as_text=True))
    confirm(client, party_url)
    page = client.get(url).get_data(as_text=True)
    assert 'id="my-table">Table 1<' in page
    new_game = games_of(app, client, 2)[0]
    with app.app_context():
        facts = read_game(int(new_game.url.split("/")[2]))
        assert facts is not None
    seat_link = re.search(r'id="my-seat" href="(/s/\d+/[^"]+)"', page)
    assert seat_link and seat_link.group(1).startswith(f"/s/{facts.id}/")
    seat_page = client.get(seat_link.group(1)).get_data(as_text=True)
    assert winner in seat_page and winner in new_game.names


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"tables": "5"}, "Too many tables"),
        ({"tables": "1"}, "Too few tables"),
        ({"people": "99999"}, "Choose people of this table."),
        ({"ruleset": "house-424242"}, "Not a valid choice"),
        ({"rotate_every": "0"}, "Number must be between 1 and 10."),
        ({"rotation": "sideways"}, "Not a valid choice"),
        ({"new_names": "Anna\n" + "x" * 50}, "at most 40"),
    ],
)
def test_a_start_the_rules_refuse_answers_at_the_field_and_keeps_nothing(
    app: Flask, client: FlaskClient, fields: dict[str, str], said: str
) -> None:
    table_url = start_party(client, ["Anna", "Ben", "Carla"])[0]
    people = count(app, TablePlayer)
    data = {"new_names": "\n".join(ELEVEN), "ruleset": "may-i", "rotation": "mix"}
    response = client.post(f"{table_url}/party", data=data | {"rotate_every": "1"} | fields)
    assert response.status_code == 422, response.status_code
    assert said in text(response.get_data(as_text=True))
    assert count(app, CardParty) == 1 and count(app, TablePlayer) == people


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("redraw", {"version": "x"}),
        ("redraw", {}),
        ("swap", {"version": "1", "first": "1", "second": "1"}),
        ("swap", {"version": "1", "first": "²", "second": "1"}),
        ("confirm", {"version": "1", "seating": "a,b"}),
        ("confirm", {"version": "1", "seating": "1,2"}),
        ("end", {"version": "99999999999"}),
    ],
)
def test_bad_input_to_an_evening_is_refused_and_changes_nothing(
    app: Flask, client: FlaskClient, path: str, data: dict[str, str]
) -> None:
    _, party_url = start_party(client, ELEVEN)
    response = client.post(f"{party_url}/{path}", data=data)
    assert response.status_code in (409, 422), response.status_code
    assert version_of(app) == 1 and count(app, Game) == 0


def test_the_evening_opens_only_through_its_tables_links(app: Flask, client: FlaskClient) -> None:
    table_url, party_url = start_party(client, ELEVEN)
    with app.app_context():
        view = db.session.get_one(CardParty, 1)
        table = view.table_id
    assert client.get(party_url.replace("/party/1", "/party/2")).status_code == 404
    assert client.get(party_url.replace(table_url, f"/t/{table}/wrong")).status_code == 404
    assert client.get("/p/1/not-a-link").status_code == 404
    assert client.get("/p/99999999999/x").status_code == 404
    other = start_party(client, ["Xena", "Yuri", "Zoe"])[0]
    assert client.get(f"{other}/party/1").status_code == 404


def test_a_view_link_sees_the_evening_but_changes_nothing(app: Flask, client: FlaskClient) -> None:
    _, party_url = start_party(client, ELEVEN)
    with app.app_context():
        found = db.session.get_one(CardTable, 1)
        viewer = party_url.replace(found.edit_token, found.view_token)
    page = client.get(viewer).get_data(as_text=True)
    assert "Seating for round 1" in text(page) and 'name="seating"' not in page
    assert client.post(f"{viewer}/end", data={"version": "1"}).status_code == 403
    assert client.get(f"{viewer}/links").status_code == 403
    assert version_of(app) == 1


def test_the_live_region_answers_nothing_until_the_evening_changes(client: FlaskClient) -> None:
    _, party_url = start_party(client, ELEVEN)
    page = client.get(party_url).get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]+/live\?v=[^"]+)"', page)
    assert poll
    quiet = client.get(poll.group(1).replace("&amp;", "&"), headers={"HX-Request": "true"})
    assert quiet.status_code == 200 and quiet.get_data() == b""
    assert client.post(f"{party_url}/redraw", data={"version": "1"}).status_code == 303
    moved = client.get(poll.group(1).replace("&amp;", "&"), headers={"HX-Request": "true"})
    assert moved.get_data(as_text=True).startswith('\n<section id="evening"') or (
        'id="evening"' in moved.get_data(as_text=True)
    )
    assert "<html" not in moved.get_data(as_text=True)
    whole = client.get(poll.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert "<html" in whole and 'id="evening"' in whole


def test_a_persons_page_polls_and_changes_when_their_round_starts(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(client, ELEVEN)
    links = client.get(f"{party_url}/links").get_data(as_text=True)
    mine = re.findall(r'value="http://localhost(/p/1/[^"]+)"', links)[0]
    page = client.get(mine).get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]+/live\?v=[^"]+)"', page)
    assert poll and poll.group(1).startswith(mine)
    fragment = {"HX-Request": "true"}
    assert client.get(poll.group(1), headers=fragment).get_data() == b""
    confirm(client, party_url)
    moved = client.get(poll.group(1), headers=fragment).get_data(as_text=True)
    assert 'id="my-seat"' in moved and "<html" not in moved
    assert "<html" in client.get(poll.group(1)).get_data(as_text=True)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", ["Kartenabend", "Sitzordnung für Runde 1", "Neu auslosen"]),
        ("nl", ["Kaartavond", "Tafelindeling voor ronde 1", "Opnieuw loten"]),
        ("es", ["Velada de cartas", "Mesas de la ronda 1", "Volver a sortear"]),
        ("fr", ["Soirée de cartes", "Places pour la manche 1", "Tirer à nouveau"]),
    ],
)
def test_the_evening_speaks_the_phones_language(
    client: FlaskClient, language: str, words: list[str]
) -> None:
    _, party_url = start_party(client, ELEVEN)
    page = client.get(party_url, headers={"Accept-Language": language}).get_data(as_text=True)
    assert all(word in page for word in words), language
    assert "Draw again" not in page and "Seating for round" not in page


def test_every_two_games_keeps_the_seating_for_a_second_round(
    app: Flask, client: FlaskClient
) -> None:
    _, party_url = start_party(
        client, ["Anna", "Ben", "Carla", "Dan", "Eva", "Fritz", "Gina"], rotate_every="2"
    )
    confirm(client, party_url)
    first = games_of(app, client, 1)
    for game in first:
        finish(game, game.names)
    confirm(client, party_url)
    assert [g.names for g in games_of(app, client, 2)] == [g.names for g in first]


def test_a_persons_link_is_no_cached_page_and_no_log_line() -> None:
    assert "/p/" in LINK_PREFIXES
    line = '"GET /p/3/Abc_def-1234567890abcdefghijkl/live?v=2.14.0 HTTP/1.1" 200 -'
    assert redact_links(line) == '"GET /p/3/…/live?v=2.14.0 HTTP/1.1" 200 -'
