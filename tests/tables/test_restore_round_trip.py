"""Export → restore into a fresh database keeps every fact the pages show (issue 20's "Done").

A table plays as a family does: May I? with buys, two house rule sets (one with a cut bonus),
a tie settled by going out, a tiebreaker round, a merge, eight players with long names and a
game still in play; links replaced on a game and on the table. Every stored fact, every page
of the record, each person, each game's sheet, print and CSV, and what the old links answer
are the same before and after. Before: the game CSV dropped the loser's hand of a tiebreaker,
and a replaced link answered 404 after a restore instead of "this link was replaced" (410).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.models import CardTable, Game, RetiredLink, RetiredTableLink, TablePlayer
from scorekeeper.rules.presets import MAY_I, PRESETS
from tests.conftest import Table
from tests.databases import PostgresDatabase, close, make_app, sqlite_copy
from tests.tables.backups import backup_of, hold_sets, stored_facts, upload
from tests.tables.helpers import BEN_WINS, TIED_GAME, open_table, play, play_tiebreaker, start_at
from tests.web.test_games import text

pytestmark = pytest.mark.storage

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]
FAMILY = ["Bartholomeus", "Concepción", "Marie-Claire", "Guðmundur", "Anna", "Ben", "Carla"]
FAMILY += ["Dan"]
FAMILY_ROUND = {name: 25 for name in FAMILY[1:]}


@pytest.fixture
def fresh(
    request: pytest.FixtureRequest, database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[], Flask]]:
    """Make the app again on a fresh database of the same kind (PostgreSQL: emptied, ids
    restarted), once the first app's facts have been read."""
    made: list[Flask] = []

    def make() -> Flask:
        if database_url.startswith("sqlite"):
            template = request.getfixturevalue("sqlite_migrated")
            url = sqlite_copy(template, tmp_path_factory.mktemp("fresh"))
        else:
            postgres: PostgresDatabase = request.getfixturevalue("postgres_database")
            url = postgres.clean()
        made.append(make_app(url, str(tmp_path_factory.mktemp("fresh-instance"))))
        return made[-1]

    yield make
    for app in made:
        close(app)


def house_game(
    app: Flask, client: FlaskClient, url: str, name: str, rules: Any, players: list[str]
) -> Table:
    """Save a house rule set in this browser and start a game under it at the table's form."""
    with app.app_context():
        saved = house_rules.create(name, rules)
        hold_sets(client, saved)
        key = house_rules.key_of(saved)
        db.session.remove()
    return start_at(client, url, players, ruleset=key)


def family_table(app: Flask, client: FlaskClient) -> str:
    """The table the round trip plays; its edit URL."""
    url = open_table(client, "Familie Guðmundsdóttir")
    first = start_at(client, url, PLAYERS)
    first.buy("Ben")
    first.buy("Ben")
    first.run_out()
    assert client.post(f"{first.url}/down", data={"seat": 2, "down": 1}).status_code == 303
    play(first, BEN_WINS)
    assert client.post(f"{first.url}/links/edit").status_code == 303
    few = replace(MAY_I, rounds=MAY_I.rounds[:6], buys=replace(MAY_I.buys, cap_per_game=5))
    family = house_game(app, client, url, "Family evenings", few, PLAYERS)
    family.buy("Dan")
    play(family, BEN_WINS[:6])
    cuts = house_game(app, client, url, "Liverpool at Oma's", PRESETS["liverpool"], PLAYERS)
    out, hands = BEN_WINS[0]
    assert cuts.end_round(1, out, hands, cut="Dan").status_code == 303
    play_from(cuts, BEN_WINS, 2)
    play(start_at(client, url, PLAYERS), TIED_GAME)
    play_tiebreaker(client, url, PLAYERS)
    play(start_at(client, url, ["Anne", "Ben"]), [("Anne", {"Ben": 30})] * 7)
    with app.app_context():
        ids = dict(db.session.execute(select(TablePlayer.name, TablePlayer.id)).tuples().all())
    merged = client.post(f"{url}/merge", data={"merged": ids["Anne"], "into": ids["Anna"]})
    assert merged.status_code == 303
    in_play = start_at(client, url, FAMILY)
    play(in_play, [("Bartholomeus", FAMILY_ROUND)] * 2)
    in_play.buy("Guðmundur")
    in_play.run_out()
    assert client.post(f"{in_play.url}/down", data={"seat": 2, "down": 1}).status_code == 303
    assert client.post(f"{url}/links/view").status_code == 303
    return url


