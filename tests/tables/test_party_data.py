"""A card party in the table's data: its record, its CSV and its backup, restored whole or not."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import CardParty, CardTable, Game, PartyChange, PartyGame, PartyPerson
from scorekeeper.tables.party_evening import read_evening
from tests.tables.backups import backup_of, empty, encoded, nothing_stored, stored_facts, upload
from tests.tables.helpers import BEN_WINS, play, start_at
from tests.tables.party_helpers import confirm, finish, games_of, start_party
from tests.web.test_games import text

pytestmark = pytest.mark.storage

SEVEN = ["Anna", "Ben", "Carla", "Dan", "Eva", "Fritz", "Gina"]


def played_evening(app: Flask, client: FlaskClient) -> tuple[str, list[str]]:
    """A table with a game of its own and an evening of 7 whose first round has finished and
    whose second is being played; the table's URL and the two tables' winners."""
    table_url, party_url = start_party(client, SEVEN)
    play(start_at(client, table_url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    confirm(client, party_url)
    four, three = games_of(app, client, 1)
    finish(four, four.names)
    finish(three, list(reversed(three.names)))
    confirm(client, party_url)  # round 2 as the rule proposes it
    return table_url, [four.names[0], three.names[-1]]


def evening_facts(app: Flask) -> list[Any]:
    """Every evening's settings, people, games and changes by what they name, and standings."""
    with app.app_context():
        found = []
        for party in db.session.scalars(select(CardParty).order_by(CardParty.id)):
            table = db.session.get_one(CardTable, party.table_id)
            evening = read_evening(table, party)
            names = evening.names
            people = db.session.scalars(select(PartyPerson).where(PartyPerson.party_id == party.id))
            changes = db.session.scalars(
                select(PartyChange).where(PartyChange.party_id == party.id)
            )
            games = db.session.scalars(select(PartyGame).where(PartyGame.party_id == party.id))
            links = dict(db.session.execute(select(Game.id, Game.edit_token)).tuples().all())
            found.append(
                (
                    party.rules_json,
                    party.rotation,
                    party.seed,
                    party.state,
                    party.version,
                    sorted((p.token, names[str(p.person_id)]) for p in people),
                    sorted((g.round, g.table_number, links[g.game_id]) for g in games),
                    [(c.kind, _named(c.after, names), c.version) for c in changes],
                    [
                        (names[row.person], row.points, row.won, row.place)
                        for row in evening.standings
                    ],
                    [[t.game.facts.edit_token for t in tables] for tables in evening.rounds],
                )
            )
        db.session.remove()
        return found


def _named(after: dict[str, Any] | None, names: dict[str, str]) -> Any:
    """A change's people by name."""
    after = dict(after or {})
    if "people" in after:
        after["people"] = [names[str(p)] for p in after["people"]]
    if "seating" in after:
        after["seating"] = [[names[str(p)] for p in table] for table in after["seating"]]
    return after


def test_the_record_counts_evening_games_and_lists_the_evening_with_its_winners(
    app: Flask, client: FlaskClient
) -> None:
    table_url, winners = played_evening(app, client)
    page = text(client.get(f"{table_url}/record").get_data(as_text=True))
    # Anna played the table's own game and one of the evening's finished games.
    assert "Anna 2 " in page
    assert "Card parties Date Tables Players Winner" in page
    # Both tables' winners tie first in the standings: the evening has two winners so far.
    found = re.search(r"Players Winner [\w ,]+? 2 7 (\w+), (\w+) \(still playing\)", page)
    assert found, page
    assert set(found.groups()) == set(winners)


def test_the_table_csv_says_which_evening_round_and_table_each_game_was(
    app: Flask, client: FlaskClient
) -> None:
    table_url, _ = played_evening(app, client)
    body = client.get(f"{table_url}/games.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][:10] == [
        "game",
        "date",
        "rule_set",
        "finished",
        "seat",
        "player",
        "total",
        "rounds_out",
        "buys",
        "winner",
    ]
    assert rows[0][10:] == ["evening", "evening_round", "evening_table"]
    places = {tuple(row[10:]) for row in rows[1:]}
    assert places == {
        ("", "", ""),
        ("1", "1", "1"),
        ("1", "1", "2"),
        ("1", "2", "1"),
        ("1", "2", "2"),
    }


