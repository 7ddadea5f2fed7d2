"""A file restores whole or is refused with the reason; a restore never changes a stored fact.

Before: a backup whose table had a new identity, restored where its games already were, made
a new table with its people and no games and said "New games: 0"; the same file twice said
it added 0 of everything; an older backup silently undid merges made since (and redid undone
ones).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import TablePlayer
from tests.tables.backups import (
    backup_of,
    empty,
    encoded,
    played_table,
    stored_facts,
    upload,
)
from tests.tables.helpers import BEN_WINS, open_table, play, start_at
from tests.web.test_games import text

pytestmark = pytest.mark.storage

Backup = dict[str, Any]
ALREADY_HERE = "Everything in this file is already here: nothing was added."
KEPT = "Where the file and this table differ, the table's facts are kept:"


def person_id(app: Flask, name: str) -> int:
    with app.app_context():
        found = db.session.scalars(select(TablePlayer.id).where(TablePlayer.name == name)).one()
        db.session.remove()
        return found


def restored_page(client: FlaskClient, backup: Backup) -> str:
    """Restore the file (it must be accepted); the text of the page it leads to."""
    response = upload(client, encoded(backup))
    assert response.status_code == 303, text(response.get_data(as_text=True))
    return text(client.get(response.headers["Location"]).get_data(as_text=True))


def test_a_table_given_a_new_identity_is_refused_where_its_games_are(
    app: Flask, client: FlaskClient
) -> None:
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    backup = backup_of(client, url)
    backup["table"]["uid"] = "a-new-identity"
    renewed = {p["uid"]: f"new-{p['uid'][:20]}" for p in backup["players"]}
    for player in backup["players"]:
        player["uid"] = renewed[player["uid"]]
    backup["games"][0]["seats"] = [renewed[uid] for uid in backup["games"][0]["seats"]]
    before = stored_facts(app)
    response = upload(client, encoded(backup))
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    assert "Game 1 of the file (" in page and "It is already here, at another table." in page
    assert stored_facts(app) == before


def test_people_of_another_table_are_refused_not_half_restored(
    app: Flask, client: FlaskClient
) -> None:
    url = open_table(client)
    start_at(client, url, ["Anna", "Ben"])
    backup = backup_of(client, url)
    backup["table"]["uid"] = "a-new-identity"
    backup["games"] = []
    before = stored_facts(app)
    response = upload(client, encoded(backup))
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    assert "The backup is refused at players.0: This person is already here, at another" in page
    assert stored_facts(app) == before


def test_the_same_file_twice_adds_nothing_and_says_so(app: Flask, client: FlaskClient) -> None:
    url = played_table(app, client)
    backup = backup_of(client, url)
    empty(app)
    assert "New games: 3. New people: 5. New house rule sets: 2." in restored_page(client, backup)
    after_one = stored_facts(app)
    page = restored_page(client, backup)
    assert ALREADY_HERE in page and "New games" not in page
    assert KEPT not in page  # nothing differs: nothing to report
    assert stored_facts(app) == after_one


def test_an_older_backup_does_not_redo_an_undone_merge(app: Flask, client: FlaskClient) -> None:
    url = played_table(app, client)  # Anne is merged into Anna
    older = backup_of(client, url)
    anne = person_id(app, "Anne")
    assert client.post(f"{url}/people/{anne}/unmerge").status_code == 303
    before = stored_facts(app)
    page = restored_page(client, older)
    assert stored_facts(app) == before
    assert ALREADY_HERE in page and KEPT in page
    assert "Anne counts as Anna in the file; here as themselves." in page


def test_an_older_backup_does_not_undo_a_merge_made_since(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    start_at(client, url, ["Anna", "Ben"])
    start_at(client, url, ["Anne", "Ben"])
    older = backup_of(client, url)
    merged = {"merged": person_id(app, "Anne"), "into": person_id(app, "Anna")}
    assert client.post(f"{url}/merge", data=merged).status_code == 303
    before = stored_facts(app)
    page = restored_page(client, older)
    assert stored_facts(app) == before
    assert "Anne counts as Anna here; in the file as themselves." in page


def test_an_older_backup_keeps_a_rename_and_a_corrected_round_and_says_so(
    app: Flask, client: FlaskClient
) -> None:
    url = open_table(client)
    game = start_at(client, url, ["Anna", "Ben", "Carla", "Dan"])
    play(game, BEN_WINS)
    older = backup_of(client, url)
    ben = person_id(app, "Ben")
    renamed = client.post(f"{url}/people/{ben}/name", data={"name": "Benjamin"})
    assert renamed.status_code == 303
    out, hands = BEN_WINS[2]
    assert game.end_round(3, out, {**hands, "Ben": 15}).status_code == 303
    replaced = client.post(f"{url}/links/view")
    assert replaced.status_code == 303
    before = stored_facts(app)
    page = restored_page(client, older)
    assert stored_facts(app) == before
    assert KEPT in page
    assert "Benjamin is called Ben in the file." in page
    assert "The table's view link was replaced here since the backup." in page
    assert "(Anna, Benjamin, Carla, and Dan) differs at Round 3 and its history." in page


def test_a_restore_into_an_empty_installation_reports_no_differences(
    app: Flask, client: FlaskClient
) -> None:
    url = played_table(app, client)
    backup = backup_of(client, url)
    empty(app)
    assert KEPT not in restored_page(client, backup)


def test_many_differences_are_summed_up_after_the_first_few(
    app: Flask, client: FlaskClient
) -> None:
    url = open_table(client)
    games = [start_at(client, url, ["Anna", "Ben"]) for _ in range(12)]
    older = backup_of(client, url)
    for game in games:
        assert game.buy("Ben").status_code == 303
    page = restored_page(client, older)
    assert page.count("differs at Round 1 and its history.") == 8
    assert "… and 4 more." in page