Rounds = list[tuple[str | None, dict[str, int | str]]]


def play_from(game: Table, rounds: Rounds, first: int) -> None:
    """End the rounds from `first` on."""
    for number, (out, hands) in enumerate(rounds[first - 1 :], start=first):
        assert game.end_round(number, out, hands).status_code == 303


def everything(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """Every fact stored and every page of the record a table's link shows, by what they name
    (a table by its uid, a person by theirs, a game by its edit link), never by a row id."""
    with app.app_context():
        table = db.session.scalars(select(CardTable)).one()
        url = f"/t/{table.id}/{table.edit_token}"
        people = dict(db.session.execute(select(TablePlayer.uid, TablePlayer.id)).tuples().all())
        played = db.session.execute(select(Game.edit_token, Game.id)).tuples().all()
        old_games = db.session.execute(select(RetiredLink.game_id, RetiredLink.token)).all()
        old_tables = db.session.scalars(select(RetiredTableLink.token)).all()
        db.session.remove()
    pages: dict[str, Any] = {"facts": stored_facts(app), "backup": backup_of(client, url)}
    for path in ("", "/record", "/record?ruleset=may-i", "/record?ruleset=liverpool"):
        pages[f"table{path}"] = read(client, url + path)
    pages["games.csv"] = read(client, f"{url}/games.csv", as_text=False)
    for uid, person in people.items():
        pages[f"person {uid}"] = read(client, f"{url}/people/{person}")
    for token, game_id in played:
        for path in ("", "/sheet", "/print"):
            pages[f"game {token}{path}"] = read(client, f"/g/{game_id}/{token}{path}")
        pages[f"game {token} csv"] = read(client, f"/g/{game_id}/{token}/sheet.csv", False)
        api = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
        pages[f"game {token} api"] = {k: v for k, v in api.get_json().items() if k != "id"}
    for game_id, token in old_games:
        pages[f"old game link {token}"] = client.get(f"/g/{game_id}/{token}").status_code
    for token in old_tables:
        pages[f"old table link {token}"] = client.get(f"/t/{table.id}/{token}").status_code
    return pages


def read(client: FlaskClient, path: str, as_text: bool = True) -> str:
    """A page's text (a file's bytes as text), which must open."""
    response = client.get(path)
    assert response.status_code == 200, path
    body = response.get_data(as_text=True)
    return text(body) if as_text else body


def test_export_then_restore_into_a_fresh_database_keeps_every_fact_and_figure(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask]
) -> None:
    url = family_table(app, client)
    before = everything(app, client)
    assert len(before["backup"]["games"]) == 7 and len(before["backup"]["house_rules"]) == 2
    assert sum(1 for key, status in before.items() if key.startswith("old") and status == 410) == 2
    file = json.dumps(before["backup"]).encode()
    again = fresh()
    browser = again.test_client()
    restored = upload(browser, file)
    assert restored.status_code == 303, text(restored.get_data(as_text=True))
    assert "New games: 7. New people: 9. New house rule sets: 2." in text(
        browser.get("/").get_data(as_text=True)
    )
    after = everything(again, browser)
    assert after.keys() == before.keys()
    for key, value in before.items():
        assert after[key] == value, key
    assert url.rsplit("/", 1)[1] == before["backup"]["table"]["edit_token"]