def test_a_backup_restores_an_evening_whole_with_the_same_standings(
    app: Flask, client: FlaskClient
) -> None:
    table_url, _ = played_evening(app, client)
    before, facts = evening_facts(app), stored_facts(app)
    assert before[0][8][0][3] == 1  # a standings row placed first
    backup = client.get(f"{table_url}/backup.json").get_data()
    assert json.loads(backup)["parties"][0]["people"][0]["token"]
    empty(app)
    assert upload(client, backup).status_code == 303
    assert evening_facts(app) == before
    assert stored_facts(app) == facts
    assert "New card parties: 1." in text(client.get("/").get_data(as_text=True))
    assert upload(client, backup).status_code == 303  # twice adds nothing
    assert evening_facts(app) == before
    home = text(client.get("/").get_data(as_text=True))
    assert "Everything in this file is already here: nothing was added." in home


def _drop_evening_game(backup: dict[str, Any]) -> None:
    token = backup["parties"][0]["games"][0]["game"]
    backup["games"] = [game for game in backup["games"] if game["edit_token"] != token]


def _stranger_at_evening(backup: dict[str, Any]) -> None:
    backup["parties"][0]["people"][0]["uid"] = "stranger"


def _game_twice(backup: dict[str, Any]) -> None:
    again = json.loads(json.dumps(backup["parties"][0]))
    for person in again["people"]:
        person["token"] = person["token"][::-1]
    backup["parties"].append(again)


def _swapper_not_there(backup: dict[str, Any]) -> None:
    backup["parties"][0]["changes"][0]["after"]["people"][0] = "stranger"


def _swap_as_a_number(backup: dict[str, Any]) -> None:
    backup["parties"][0]["changes"][0]["after"]["people"] = 7


def _someone_missing_in_a_round(backup: dict[str, Any]) -> None:
    missing = backup["parties"][0]["games"].pop()
    backup["games"] = [game for game in backup["games"] if game["edit_token"] != missing["game"]]


def _too_few_to_seat(backup: dict[str, Any]) -> None:
    party = backup["parties"][0]
    party["games"], party["people"] = [], party["people"][:2]
    party["changes"] = [change for change in party["changes"] if change["kind"] == "start"]
    party["changes"][0]["after"]["people"] = [person["uid"] for person in party["people"]]


@pytest.mark.parametrize(
    ("breaks", "reason"),
    [
        (_swap_as_a_number, "does not hold, at parties.0.changes.0.after"),
        (_someone_missing_in_a_round, "Each round of the evening seats each of its people once."),
        (_too_few_to_seat, "The backup is refused at parties.0.people"),
        (_drop_evening_game, "does not hold, at parties.0.games.0.game"),
        (_stranger_at_evening, "does not hold, at parties.0.people"),
        (_game_twice, "The backup holds one game in two evenings."),
        (_swapper_not_there, "does not hold, at parties.0.changes.0.after"),
    ],
)
def test_a_backup_with_a_broken_evening_is_refused_whole(
    app: Flask, client: FlaskClient, breaks: Any, reason: str
) -> None:
    table_url, _ = played_evening(app, client)
    backup = backup_of(client, table_url)
    breaks(backup)
    empty(app)
    response = upload(client, encoded(backup))
    assert response.status_code == 422
    assert reason in text(response.get_data(as_text=True))
    assert nothing_stored(app) and evening_facts(app) == []


def test_a_backup_without_evenings_still_restores(app: Flask, client: FlaskClient) -> None:
    table_url, _ = played_evening(app, client)
    backup = backup_of(client, table_url)
    del backup["parties"]
    empty(app)
    assert upload(client, encoded(backup)).status_code == 303
    assert evening_facts(app) == []
    assert len(stored_facts(app)["game"]) == 5
