"""What a table's page, its record and the home page cost with 10, 1,000 and 10,000 games.

Run: .venv/bin/python bench/record_pages.py [--sizes 10 1000 10000] [--repeat 5]
Each size gets a fresh SQLite database with one table holding that many finished four-player
May I? games (written straight as facts, so the set-up takes seconds, not hours). Prints, per
page, the median wall time of a request and the queries it ran; "record, 1st" is the record's
first request, which scores every game (later ones reuse the scores the app keeps).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import event, insert, select

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.models import Game, Round, RoundResult, Seat
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from scorekeeper.tables import people

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]


def fill(app: Flask, games: int) -> tuple[str, int, str]:
    """One table with `games` finished games; its edit URL, and one game's id and link."""
    with app.app_context():
        upgrade()
        table = people.create_table("Bench club")
        seated = people.seat_people(table, PLAYERS)
        first = actions.create_game(MAY_I, PLAYERS, 0, None, seated)
        rules, ids = ruleset_to_dict(MAY_I), [p.id for p in seated]
        rows = [
            {
                "table_id": table.id,
                "rules_json": rules,
                "first_dealer": 0,
                "dealer_was_cut": False,
                "version": 7,
                "edit_token": f"e{n:040d}",
                "view_token": f"v{n:040d}",
            }
            for n in range(games - 1)
        ]
        if rows:
            db.session.execute(insert(Game), rows)
        game_ids = list(db.session.scalars(select(Game.id).order_by(Game.id)))
        seats = [
            {"game_id": g, "position": i, "table_player_id": ids[i]}
            for g in game_ids[1:]  # create_game seated the first
            for i in range(4)
        ]
        db.session.execute(insert(Seat), seats)
        rounds = [
            {"game_id": g, "number": n, "dealer": (n - 1) % 4}
            for g in game_ids
            for n in range(1, 8)
        ]
        db.session.execute(insert(Round), rounds)
        round_ids = db.session.execute(select(Round.id, Round.number)).all()
        results = [
            {
                "round_id": r,
                "seat": s,
                "went_out": s == n % 4,
                "points": 0 if s == n % 4 else 5 * (s + 1),
            }
            for r, n in round_ids
            for s in range(4)
        ]
        db.session.execute(insert(RoundResult), results)
        db.session.commit()
        return f"/t/{table.id}/{table.edit_token}", first.id, first.edit_token


def measure(app: Flask, path: str, repeat: int, warm: str | None = None) -> tuple[float, int]:
    """The median seconds of a GET and the queries it ran."""
    client = app.test_client()
    if warm:
        client.get(warm)  # remembers the table and a game in this client's session
    queries = [0]

    def count(*_args: Any) -> None:
        queries[0] += 1

    with app.app_context():
        engine = db.engine
    times = []
    for _ in range(repeat):
        queries[0] = 0
        event.listen(engine, "before_cursor_execute", count)
        start = time.perf_counter()
        response = client.get(path)
        times.append(time.perf_counter() - start)
        event.remove(engine, "before_cursor_execute", count)
        assert response.status_code == 200, response.status_code
    return statistics.median(times), queries[0]


def main() -> None:
    """Fill a database per size and time the table page and the home page on it."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 1000, 10000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'games':>7}  {'page':<12} {'median ms':>10} {'queries':>8}")
    for size in args.sizes:
        folder = tempfile.mkdtemp(prefix="scorekeeper-bench-")
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "TESTING": True})
        table, game_id, token = fill(app, size)
        record = f"{table}/record"
        seconds, queries = measure(app, record, 1, table)  # the app scores each game once
        print(f"{size:>7}  {'record, 1st':<12} {seconds * 1000:>10.1f} {queries:>8}")
        pages = {
            "table": (table, None),
            "record": (record, None),
            "games page 2": (f"{table}?before={size // 2 + 1}", None),
            "home": ("/", f"/g/{game_id}/{token}"),
        }
        for name, (path, warm) in pages.items():
            seconds, queries = measure(app, path, args.repeat, warm or table)
            print(f"{size:>7}  {name:<12} {seconds * 1000:>10.1f} {queries:>8}")


if __name__ == "__main__":
    main()