def test_a_replaced_link_answers_replaced_after_a_restore(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask]
) -> None:
    url = open_table(client)
    game = start_at(client, url, PLAYERS)
    old_game_link = game.url
    assert client.post(f"{game.url}/links/view").status_code == 303
    assert client.post(f"{game.url}/links/edit").status_code == 303
    assert client.post(f"{url}/links/edit").status_code == 303
    with app.app_context():
        table = db.session.scalars(select(CardTable)).one()
        current, old_table_link = f"/t/{table.id}/{table.edit_token}", url
        db.session.remove()
    backup = backup_of(client, current)
    again = fresh()
    browser = again.test_client()
    assert upload(browser, json.dumps(backup).encode()).status_code == 303
    assert browser.get(old_game_link).status_code == 410
    assert "This link was replaced" in text(browser.get(old_game_link).get_data(as_text=True))
    assert browser.get(old_table_link).status_code == 410
    assert browser.get(current).status_code == 200


def seat_links_of(client: FlaskClient, game_url: str) -> list[dict[str, Any]]:
    """The current seat links of a game, from its edit link (the API's `seat_links`)."""
    game_id, token = game_url.rsplit("/", 2)[1:]
    answer = client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    return list(answer.get_json()["seat_links"])


def test_a_seats_links_open_and_refuse_the_same_after_a_restore(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask]
) -> None:
    url = open_table(client)
    game = start_at(client, url, PLAYERS)
    game_id, token = game.url.rsplit("/", 2)[1:]
    old = seat_links_of(client, game.url)[1]["token"]
    replaced = client.post(
        f"/api/v1/games/{game_id}/seat-links/1",
        json={},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert replaced.status_code == 200, replaced.get_data(as_text=True)
    current = seat_links_of(client, game.url)
    backup = backup_of(client, url)
    assert [link["seat"] for link in backup["games"][0]["seat_links"]] == [0, 1, 2, 3, 1]
    browser = fresh().test_client()
    assert upload(browser, json.dumps(backup).encode()).status_code == 303
    assert browser.get(game.url).status_code == 200  # a fresh database: the same id
    assert seat_links_of(browser, game.url) == current
    for link in current:
        assert browser.get(f"/s/{game_id}/{link['token']}").status_code == 200
    assert browser.get(f"/s/{game_id}/{old}").status_code == 410
    assert browser.get(f"/s/{game_id}/{'x' * 32}").status_code == 404


def test_a_games_rematch_survives_a_restore_and_still_leads_its_phones(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask]
) -> None:
    url = open_table(client)
    first = start_at(client, url, PLAYERS)
    play(first, TIED_GAME)
    assert client.post(f"{first.url}/again").status_code == 303
    backup = backup_of(client, url)
    finished, rematch = backup["games"]
    assert (finished["rematch"], rematch["rematch"]) == (rematch["edit_token"], None)
    before = stored_facts(app)
    again = fresh()
    browser = again.test_client()
    assert upload(browser, json.dumps(backup).encode()).status_code == 303
    assert stored_facts(again) == before
    page = browser.get(f"/g/1/{finished['view_token']}").get_data(as_text=True)
    new_view = rematch["view_token"]
    assert f'href="/g/2/{new_view}"' in page


@pytest.mark.parametrize("names", ["itself", "a game it does not hold"])
def test_a_rematch_that_names_no_other_game_of_the_file_is_refused(
    app: Flask, client: FlaskClient, fresh: Callable[[], Flask], names: str
) -> None:
    url = open_table(client)
    start_at(client, url, PLAYERS)
    backup = backup_of(client, url)
    game = backup["games"][0]
    game["rematch"] = game["edit_token"] if names == "itself" else "x" * 32
    refused = upload(fresh().test_client(), json.dumps(backup).encode())
    assert refused.status_code == 422
    said = text(refused.get_data(as_text=True))
    assert "The backup refers to something it does not hold, at games.0.rematch." in said
