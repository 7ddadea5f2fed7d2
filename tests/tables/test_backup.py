"""The JSON backup: export → import restores every fact, twice adds nothing, bad files refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.models import HouseRules
from scorekeeper.rules.presets import MAY_I, PRESETS
from tests.tables.backups import (
    empty,
    hold_sets,
    played_table,
    save_house_rules,
    stored_facts,
    upload,
)
from tests.tables.helpers import BEN_WINS, open_table, play, start_at
from tests.web.test_games import text

pytestmark = pytest.mark.storage


def test_export_then_import_restores_every_fact_and_twice_adds_nothing(
    app: Flask, client: FlaskClient
) -> None:
    url = played_table(app, client)
    before = stored_facts(app)
    assert len(before["round_result"]) == 56 and len(before["buy"]) == 1
    assert len(before["house_rules"]) == 2
    assert any('"undone_at", "null"' not in str(row) for row in before["change"])
    with app.app_context():
        house_rules.create("Not ours", MAY_I)  # another browser's set: in no backup of this one
    backup = client.get(f"{url}/backup.json").get_data()
    names = [saved["name"] for saved in json.loads(backup)["house_rules"]]
    assert names == ["Club rules", "Short evenings"]
    empty(app)
    restored = upload(client, backup)
    assert restored.status_code == 303
    assert stored_facts(app) == before
    assert upload(client, backup).status_code == 303
    assert stored_facts(app) == before
    home = text(client.get("/").get_data(as_text=True))
    assert "Everything in this file is already here: nothing was added." in home
    # The link's secret is restored; its number is whatever this database gave the table.
    assert restored.headers["Location"].endswith(url.rsplit("/", 1)[1])
    assert client.get(restored.headers["Location"]).status_code == 200


def test_import_into_an_installation_with_other_tables_keeps_them(
    app: Flask, client: FlaskClient
) -> None:
    url = played_table(app, client)
    backup = client.get(f"{url}/backup.json").get_data()
    wanted = stored_facts(app)
    empty(app)
    other = open_table(client, "Other club")
    start_at(client, other, ["Zed", "Anna"])
    alone = stored_facts(app)
    assert upload(client, backup).status_code == 303
    after = stored_facts(app)
    for name, rows in after.items():
        assert sorted(rows) == sorted(wanted[name] + alone[name])


def test_a_restored_person_of_the_same_name_is_offered_for_merging(
    app: Flask, client: FlaskClient
) -> None:
    url = open_table(client)
    start_at(client, url, ["Anna", "Ben"])
    backup = json.loads(client.get(f"{url}/backup.json").get_data())
    backup["players"].append(
        {"uid": "newcomer", "name": "Anna", "created_at": "2026-01-01T00:00:00"}
    )
    backup["games"] = []
    assert upload(client, json.dumps(backup).encode()).status_code == 303
    page = text(client.get(url).get_data(as_text=True))
    assert "Anna and Anna: the same person?" in page


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda b: b"not json at all", "This file is not JSON."),
        (lambda b: b"[1, 2]", "This file is not a Scorekeeper table backup."),
        (lambda b: b.replace(b'"version":1', b'"version":2'), "This backup has version 2"),
        (lambda b: b.replace(b'"seats":["', b'"seats":["nobody","'), "does not hold"),
        (lambda b: b.replace(b'"points":30', b'"points":-3'), "The backup is broken at"),
        (
            lambda b: b.replace(b'"went_out":false,"points":30', b'"went_out":true,"points":30'),
            "Round 1: Only one player can go out in a round.",
        ),
    ],
)
def test_a_bad_file_is_refused_with_its_reason_and_changes_nothing(
    app: Flask, client: FlaskClient, change: Any, reason: str
) -> None:
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    backup = json.dumps(
        json.loads(client.get(f"{url}/backup.json").get_data()), separators=(",", ":")
    )
    empty(app)
    response = upload(client, change(backup.encode()))
    assert response.status_code == 422
    assert reason in text(response.get_data(as_text=True))
    assert all(rows == [] for rows in stored_facts(app).values())


def test_the_backup_format_is_in_the_openapi_document(client: FlaskClient) -> None:
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    backup = schemas["Backup"]
    assert set(backup["required"]) == {"table", "players", "games"}
    assert backup["properties"]["house_rules"]["items"]["$ref"].endswith("/BackupHouseRules")
    assert backup["properties"]["version"]["const"] == 1
    assert {"BackupGame", "BackupRound", "BackupPlayer"} <= set(schemas)


def test_a_backup_with_a_hand_twice_is_refused_not_a_server_error(
    app: Flask, client: FlaskClient
) -> None:
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    backup = json.loads(client.get(f"{url}/backup.json").get_data())
    empty(app)
    results = backup["games"][0]["rounds"][0]["results"]
    results.append(dict(results[-1]))
    response = upload(client, json.dumps(backup).encode())
    assert response.status_code == 422
    assert all(rows == [] for rows in stored_facts(app).values())


def test_a_backup_larger_than_other_requests_is_read(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    backup = json.loads(client.get(f"{url}/backup.json").get_data())
    empty(app)
    backup["table"]["name"] = "Club"
    padded = json.dumps(backup, indent=1) + " " * (300 * 1024)  # JSON allows trailing spaces
    assert upload(client, padded.encode()).status_code == 303


def backup_with_house_rules(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """A backup of a table with a game and two saved sets, on an emptied installation."""
    save_house_rules(app, client)
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    backup: dict[str, Any] = json.loads(client.get(f"{url}/backup.json").get_data())
    empty(app)
    return backup


def test_a_house_rule_set_of_the_same_name_with_other_rules_is_refused(
    app: Flask, client: FlaskClient
) -> None:
    backup = backup_with_house_rules(app, client)
    with app.app_context():
        hold_sets(client, house_rules.create("Club rules", PRESETS["liverpool"]))
    here = stored_facts(app)
    response = upload(client, json.dumps(backup).encode())
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    assert "A house rule set named “Club rules” is already here with other rules." in page
    assert stored_facts(app) == here


def test_a_house_rule_set_the_rules_engine_refuses_is_not_imported(
    app: Flask, client: FlaskClient
) -> None:
    backup = backup_with_house_rules(app, client)
    backup["house_rules"][1]["rules"]["rounds"] = []
    response = upload(client, json.dumps(backup).encode())
    assert response.status_code == 422
    assert "house rule set house_rules.1 is refused" in text(response.get_data(as_text=True))
    assert all(rows == [] for rows in stored_facts(app).values())


def test_a_backup_without_house_rules_still_restores(app: Flask, client: FlaskClient) -> None:
    backup = backup_with_house_rules(app, client)
    del backup["house_rules"]
    assert upload(client, json.dumps(backup).encode()).status_code == 303
    assert set(stored_facts(app)["house_rules"]) == set()


def test_a_backup_of_a_three_round_game_and_set_restores(app: Flask, client: FlaskClient) -> None:
    save_house_rules(app, client)
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS[:3])
    backup: dict[str, Any] = json.loads(client.get(f"{url}/backup.json").get_data())
    empty(app)
    # As made while 1 to 20 rounds were allowed: a game of three rounds, played to its end.
    for rules in (backup["games"][0]["rules"], backup["house_rules"][0]["rules"]):
        rules["rounds"] = rules["rounds"][:3]
    restored = upload(client, json.dumps(backup).encode())
    assert restored.status_code == 303
    here = restored.headers["Location"]
    assert "Won by Ben" in text(client.get(here).get_data(as_text=True))
    record = client.get(f"{here}/record")
    assert record.status_code == 200 and "Ben" in text(record.get_data(as_text=True))
    with app.app_context():
        club = db.session.scalars(select(HouseRules).where(HouseRules.name == "Club rules")).one()
        assert len(house_rules.rules_of(club).rounds) == 3
