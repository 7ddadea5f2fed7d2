"""`scorekeeper backup FILE` while the server runs, `scorekeeper restore FILE` into an empty
instance, and the backup the migrate step makes first; on SQLite and PostgreSQL.

Not the tables' JSON backups (tests/tables/test_backup.py): these copy the whole instance.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import Connection, MetaData, Table, create_engine, select

from scorekeeper.config import with_psycopg
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tools.nginx_proxy import scorekeeper

pytestmark = pytest.mark.storage

SCRIPT = Path(sys.executable).parent / "scorekeeper"
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
PLAYERS = [
    "Bartholomeus",
    "Concepción",
    "Marie-Claire",
    "Guðmundur",
    "Anna",
    "Ben",
    "Carla",
    "Dan",
]


def command(url: str, *arguments: str | Path, data: Path) -> subprocess.CompletedProcess[str]:
    """Run `scorekeeper <arguments>` on the database at url, its instance folder in data."""
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": "backup-test",
        "SCOREKEEPER_DATA_DIR": str(data),
    }
    return subprocess.run(
        [str(SCRIPT), *map(str, arguments)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def served(url: str, tmp_path: Path) -> Any:
    """`scorekeeper serve` on the database, starting games as fast as a test likes."""
    settings = {
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": "backup-test",
        "SCOREKEEPER_DATA_DIR": str(tmp_path / "served"),
        "SCOREKEEPER_RATELIMIT_NEW_GAMES": "1000 per minute",
        "SCOREKEEPER_WORKERS": "1",
    }
    return scorekeeper(settings)


def fill(base: str) -> list[tuple[int, str]]:
    """Three games of eight with buys and rounds, a saved rule set: what a family leaves."""
    api, games = requests.Session(), []
    for first in range(3):
        body = {"ruleset": "may-i", "players": PLAYERS, "first_dealer": first}
        game = api.post(f"{base}/api/v1/games", json=body).json()
        auth = {"Authorization": f"Bearer {game['links']['edit_token']}"}
        for number in (1, 2):
            api.post(f"{base}/api/v1/games/{game['id']}/buys", json={"seat": 2}, headers=auth)
            hands = {str(s): {"points": 5 * s + number} for s in range(1, 8)}
            put = f"{base}/api/v1/games/{game['id']}/rounds/{number}"
            assert api.put(put, json={"went_out": 0, "hands": hands}, headers=auth).ok
        games.append((game["id"], game["links"]["edit_token"]))
    rules = {"name": "Guðmundur's house", "rules": ruleset_to_dict(MAY_I)}
    assert api.post(f"{base}/api/v1/rulesets/saved", json=rules).status_code == 201
    csrf = CSRF.findall(api.get(f"{base}/").text)[0]
    table = {"name": "Thursday club"}
    opened = api.post(f"{base}/tables/", data=table, headers={"X-CSRFToken": csrf})
    assert opened.ok, opened.text
    return games


@contextmanager
def reflected(url: str, *only: str) -> Iterator[tuple[Connection, dict[str, Table]]]:
    """A connection to the database and its tables as they are there."""
    engine = create_engine(with_psycopg(url))
    try:
        with engine.connect() as connection:
            tables = MetaData()
            tables.reflect(connection, only=list(only) or None)
            yield connection, dict(tables.tables)
    finally:
        engine.dispose()


def rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in key order: what an instance holds."""
    with reflected(url) as (connection, tables):
        return {
            name: [tuple(row) for row in connection.execute(select(t).order_by(*t.primary_key))]
            for name, t in tables.items()
        }


