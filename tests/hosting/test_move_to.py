"""`scorekeeper move-to URL`: a family's instance copied into an empty PostgreSQL database, every
row identical and the same pages served; a database holding anything is refused.

From SQLite, the move a family makes; on the PostgreSQL leg from PostgreSQL into another one.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
import requests
from sqlalchemy import func, select

from tests.databases import close, make_app, migrate
from tests.hosting.conftest import new_postgres_database
from tests.hosting.test_instance_backup import bearer, command, fill, reflected, rows, served

pytestmark = pytest.mark.storage

# What each page draws anew for every request: the CSRF token, a tap's id.
A_GAME = {"ruleset": "may-i", "players": ["Anna", "Ben"]}
PER_REQUEST = re.compile(r'("X-CSRFToken": "|name="(?:csrf_token|action_id)" value=")[^"]+')


def play_a_table(base: str) -> list[tuple[int, str]]:
    """A table's two games, its people merged, a seat's call, hands sent from the phones."""
    api = requests.Session()
    table = api.post(f"{base}/api/v1/tables", json={"name": "Friday club"}).json()
    url, auth = f"{base}/api/v1/tables/{table['id']}", bearer((0, table["links"]["edit_token"]))
    games = []
    for players in (["Anna", "Ben", "Carla"], ["Ben", "Carla", "Ann"]):
        body = {"ruleset": "may-i", "players": players, "first_dealer": 0}
        made = api.post(f"{url}/games", json=body, headers=auth)
        assert made.status_code == 201, made.text
        games.append((made.json()["id"], made.json()["links"]["edit_token"]))
    people = {p["name"]: p["id"] for p in api.get(url, headers=auth).json()["people"]}
    merge = {"merged": people["Anna"], "into": people["Ann"]}  # into a later row of its table
    assert api.post(f"{url}/merges", json=merge, headers=auth).status_code == 201
    game_id, edit = games[0]
    seats = api.get(f"{base}/api/v1/games/{game_id}", headers=bearer(games[0])).json()
    ben, carla = (bearer((0, seat["token"])) for seat in seats["seat_links"][1:])
    game = f"{base}/api/v1/games/{game_id}"
    assert api.post(f"{game}/seat/calls", json={}, headers=ben).status_code == 201
    assert api.put(f"{game}/seat/hand", json={"round": 1, "points": 5}, headers=ben).ok
    assert api.put(f"{game}/seat/hand", json={"round": 1, "points": 9}, headers=carla).ok
    assert api.post(f"{game}/seat-links/2", json={}, headers=bearer(games[0])).ok  # one retired
    return [*games, (table["id"], edit)]


def pages(base: str, games: list[tuple[int, str]]) -> list[Any]:
    """What the phones see: each game's API answer, its round screen and score sheet."""
    seen: list[Any] = []
    for game_id, token in games:
        seen.append(
            requests.get(f"{base}/api/v1/games/{game_id}", headers=bearer((0, token))).json()
        )
        for path in ("", "/sheet"):
            page = requests.get(f"{base}/g/{game_id}/{token}{path}")
            assert page.status_code == 200, page.url
            seen.append(PER_REQUEST.sub(r"\1…", page.text))
    return seen


def as_moved(instance: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[tuple[Any, ...]]]:
    """Rows with SQLite's zoneless UTC moments given their zone, as PostgreSQL answers them."""
    return {
        name: [
            tuple(
                v.replace(tzinfo=UTC) if isinstance(v, datetime) and v.tzinfo is None else v
                for v in row
            )
            for row in table
        ]
        for name, table in instance.items()
    }


def test_a_move_copies_every_row_and_serves_the_same_pages(
    database_url: str, tmp_path: Path
) -> None:
    with served(database_url, tmp_path) as port:
        base = f"http://127.0.0.1:{port}"
        games = fill(base)
        table_games = play_a_table(base)
        played = [*games, *table_games[:2]]
        before = pages(base, played)
    expected = as_moved(rows(database_url))
    assert len(expected["seat_call"]) == 1 and len(expected["seat_hand"]) == 2
    with reflected(database_url, "table_player") as (connection, tables):
        merged = tables["table_player"].c.merged_into_id
        assert connection.scalar(select(func.count()).where(merged.isnot(None))) == 1
    with new_postgres_database() as target:
        done = command(database_url, "move-to", target, data=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "Moved 5 games, 2 tables, 1 house rule set into" in done.stdout
        assert as_moved(rows(target)) == expected
        with served(target, tmp_path / "moved") as port:
            base = f"http://127.0.0.1:{port}"
            assert pages(base, played) == before
            new = requests.post(f"{base}/api/v1/games", json=A_GAME)
            assert new.status_code == 201 and new.json()["id"] == 6  # past the moved ids
    assert as_moved(rows(database_url)) == expected  # the source is left as it was


def test_a_database_that_holds_anything_is_refused(database_url: str, tmp_path: Path) -> None:
    assert command(database_url, "migrate", data=tmp_path).returncode == 0
    with new_postgres_database() as target:
        migrate(target, str(tmp_path))
        app = make_app(target, str(tmp_path))
        assert app.test_client().post("/api/v1/games", json=A_GAME).status_code == 201
        close(app)
        holding = rows(target)
        done = command(database_url, "move-to", target, data=tmp_path)
        assert done.returncode == 1
        assert "holds Scorekeeper data already: move into an empty one" in done.stderr
        assert rows(target) == holding
    with new_postgres_database() as target:
        with psycopg.connect(target, autocommit=True) as connection:
            connection.execute("CREATE TABLE invoices (id integer)")
        done = command(database_url, "move-to", target, data=tmp_path)
        assert done.returncode == 1 and "holds other tables (invoices)" in done.stderr
        assert set(rows(target)) == {"invoices"}
    done = command(database_url, "move-to", f"sqlite:///{tmp_path / 'x.db'}", data=tmp_path)
    assert done.returncode == 1 and "move-to takes a PostgreSQL URL" in done.stderr
