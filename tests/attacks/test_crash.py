"""kill -9 under write load: every write the server acknowledged is there after a restart.

A real server process (`flask run`) takes buys and their removals from several clients at
once, each on its own game; it is killed with SIGKILL mid-load, started again, and the
database is read: acknowledged changes found, SQLite's integrity check, versions that
match the history one by one.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select, text

from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.models import Change, Game
from scorekeeper.rules.presets import MAY_I
from tests.conftest import status_of
from tests.figures import FIGURES
from tools.nginx_proxy import free_port

pytestmark = pytest.mark.storage

CLIENTS = 4
KILL_AFTER = 150  # acknowledged writes before the kill: the load is well under way


@contextmanager
def server(database_url: str, instance: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """`flask run` on the database in its own process; its process and base URL."""
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": "crash-test",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "run", "--port", str(port)],
        env=env,
        cwd=instance,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(process, base)
        yield process, base
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def wait_until_up(process: subprocess.Popen[bytes], base: str) -> None:
    """Block until the server answers (it fails the test if the process exits instead)."""
    while process.poll() is None:
        try:
            with urllib.request.urlopen(f"{base}/api/v1/rulesets", timeout=5):
                return
        except OSError:
            threading.Event().wait(0.1)
    raise AssertionError(f"the server exited with {process.returncode}")


def post(base: str, path: str, token: str, body: dict[str, object]) -> int:
    """POST JSON with the game's link; the status, or 0 when the server is gone."""
    request = urllib.request.Request(
        f"{base}/api/v1{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    try:
        return status_of(request)
    except OSError:
        return 0


def test_acknowledged_writes_survive_kill_9(app: Flask, database_url: str, tmp_path: Path) -> None:
    backend = database_url.split(":", 1)[0]
    with app.app_context():
        games = [actions.create_game(MAY_I, ["Anna", "Ben", "Carla"], 0) for _ in range(CLIENTS)]
        links = [(game.id, game.edit_token) for game in games]
        db.session.remove()
        db.engine.dispose()
    acknowledged: list[str] = []
    refused: list[tuple[int, str]] = []
    enough = threading.Event()
    lock = threading.Lock()

    def client(index: int, base: str) -> None:
        game_id, token = links[index]
        for step in range(10_000):
            action_id = f"c{index}-{step}"
            path = f"/games/{game_id}/buys" + ("" if step % 2 == 0 else "/remove")
            status = post(base, path, token, {"seat": 1, "action_id": action_id})
            if status == 0:
                return  # killed
            if status not in (200, 201):
                refused.append((status, action_id))
                enough.set()  # fails below: every write here is one the rules allow
                return
            with lock:
                acknowledged.append(action_id)
                if len(acknowledged) >= KILL_AFTER:
                    enough.set()

    with server(database_url, tmp_path) as (process, base):
        threads = [threading.Thread(target=client, args=(i, base)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        enough.wait(timeout=120)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        for thread in threads:
            thread.join(timeout=60)
    with server(database_url, tmp_path) as (_process, base):
        game_id, token = links[0]
        assert post(base, f"/games/{game_id}/buys", token, {"seat": 2}) == 201  # writes again

    with app.app_context():
        found = set(db.session.scalars(select(Change.action_id)))
        lost = [action_id for action_id in acknowledged if action_id not in found]
        for game in db.session.scalars(select(Game)):
            versions = list(
                db.session.scalars(
                    select(Change.version).where(Change.game_id == game.id).order_by(Change.id)
                )
            )
            assert versions == list(range(1, game.version + 1)), game.id
        if backend == "sqlite":
            assert db.session.scalar(text("PRAGMA integrity_check")) == "ok"
        db.session.remove()
    FIGURES[f"crash test {backend}:writes acknowledged"] += len(acknowledged)
    FIGURES[f"crash test {backend}:acknowledged found"] += len(acknowledged) - len(lost)
    FIGURES[f"crash test {backend}:lost"] += len(lost)
    assert refused == []
    assert len(acknowledged) >= KILL_AFTER
    assert lost == []
