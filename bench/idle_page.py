"""What one idle open game page costs the server: its 2-second version polls.

Run: .venv/bin/python bench/idle_page.py [--polls 600] [--database-url URL]
Prints CPU time, queries and bytes per poll and per minute (30 polls a minute).
A --database-url must name an empty scratch database: the run creates its tables there.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from flask_migrate import upgrade
from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.rules.presets import MAY_I

POLLS_PER_MINUTE = 30  # hx-trigger="every 2s"


def main() -> None:
    """Open one game and poll its version as an idle page does; print what it costs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--polls", type=int, default=600)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    url = args.database_url or f"sqlite:///{Path(folder) / 'bench.db'}"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "TESTING": True})
    queries = [0]
    with app.app_context():
        upgrade()
        game = actions.create_game(MAY_I, ["Anna", "Ben", "Carla", "Dan"], 0)
        path = f"/g/{game.id}/{game.edit_token}/version?v={game.version}"

        def count(*_args: Any) -> None:
            queries[0] += 1

        event.listen(db.engine, "before_cursor_execute", count)
    client = app.test_client()
    headers = {"HX-Request": "true"}
    for _ in range(20):  # warm up caches and the connection pool
        client.get(path, headers=headers)
    queries[0] = 0
    cpu, sizes = [], []
    for _ in range(args.polls):
        started = time.process_time()
        response = client.get(path, headers=headers)
        cpu.append(time.process_time() - started)
        assert response.status_code == 204, response.status_code
        sizes.append(len(response.data) + sum(len(k) + len(v) + 4 for k, v in response.headers))
    per_poll_ms = statistics.median(cpu) * 1000
    print(f"database: {url.split(':', 1)[0]}   polls: {args.polls}")
    print(
        f"per poll:   {per_poll_ms:.2f} ms CPU (median), {queries[0] / args.polls:.1f} queries,"
        f" {statistics.mean(sizes):.0f} bytes of response"
    )
    print(
        f"per minute: {per_poll_ms * POLLS_PER_MINUTE:.1f} ms CPU, {POLLS_PER_MINUTE} requests,"
        f" {statistics.mean(sizes) * POLLS_PER_MINUTE / 1024:.1f} KiB of response"
        f" for one idle open page"
    )


if __name__ == "__main__":
    main()
