"""Hypothesis restores hostile and tampered backups: never a 5xx; a refused file stores nothing;
an accepted one leaves a table whose every page, download and undo answers.

Files: a real table's backup with one value replaced (deep nesting, wrong types, numbers out
of range or huge, NUL and lone surrogates, times no database reads back, another seat, round
or count the rules refuse), an entry removed or one duplicated (ids twice: a person, a game,
a round, a hand, a change), on both databases.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import CardTable, Game, TablePlayer
from tests.figures import FIGURES
from tests.tables.backups import backup_of, empty, nothing_stored, upload
from tests.tables.helpers import BEN_WINS, open_table, play, start_at

pytestmark = pytest.mark.storage

EXAMPLES = 60  # files per database: about a minute each
Path = tuple[str | int, ...]
DEEP: Any = []
for _ in range(500):  # deep, yet a file json reads (100,000 deep: tests/tables)
    DEEP = [DEEP]
HOSTILE = [
    None, True, False, 0, -1, 1, 7, 8, 99, 2**31, 2**63, 10**30, -(10**30), 1.5, float("inf"),
    "", "\x00", "An\x00na", "\ud800", "\u202eevil", "x" * 10_000, "K", "JK", "may-i", "edit",
    "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00", "2026-02-30T00:00:00Z",
    "2026-01-01T00:00:00+05:00", [], [0, 0], [99], {}, {"K": 99}, {"results": "x"}, DEEP,
]  # fmt: skip


def paths(value: Any, here: Path = ()) -> Iterator[Path]:
    """Every place in a JSON value: each key of an object, each item of a list."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*here, key)
            yield from paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*here, index)
            yield from paths(item, (*here, index))


def parent(document: Any, path: Path) -> Any:
    """The object or list holding the value at `path`."""
    for part in path[:-1]:
        document = document[part]
    return document


def tampered(base: dict[str, Any], edits: list[tuple[str, Path, Any]]) -> dict[str, Any]:
    """The backup with each edit made: a value replaced, an entry removed or duplicated."""
    document = copy.deepcopy(base)
    for kind, path, value in edits:
        try:
            holder, key = parent(document, path), path[-1]
            if kind == "set":
                holder[key] = value
            elif kind == "remove":
                del holder[key]
            elif isinstance(holder, list):
                holder.insert(int(key), copy.deepcopy(holder[int(key)]))
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # an earlier edit moved this place: the file is tampered enough
    return document


def every_page(client: FlaskClient, app: Flask) -> None:
    """Every page, download and undo of every restored table answers, with no server error."""
    with app.app_context():
        tables = db.session.execute(select(CardTable.id, CardTable.edit_token)).all()
        people = db.session.execute(select(TablePlayer.table_id, TablePlayer.id)).all()
        played = db.session.execute(select(Game.id, Game.edit_token)).all()
        db.session.remove()
    urls = []
    for table_id, token in tables:
        url = f"/t/{table_id}/{token}"
        urls += [url, f"{url}/record", f"{url}/games.csv", f"{url}/backup.json"]
        urls += [f"{url}/people/{person}" for owner, person in people if owner == table_id]
    for game_id, token in played:
        url = f"/g/{game_id}/{token}"
        urls += [url, f"{url}/sheet", f"{url}/print", f"{url}/sheet.csv", f"{url}/share"]
    for path in urls:
        assert client.get(path).status_code < 500, path
    for game_id, token in played:
        assert client.post(f"/g/{game_id}/{token}/undo").status_code < 500, game_id
        api = client.get(
            f"/api/v1/games/{game_id}/history", headers={"Authorization": f"Bearer {token}"}
        )
        assert api.status_code < 500, game_id
        assert client.get(f"/g/{game_id}/{token}/sheet").status_code < 500, game_id


@pytest.fixture
def base(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """A table's backup: May I? finished with buys, Liverpool in play with a cut, a merge."""
    url = open_table(client)
    may_i = start_at(client, url, ["Anna", "Ben", "Carla", "Dan"])
    may_i.buy("Ben")
    may_i.run_out()
    play(may_i, BEN_WINS)
    client.post(f"{may_i.url}/undo")
    liverpool = start_at(client, url, ["Anne", "Ben", "Carla"], ruleset="liverpool")
    assert liverpool.end_round(1, "Ben", {"Anne": 10, "Carla": 30}, cut="Carla").status_code == 303
    with app.app_context():
        ids = dict(db.session.execute(select(TablePlayer.name, TablePlayer.id)).tuples().all())
        db.session.remove()
    client.post(f"{url}/merge", data={"merged": ids["Anne"], "into": ids["Anna"]})
    made = backup_of(client, url)
    empty(app)
    return made


def test_hostile_backups_never_break_the_server(
    app: Flask, database_url: str, base: dict[str, Any]
) -> None:
    backend = database_url.split(":", 1)[0]
    places = sorted(set(paths(base)), key=str)
    edits = st.lists(
        st.tuples(
            st.sampled_from(["set", "set", "set", "remove", "twice"]),
            st.sampled_from(places),
            st.one_of(st.sampled_from(HOSTILE), st.integers(-2, 12), st.text(max_size=8)),
        ),
        min_size=1,
        max_size=3,
    )

    @given(edits=edits)
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    def survives(edits: list[tuple[str, Path, Any]]) -> None:
        client = app.test_client()
        file = json.dumps(tampered(base, edits)).encode()
        response = upload(client, file)
        FIGURES[f"backup fuzz {backend}:files"] += 1
        FIGURES[f"backup fuzz {backend}:5xx"] += response.status_code >= 500
        assert response.status_code in (303, 422), (edits, response.status_code)
        if response.status_code == 422:
            FIGURES[f"backup fuzz {backend}:refused"] += 1
            assert nothing_stored(app), edits
        else:
            FIGURES[f"backup fuzz {backend}:restored"] += 1
            every_page(client, app)
            empty(app)

    survives()
    assert FIGURES[f"backup fuzz {backend}:5xx"] == 0


def test_the_untampered_backup_restores_and_every_page_answers(
    app: Flask, client: FlaskClient, base: dict[str, Any]
) -> None:
    assert upload(client, json.dumps(base).encode()).status_code == 303
    every_page(client, app)
