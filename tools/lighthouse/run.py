"""Lighthouse (mobile) on the home page, the round screen and the score sheet of a real game.

Run by `make lighthouse`: serves the app on a fresh SQLite database, plays a round through the
API, runs Lighthouse from tools/lighthouse/node_modules against Debian's Chromium, prints the
scores and fails below the targets (accessibility 100, performance and best practices 95).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from werkzeug.serving import WSGIRequestHandler, make_server

from scorekeeper import create_app
from scorekeeper.extensions import db

HERE = Path(__file__).resolve().parent
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 95}
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu --disable-background-networking"


class _Quiet(WSGIRequestHandler):
    """No request log: the scores are what this tool prints."""

    def log_request(self, *args: object, **kwargs: object) -> None:
        pass


def main() -> int:
    """Serve, play, measure three pages, print the scores; non-zero below a target."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/lh.db"})
        app.instance_path = folder
        with app.app_context():
            from flask_migrate import upgrade

            upgrade()
        server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_Quiet)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        link = _start_game(base)
        failed = False
        for name, url in (("home", f"{base}/"), ("round", link), ("sheet", f"{link}/sheet")):
            scores = _lighthouse(url, Path(folder) / f"{name}.json")
            line = "  ".join(f"{key} {value}" for key, value in scores.items())
            print(f"lighthouse {name:6} {line}")
            failed |= any(scores[key] < target for key, target in TARGETS.items())
        server.shutdown()
        with app.app_context():
            db.engine.dispose()
    return 1 if failed else 0


def _start_game(base: str) -> str:
    """Start a game and record round 1 through the JSON API; return the game's edit link."""
    import urllib.request

    def call(method: str, path: str, body: dict[str, object], token: str | None = None) -> dict:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode()
        request = urllib.request.Request(base + path, data, headers, method=method)
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)

    game = call(
        "POST",
        "/api/v1/games",
        {"ruleset": "may-i", "players": ["Anna", "Ben", "Carla", "Dan"], "first_dealer": 0},
    )
    token = game["links"]["edit_token"]
    hands = {"1": {"points": 25}, "2": {"cards": "KC 7H JK"}, "3": {"points": 40}}
    call("PUT", f"/api/v1/games/{game['id']}/rounds/1", {"went_out": 0, "hands": hands}, token)
    return f"{base}/g/{game['id']}/{token}"


def _lighthouse(url: str, report: Path) -> dict[str, int]:
    """Lighthouse's mobile scores (0-100) for one page."""
    binary = HERE / "node_modules" / ".bin" / "lighthouse"
    command = [
        str(binary),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={report}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--only-categories=performance,accessibility,best-practices",
    ]
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"})
    categories = json.loads(report.read_text())["categories"]
    return {key: round(categories[key]["score"] * 100) for key in TARGETS}


if __name__ == "__main__":
    sys.exit(main())
