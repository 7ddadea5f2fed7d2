"""What a 2,000-game restore costs, how long it holds the write lock, and what phones feel.

Run: .venv/bin/python bench/restore.py [--games 2000] [--repeat 3]
Each run restores one table's backup of that many finished four-player May I? games (one game
played through the forms, cloned with fresh links) into a fresh database, SQLite and, when it
answers on 127.0.0.1:5432, PostgreSQL. Meanwhile a phone at another table buys again and
again. Prints the restore's phases (reading, the rules' replay, the write under the lock) and
the phone's buy times while idle and during the restore, measured in turns (idle, restore,
idle, ...), with their ratio.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import secrets
import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.tables import backup

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]
HANDS = {"Anna": 10, "Carla": 30, "Dan": 40}
ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


def make_app(url: str, folder: str) -> Flask:
    """The app on a fresh, migrated database."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "bench",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    app.instance_path = folder
    with app.app_context():
        upgrade()
    return app


def post(client: FlaskClient, path: str, data: dict[str, Any]) -> str:
    """A form post that must succeed; where it leads."""
    response = client.post(path, data=data)
    assert response.status_code == 303, (path, response.status_code)
    return str(response.headers["Location"])


def big_backup(app: Flask, games: int) -> bytes:
    """A table's backup with `games` finished games: one played through the forms, cloned."""
    client = app.test_client()
    table = post(client, "/tables/", {"name": "Bench club"})
    names = {f"players-{i}": name for i, name in enumerate(PLAYERS)}
    game = post(client, f"{table}/games", {"ruleset": "may-i", "first_dealer": "0", **names})
    for seat in (1, 2):
        post(client, f"{game}/buys", {"seat": seat})
    for number in range(1, 8):
        hands = {f"points_{PLAYERS.index(n)}": str(p) for n, p in HANDS.items()}
        post(client, f"{game}/rounds/{number}", {"went_out": "1", **hands})
    data = json.loads(client.get(f"{table}/backup.json").get_data())
    played = data["games"][0]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    data["games"] = [_clone(played, start + timedelta(hours=n)) for n in range(games)]
    return json.dumps(data).encode()


def _clone(played: dict[str, Any], moment: datetime) -> dict[str, Any]:
    """The game again with its own links and time."""
    clone = copy.deepcopy(played)
    clone.update(edit_token=secrets.token_urlsafe(24), view_token=secrets.token_urlsafe(24))
    clone.update(created_at=moment.isoformat(), updated_at=moment.isoformat())
    return clone


class Phone(threading.Thread):
    """A phone at another table that buys again and again, timing each buy."""

    def __init__(self, app: Flask) -> None:
        super().__init__(daemon=True)
        self.client = app.test_client()
        table = post(self.client, "/tables/", {"name": "Next table"})
        names = {f"players-{i}": name for i, name in enumerate(PLAYERS)}
        data = {"ruleset": "unlimited-buys", "first_dealer": "0", **names}
        self.game = post(self.client, f"{table}/games", data)
        self.times: list[float] = []
        self.failed = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            began = time.perf_counter()
            status = self.client.post(f"{self.game}/buys", data={"seat": 1}).status_code
            self.times.append(time.perf_counter() - began)
            self.failed += status != 303
            time.sleep(0.01)

    def during(self, seconds: float, work: Callable[[], object] | None = None) -> list[float]:
        """The buy times while `work` runs (or for `seconds` of idling)."""
        first = len(self.times)
        if work is not None:
            work()
        else:
            time.sleep(seconds)
        return self.times[first:]


@contextmanager
def timed(phases: dict[str, float], name: str, target: Any, attribute: str) -> Iterator[None]:
    """Add the wall and CPU time spent in target.attribute to phases[name] during the block."""
    original = getattr(target, attribute)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        began, cpu = time.perf_counter(), time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            phases[name] = phases.get(name, 0.0) + time.perf_counter() - began
            # This thread's own CPU: what the phase costs without the machine's other load.
            phases[f"{name} cpu"] = phases.get(f"{name} cpu", 0.0) + time.thread_time() - cpu

    setattr(target, attribute, wrapper)
    try:
        yield
    finally:
        setattr(target, attribute, original)


def restore_once(app: Flask, file: bytes, phone: Phone) -> tuple[dict[str, float], list[float]]:
    """Restore the file while the phone buys; the phases' times and the phone's buy times."""
    phases: dict[str, float] = {}
    client = app.test_client()

    def restore() -> None:
        began = time.perf_counter()
        upload = {"backup": (io.BytesIO(file), "backup.json")}
        response = client.post("/tables/import", data=upload, content_type="multipart/form-data")
        assert response.status_code == 303, response.get_data(as_text=True)[-500:]
        phases["total"] = time.perf_counter() - began

    with (
        timed(phases, "read", backup, "read_backup"),
        timed(phases, "replay", backup, "replay_games"),
        timed(phases, "write (lock held)", backup, "store"),
    ):
        buys = phone.during(0, restore)
    return phases, buys


def databases(folder: Path) -> Iterator[tuple[str, Callable[[], str]]]:
    """Fresh database URLs to restore into: SQLite, and PostgreSQL when it answers."""
    yield "SQLite", lambda: f"sqlite:///{folder}/{uuid.uuid4().hex}.db"
    try:
        psycopg.connect(ADMIN, connect_timeout=3).close()
    except psycopg.OperationalError:
        print("PostgreSQL not reachable on 127.0.0.1:5432: SQLite only")
        return
    yield "PostgreSQL", _postgres_database


CREATED: list[str] = []


def _postgres_database() -> str:
    """A new, empty PostgreSQL database for one run (dropped at the end)."""
    name = f"scorekeeper_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    CREATED.append(name)
    return f"postgresql://postgres@127.0.0.1:5432/{name}"


def milliseconds(times: list[float]) -> str:
    """Median and largest of some times, in ms."""
    if not times:
        return "no buy finished"
    return f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        maker = make_app(f"sqlite:///{folder}/source.db", folder)
        file = big_backup(maker, args.games)
        print(f"backup of {args.games} games: {len(file) / 1e6:.1f} MB")
        try:
            for name, fresh in databases(Path(folder)):
                run(name, fresh, file, folder, args.repeat)
        finally:
            for created in CREATED:
                with psycopg.connect(ADMIN, autocommit=True) as admin:
                    admin.execute(f"DROP DATABASE IF EXISTS {created} WITH (FORCE)")


def run(name: str, fresh: Callable[[], str], file: bytes, folder: str, repeat: int) -> None:
    """Restore `repeat` times into fresh databases, idling the phone in between, and print."""
    idle: list[float] = []
    during: list[float] = []
    for number in range(1, repeat + 1):
        app = make_app(fresh(), folder)
        phone = Phone(app)
        phone.start()
        idle += phone.during(2.0)
        phases, buys = restore_once(app, file, phone)
        during += buys
        phone.stop.set()
        phone.join(timeout=30)
        shown = ", ".join(f"{key} {value:.2f} s" for key, value in phases.items())
        print(f"{name} run {number}: {shown}; {len(buys)} buys meanwhile, {phone.failed} failed")
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    ratio = statistics.median(during) / statistics.median(idle) if idle and during else 0
    print(f"{name} buys while idle: {milliseconds(idle)}")
    print(f"{name} buys during a restore: {milliseconds(during)} (median ratio {ratio:.2f})")


if __name__ == "__main__":
    main()
