"""Several app processes on one database, as the hosting recipe runs them: a round played
through two `scorekeeper serve` processes, each request to either one."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

from tools.nginx_proxy import free_port

pytestmark = pytest.mark.storage

SECRET = "one-secret-for-every-process"


@contextmanager
def serve(database_url: str) -> Iterator[str]:
    """One `scorekeeper serve` process on the database (already migrated); yields its URL."""
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": SECRET,
    }
    script = Path(sys.executable).parent / "scorekeeper"
    command = [str(script), "serve", "--no-migrate", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _attempt in range(100):
            try:
                urllib.request.urlopen(f"{base}/api/v1/rulesets", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            # gunicorn waits up to its graceful timeout (10 s) for a worker; more under load.
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Phone:
    """A browser's cookie jar, sending each request to whichever process it is given."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def send(
        self, url: str, data: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str]:
        """One request; the status and the body."""
        request = urllib.request.Request(url, data=data, headers=headers or {})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return int(answer.status), answer.read().decode()
        except urllib.error.HTTPError as answer:
            return int(answer.code), answer.read().decode()

    def api(self, url: str, body: Any, token: str | None = None, method: str = "POST") -> Any:
        """A JSON call; the answer's body."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(
            url, data=json.dumps(body).encode(), headers=headers, method=method
        )
        with self.opener.open(request, timeout=30) as answer:
            return json.loads(answer.read())


def test_a_round_is_played_through_two_processes_on_one_database(database_url: str) -> None:
    with ExitStack() as stack:
        first, second = (stack.enter_context(serve(database_url)) for _ in range(2))
        phone = Phone()
        game = phone.api(
            f"{first}/api/v1/games",
            {"ruleset": "may-i", "players": ["Anna", "Ben", "Carla"], "first_dealer": 0},
        )
        token, game_id = game["links"]["edit_token"], game["id"]
        page = f"/g/{game_id}/{token}"

        # The round screen from one process, a buy by its form on the other: the session
        # and CSRF token hold in every process that shares the secret key.
        status, body = phone.send(f"{first}{page}")
        csrf = re.findall(r'"X-CSRFToken": "([^"]+)"', body)[0]
        status, body = phone.send(
            f"{second}{page}/buys",
            data=b"seat=1",
            headers={"X-CSRFToken": csrf, "HX-Request": "true"},
        )
        assert status == 200, body
        assert "2 buys left (1/3)" in body

        # The other process's poll sees the change at once: no state lives in a process.
        status, body = phone.send(
            f"{first}{page}/version?v=1&on=round", headers={"HX-Request": "true"}
        )
        assert status == 200 and "2 buys left (1/3)" in body

        hands = {"1": {"points": 25}, "2": {"points": 40}}
        phone.api(
            f"{second}/api/v1/games/{game_id}/rounds/1",
            {"went_out": 0, "hands": hands},
            token,
            method="PUT",
        )
        state = phone.api(f"{first}/api/v1/games/{game_id}", None, token, method="GET")
        assert state["current_round"]["number"] == 2
        assert "25" in phone.send(f"{first}{page}/sheet")[1]