def test_a_backup_while_serving_restores_the_same_games(
    database_url: str, empty_url: str, tmp_path: Path
) -> None:
    file = tmp_path / "instance.backup"
    with served(database_url, tmp_path) as port:
        base = f"http://127.0.0.1:{port}"
        games = fill(base)
        if database_url.startswith("sqlite"):  # the server holds what it wrote in its WAL file
            assert Path(database_url.removeprefix("sqlite:///") + "-wal").stat().st_size > 0
        done = command(database_url, "backup", file, data=tmp_path)
        assert done.returncode == 0, done.stderr
        before = requests.get(f"{base}/api/v1/games/{games[0][0]}", headers=bearer(games[0]))
    expected = rows(database_url)
    assert len(expected["game"]) == 3 and len(expected["buy"]) == 6

    done = command(empty_url, "restore", file, data=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "3 games, 1 table, 1 house rule set" in done.stdout
    assert rows(empty_url) == expected
    with served(empty_url, tmp_path / "again") as port:
        after = requests.get(
            f"http://127.0.0.1:{port}/api/v1/games/{games[0][0]}", headers=bearer(games[0])
        )
    assert after.status_code == 200 and after.json() == before.json()


def bearer(game: tuple[int, str]) -> dict[str, str]:
    return {"Authorization": f"Bearer {game[1]}"}


def test_a_backup_during_writes_is_one_consistent_moment(
    database_url: str, empty_url: str, tmp_path: Path
) -> None:
    file = tmp_path / "busy.backup"
    with served(database_url, tmp_path) as port:
        base = f"http://127.0.0.1:{port}"
        game = fill(base)[0]
        stop, writes = threading.Event(), [0]

        def write() -> None:
            url = f"{base}/api/v1/games/{game[0]}/buys"
            while not stop.is_set():
                for path in ("", "/remove"):
                    requests.post(url + path, json={"seat": 3}, headers=bearer(game))
                    writes[0] += 1

        writer = threading.Thread(target=write)
        writer.start()
        try:
            done = command(database_url, "backup", file, data=tmp_path)
        finally:
            stop.set()
            writer.join(timeout=30)
    assert done.returncode == 0, done.stderr
    assert writes[0] > 0
    assert command(empty_url, "restore", file, data=tmp_path).returncode == 0
    version, history = versions(empty_url, game[0])
    assert history == list(range(1, version + 1))  # every change of that moment, none after


def versions(url: str, game_id: int) -> tuple[int, list[int]]:
    """A game's version, and the versions its history's changes made, in order."""
    with reflected(url, "game", "change") as (connection, tables):
        game, change = tables["game"], tables["change"]
        version = connection.scalar(select(game.c.version).where(game.c.id == game_id))
        made = select(change.c.version).where(change.c.game_id == game_id)
        return int(version or 0), list(connection.scalars(made.order_by(change.c.id)))


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_backups_are_readable_by_their_owner_alone(database_url: str, tmp_path: Path) -> None:
    assert command(database_url, "migrate", data=tmp_path).returncode == 0
    named = tmp_path / "new" / "folder" / "instance.backup"
    done = command(database_url, "backup", named, data=tmp_path)
    assert done.returncode == 0, done.stderr
    assert mode(named) == 0o600 and mode(named.parent) == 0o700
    (tmp_path / "backups").mkdir(mode=0o755)
    done = command(database_url, "backup", data=tmp_path)
    assert done.returncode == 0, done.stderr
    [made] = (tmp_path / "backups").iterdir()
    assert mode(made) == 0o600 and mode(made.parent) == 0o700  # BACKUP_DIR: every link in it


def test_backup_keep_keeps_the_newest_it_made(database_url: str, tmp_path: Path) -> None:
    assert command(database_url, "migrate", data=tmp_path).returncode == 0
    folder = tmp_path / "backups"
    folder.mkdir()
    others = [folder / "before-migration-20200101T000000Z.sqlite3", folder / "notes.txt"]
    for other in others:
        other.write_text("kept")
    made = []
    for _night in range(4):
        done = command(database_url, "backup", "--keep", "2", data=tmp_path)
        assert done.returncode == 0, done.stderr
        made.append(Path(done.stdout.splitlines()[0].removeprefix("Backed the instance up to ")))
    assert sorted(folder.iterdir()) == sorted([*others, *made[2:]])
    assert made == sorted(made, key=lambda path: path.name)  # names sort oldest first
    assert all(path.name.startswith("scorekeeper-") for path in made)
    assert f"Deleted the older backup {made[1]}" in done.stdout
    refused = command(database_url, "backup", tmp_path / "x.backup", "--keep", "2", data=tmp_path)
    assert refused.returncode == 1 and "give no FILE with it" in refused.stderr
    assert not (tmp_path / "x.backup").exists()
