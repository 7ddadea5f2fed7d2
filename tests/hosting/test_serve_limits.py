"""Rate limits hold across `scorekeeper serve`'s worker processes: counted in the data folder's
file by default (SQLite, nothing else configured), on Redis when configured, and in the one
process `serve` then runs with memory://."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import status_of
from tests.hosting.test_serve import serving, workers_started

NEW_GAME = json.dumps({"ruleset": "may-i", "players": ["Anna", "Ben"]}).encode()
TRIES = 12  # at once, each on its own connection: a worker of one thread leaves the next to another


def start_game(port: int) -> int:
    """POST a new game to the API; the answer's status."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/games",
        data=NEW_GAME,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    return status_of(request)


@pytest.mark.parametrize("storage", ["data folder", "redis", "memory"])
def test_two_per_minute_lets_two_games_through_whatever_the_workers(
    tmp_path: Path, storage: str, request: pytest.FixtureRequest
) -> None:
    settings = {"SCOREKEEPER_RATELIMIT_NEW_GAMES": "2 per minute"}
    if storage == "redis":
        settings["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = request.getfixturevalue("redis_url")
        settings["SCOREKEEPER_RATELIMIT_KEY_PREFIX"] = f"serve-test-{uuid.uuid4().hex}"
    if storage == "memory":
        settings["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = "memory://"
    with serving(tmp_path, "--workers", "2", "--threads", "1", **settings) as served:
        workers = workers_started(served.process.pid, 2, seconds=5 if storage == "memory" else 30)
        with ThreadPoolExecutor(TRIES) as pool:
            codes = sorted(pool.map(start_game, [served.port] * TRIES))
    assert codes == [201] * 2 + [429] * (TRIES - 2)
    assert workers == (1 if storage == "memory" else 2)
    if storage == "memory":
        assert "memory:// counts the rate limits in one process" in served.stderr
    if storage == "data folder":
        assert (tmp_path / "rate-limits.db").exists()
