"""The record through the API and back: a table played, merged, backed up and restored.

Create a table, start two games at it (a preset and a saved house rule set), play them through
the game API, merge two spellings; the record's figures are the record page's; the backup
restored into a fresh database answers the same figures, files and links.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.rules.presets import MAY_I
from tests.tables.backups import stored_facts
from tests.tables.test_restore_round_trip import fresh

from .conftest import assert_problem
from .tables import BEN_WINS, TableApi, play
from .test_table_people import as_shown, page_record

# Tables, people and files written and read back: on both databases.
pytestmark = pytest.mark.storage

__all__ = ["fresh"]  # the fixture: the app again on a fresh database of the same kind
PLAYERS = ["Anna", "Ben", "Carla", "Dan"]
HELD = "Scorekeeper-Rule-Sets"


def played_through_the_api(app: Flask, tables: TableApi) -> tuple[str, str]:
    """Two games at a new table, a buy in each, one under a saved six-round house rule set;
    then Ann merged into Anna and the table's view link replaced: the replaced link, and the
    set as the Scorekeeper-Rule-Sets header names it."""
    six = replace(MAY_I, rounds=MAY_I.rounds[:6])
    with app.app_context():
        saved = house_rules.create("Short evenings", six)
        key, token, held = house_rules.key_of(saved), saved.token, f"{saved.id}={saved.token}"
        db.session.remove()
    tables.open("Familie Guðmundsdóttir")
    first = tables.start(PLAYERS)
    assert first.buy("Carla").status_code == 201
    play(first, BEN_WINS)
    second = tables.start(["Ann", "Ben", "Carla", "Dan"], ruleset=key, ruleset_token=token)
    assert second.buy("Dan").status_code == 201
    play(second, BEN_WINS[:6], Anna="Ann")
    assert second.state()["finished"] and second.state()["rules"]["name"] == "Short evenings"
    merge = {"merged": tables.person("Ann"), "into": tables.person("Anna")}
    tables.ok("post", "/merges", merge, status=201)
    replaced = tables.links["view_token"]
    tables.links["view_token"] = tables.ok("post", "/links/view", {})["view"]
    return replaced, held


def figures_of(tables: TableApi) -> dict[str, Any]:
    """What the API answers of the record: the table, the record, each person, both CSVs."""
    table = tables.ok("get")
    found: dict[str, Any] = {"table": {k: v for k, v in table.items() if k != "id"}}
    found["record"] = tables.ok("get", "/record")
    found["may-i"] = tables.ok("get", "/record?ruleset=may-i")
    for person in table["people"] + table["merged"]:
        found[person["name"]] = tables.ok("get", f"/people/{person['id']}")
    found["games.csv"] = tables.call("get", "/games.csv").get_data()
    return found


def test_a_table_played_through_the_api_restores_with_the_same_figures(
    app: Flask, client: FlaskClient, tables: TableApi, fresh: Callable[[], Flask]
) -> None:
    replaced, held = played_through_the_api(app, tables)
    assert_problem(tables.call("get", token=replaced), 410)
    record = tables.ok("get", "/record")["people"]
    assert {row["person"]["name"]: as_shown(row) for row in record} == page_record(client, tables)
    anna = tables.figures()["Anna"]
    assert (anna["played"], anna["won"], anna["totals"]) == (2, 0, [50, 45])
    assert tables.figures()["Ben"]["won"] == 2 and tables.figures()["Dan"]["buys"] == 1
    before, facts, links = figures_of(tables), stored_facts(app), dict(tables.links)
    backup = tables.call("get", "/backup", headers={HELD: held}).get_data()

    other = fresh()
    restorer = other.test_client()
    done = restorer.post("/api/v1/tables/restore", data=backup, content_type="application/json")
    assert done.status_code == 201, done.get_data(as_text=True)
    assert (done.json["games_added"], done.json["players_added"]) == (2, 5)
    (restored_set,) = done.json["house_rules"]
    assert restored_set["name"] == "Short evenings" and restored_set["token"] != held[2:]
    assert done.json["links"] == links
    again = TableApi(restorer)
    again.id, again.links = done.json["table"]["id"], done.json["links"]
    after = figures_of(again)
    assert after.keys() == before.keys()
    for key, value in before.items():
        assert after[key] == value, key
    assert stored_facts(other) == facts
    assert_problem(again.call("get", token=replaced), 410)
    assert again.call("get", token=links["view_token"]).json["role"] == "view"
    # Sent again with the set the restore answered, the file adds nothing, the set included.
    holding = {HELD: f"{restored_set['id']}={restored_set['token']}"}
    twice = restorer.post(
        "/api/v1/tables/restore", data=backup, content_type="application/json", headers=holding
    )
    assert twice.status_code == 200 and twice.json["added_nothing"], twice.json
    assert stored_facts(other) == facts
    assert {row["person"]["name"]: as_shown(row) for row in after["record"]["people"]} == (
        page_record(restorer, again)
    )
    games = again.ok("get", "/games")["games"]
    for game in games:
        sheet = restorer.get(
            f"/api/v1/games/{game['id']}/sheet.csv",
            headers={"Authorization": f"Bearer {game['token']}"},
        )
        assert sheet.status_code == 200 and sheet.get_data().startswith("\ufeffround,".encode())
