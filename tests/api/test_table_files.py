"""A table's files through the API: both CSVs, the JSON backup and its restore, as the pages'."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.rules.presets import MAY_I
from tests.tables.backups import stored_facts
from tests.tables.test_restore_round_trip import fresh

from .conftest import assert_link_refused, assert_problem, bearer
from .tables import BEN_WINS, TableApi, play

# Tables, people and files written and read back: on both databases.
pytestmark = pytest.mark.storage

__all__ = ["fresh"]  # the fixture: the app again on a fresh database of the same kind
HELD = "Scorekeeper-Rule-Sets"


@pytest.fixture
def played(tables: TableApi) -> TableApi:
    """A table with a finished game (with a buy) and one in play."""
    tables.open()
    game = tables.start(["Anna", "Ben", "Carla", "Dan"])
    assert game.buy("Ben").status_code == 201
    play(game, BEN_WINS)
    tables.start(["Anna", "Émile"])
    return tables


def page(client: FlaskClient, tables: TableApi, path: str) -> bytes:
    """A download of the table's pages, through its edit link."""
    response = client.get(f"/t/{tables.id}/{tables.links['edit_token']}{path}")
    assert response.status_code == 200
    return response.get_data()


def test_the_tables_csv_is_the_pages_in_utf_8(client: FlaskClient, played: TableApi) -> None:
    response = played.call("get", "/games.csv", token=played.links["view_token"])
    assert response.status_code == 200 and response.content_type == "text/csv; charset=utf-8"
    assert response.get_data() == page(client, played, "/games.csv")
    assert "Émile" in response.get_data().decode("utf-8")
    assert response.get_data(as_text=True).splitlines()[0].startswith("\ufeffgame,date,rule_set")


def test_a_games_sheet_csv_is_its_pages(client: FlaskClient, played: TableApi) -> None:
    game = played.ok("get", "/games")["games"][1]
    url = f"/api/v1/games/{game['id']}/sheet.csv"
    response = client.get(url, headers=bearer(game["token"]))
    assert response.status_code == 200 and response.content_type == "text/csv; charset=utf-8"
    sheet = client.get(f"/g/{game['id']}/{game['token']}/sheet.csv").get_data()
    assert response.get_data() == sheet and b"total,50,35,180,240" in sheet
    assert_problem(client.get(url), 401)
    assert_link_refused(client.get(url, headers=bearer("x" * 32)))


def test_the_backup_is_the_pages_and_needs_the_edit_link(
    client: FlaskClient, played: TableApi
) -> None:
    backup = played.ok("get", "/backup")
    assert backup == json.loads(page(client, played, "/backup.json"))
    assert backup["format"] == "scorekeeper-table-backup" and len(backup["games"]) == 2
    refused = played.call("get", "/backup", token=played.links["view_token"])
    assert assert_problem(refused, 403)["detail"] == (
        "The backup holds the table's edit link: send the edit link to download it."
    )
    assert_problem(client.get(f"{played.url}/backup"), 401)


def test_a_backup_restores_whole_into_a_fresh_database_and_once(
    app: Flask, played: TableApi, fresh: Callable[[], Flask]
) -> None:
    backup = played.call("get", "/backup").get_data()
    facts, record = stored_facts(app), played.ok("get", "/record")
    other = fresh()
    restorer = other.test_client()
    done = restorer.post("/api/v1/tables/restore", data=backup, content_type="application/json")
    assert done.status_code == 201, done.get_data(as_text=True)
    answer = done.json
    assert (answer["games_added"], answer["players_added"], answer["added_nothing"]) == (
        2,
        5,
        False,
    )
    assert answer["links"] == played.links and answer["differences"] == []
    assert stored_facts(other) == facts
    again = TableApi(restorer)
    again.id, again.links = answer["table"]["id"], answer["links"]
    assert again.ok("get", "/record") == record
    twice = restorer.post("/api/v1/tables/restore", data=backup, content_type="application/json")
    assert twice.status_code == 200 and twice.json["added_nothing"] is True
    assert stored_facts(other) == facts


def broken(backup: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """Files the restore refuses whole, each with the start of its reason."""
    bigger = json.loads(json.dumps(backup))
    bigger["games"][0]["rounds"][0]["results"][0]["points"] = 5000
    twice = json.loads(json.dumps(backup))
    twice["players"].append(twice["players"][0])
    return [
        ({"format": "nope"}, "This file is not a Scorekeeper table backup."),
        ({**backup, "version": 9}, "This backup has version 9"),
        (bigger, "Game 1 of the file (2"),
        (twice, "The backup names a person twice."),
    ]


def test_a_file_the_restore_refuses_changes_nothing_and_says_why(
    app: Flask, played: TableApi, fresh: Callable[[], Flask]
) -> None:
    backup = played.ok("get", "/backup")
    other = fresh()
    client = other.test_client()
    for file, reason in broken(backup):
        response = client.post("/api/v1/tables/restore", json=file)
        problem = assert_problem(response, 422, "")
        assert problem["detail"].startswith(reason), problem
        assert not any(stored_facts(other).values())
    assert_problem(
        client.post("/api/v1/tables/restore", data=b"{", content_type="application/json"), 422
    )
    assert client.post("/api/v1/tables/restore", data=b"{}").status_code == 415


def test_the_backup_holds_the_saved_sets_the_client_names_and_no_others(
    app: Flask, played: TableApi
) -> None:
    with app.app_context():
        mine, other = (house_rules.create(name, MAY_I) for name in ("Ours", "Theirs"))
        held = f"{mine.id}={mine.token}, {other.id}={'x' * 32}"
        db.session.remove()
    assert played.ok("get", "/backup")["house_rules"] == []
    named = played.call("get", "/backup", headers={HELD: held}).json["house_rules"]
    assert [saved["name"] for saved in named] == ["Ours"]
    for wrong in ("", "7", "7=", "a=b", "7=abc;8=def", "7=a\t"):
        refused = played.call("get", "/backup", headers={HELD: wrong})
        assert assert_problem(refused, 422, HELD)["errors"][HELD] == [
            "Give each saved rule set as its id=token, separated by commas."
        ]


def test_a_restore_takes_a_backup_larger_than_other_requests(
    app: Flask, played: TableApi, fresh: Callable[[], Flask]
) -> None:
    padded = played.call("get", "/backup").get_data() + b" " * (300 * 1024)  # past 256 KiB
    assert (
        played.client.post(
            "/api/v1/tables", data=padded, content_type="application/json"
        ).status_code
        == 413
    )
    restorer = fresh().test_client()
    done = restorer.post("/api/v1/tables/restore", data=padded, content_type="application/json")
    assert done.status_code == 201, done.get_data(as_text=True)
