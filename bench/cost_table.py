"""The cost table (issue 37): instructions and statements a request, ours beside the bare app's.

Each row is one of our requests and the bare app's nearest equivalent (bench/baseline.py):

- unchanged poll of a game page: the round screen's poll at its version; bare: `/static-page`;
- unchanged poll of a seat page: a seat page's poll at its version; bare: `/static-page`;
- round screen, round 7, 8 players (bench/run.py's game): bare `/page`, 56 cells in one select
  drawn as forms, 24 KiB;
- API buy + take-back (a request each): bare `/api/items` twice, each a row and its history row;
- score sheet, at an unchanged version: bare `/page`;
- round's end saved by the form (round 7, answered 303): bare `/items`, a form's row and its
  history row;
- a table-minute, 1 writer tapping 4 changes and 4 phones polling every 2 s: bare the same, 4
  writes to `/items`, each phone's next poll after one reading `/page`, the others
  `/static-page`.

What a step counts runs inside one `operator.call` (which nothing else here calls), so
callgrind collects those calls alone (`--toggle-collect`) and writes a dump after each
(`--dump-after`): every row in one process per app, after as many warm steps as counted ones,
with one hash seed; what a step does uncounted (the round's end undone, the form fetched, the
phones' first loads) stays out, and so does the setting up. Statements are
counted by an engine event (and the unchanged poll's driver statement, request_costs.app_on).
In-process through Flask's test client, this checkout against the bare app, on SQLite or
(`--database postgresql://…`, or BENCH_COST_DATABASE) on a scratch PostgreSQL database per app;
there callgrind counts the app's process only, not the PostgreSQL server's. Transactions are
counted as each BEGIN (an engine event) and each unchanged poll's read, which runs outside any
(autocommit); `--save FILE` keeps the figures for bench/capacity.py. `--version-map URL` runs
ours with unchanged polls answered from that Redis (SCOREKEEPER_VERSION_MAP_URL);
`--rate-limits URL` counts its rate limits there (as the proxy recipe does; else in the data
folder's file), so callgrind counts redis-py's part of them. Round trips to Redis are counted
as each packed send through redis-py's connection (the map's and the limits').

Run: .venv/bin/python bench/cost_table.py [--requests 2] [--no-instructions]
[--database sqlite|postgresql://postgres@127.0.0.1:5432/postgres] [--save FILE]
[--version-map redis://127.0.0.1:6379/15] [--rate-limits redis://127.0.0.1:6379/15]
`make bench` counts 2 requests a row (a table-minute: 1), a few minutes under callgrind on two
cores; `--requests 10` gives figures to within about 1 %.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).parent))
from client import HX, Phone, unchanged
from request_costs import (
    RATE_LIMITS_HELP,
    ROOT,
    VERSION_MAP_HELP,
    Counter,
    TestClientHTTP,
    app_on,
    play_minute,
    redis_trips_counted,
    set_up_game,
    use_rate_limits,
    use_version_map,
)
from run import postgres_reachable, scratch_databases

Count = Callable[[Callable[[], Any]], Any]  # runs the counted part of a step
Step = Callable[[int, Count], None]
ROWS = (
    "unchanged poll of a game page",
    "unchanged poll of a seat page",
    "round screen, round 7, 8 players",
    "API buy + take-back (per request)",
    "score sheet",
    "round's end saved by the form",
    "a table-minute (1 writer, 4 changes; 4 phones polling every 2 s)",
)
MINUTE = ROWS[-1]
PER_ROW = {ROWS[3]: 2}  # requests a counted step sends, where not one
WATCHERS = 4
HIDDEN = re.compile(r'name="(csrf_token|action_id|version)" type="hidden" value="([^"]*)"')


class Side(NamedTuple):
    """One app's figures for one row, a request (a table-minute: the minute): instructions
    (None without callgrind), statements, transactions, the unchanged polls' reads (of the
    statements), requests sent and round trips to Redis."""

    instructions: float | None
    statements: float
    transactions: float = 0
    poll_reads: float = 0
    requests: float = 1
    redis_trips: float = 0


COLLECTED = "_operator_call"  # the C function of operator.call, which callgrind collects


def our_steps(app: Any) -> dict[str, Step]:
    """Our rows on bench/run.py's game in round 7."""
    client, page, token, game_id = set_up_game(app)
    api = f"/api/v1/games/{game_id}"
    shown = client.send("GET", api, {"Authorization": f"Bearer {token}"})
    seat_page = f"/s/{game_id}/{json.loads(shown.body)['seat_links'][1]['token']}"
    game, seat = (Phone(TestClientHTTP(app), at) for at in (page, seat_page))  # type: ignore[arg-type]
    watchers = [Phone(TestClientHTTP(app), page) for _ in range(WATCHERS)]  # type: ignore[arg-type]

    def poll(phone: Phone) -> Step:
        phone.open()
        return lambda _i, count: _check(
            unchanged(count(lambda: phone.client.get(phone.poller, HX)))
        )

    def buy_and_take_back(i: int, count: Count) -> None:
        sent = count(
            lambda: [
                client.post_json(f"{api}/buys{end}", {"seat": i % 8}, token)
                for end in ("", "/remove")
            ]
        )
        _check([answer.status for answer in sent] == [201, 200])

    def round_end(_i: int, count: Count) -> None:
        form = dict(HIDDEN.findall(client.get(f"{page}/rounds/7").body))
        hands = {f"points_{s}": str(10 + 5 * s) for s in range(7)}
        sent = {**form, "went_out": "7", **hands}
        _check(count(lambda: client.post_form(f"{page}/rounds/7", sent, {})).status == 303)
        _check(client.post_json(f"{api}/undo", {}, token).status == 200)

    def minute(_i: int, count: Count) -> None:
        for phone in watchers:  # uncounted: their first loads
            phone.open()
        count(lambda: play_minute(watchers))

    return dict(
        zip(
            ROWS,
            (
                poll(game),
                poll(seat),
                _read(client, page),
                buy_and_take_back,
                _read(client, f"{page}/sheet"),
                round_end,
                minute,
            ),
            strict=True,
        )
    )


def bare_steps(app: Any) -> dict[str, Step]:
    """The bare app's equivalents, row by row (this module's docstring)."""
    client = TestClientHTTP(app)
    static, page = _read(client, "/static-page"), _read(client, "/page")

    def two_writes(i: int, count: Count) -> None:
        sent = count(lambda: [client.post_json("/api/items", {"text": f"{i}{n}"}) for n in "ab"])
        _check([answer.status for answer in sent] == [201, 201])

    def form_write(i: int, count: Count) -> None:
        _check(count(lambda: client.post_form("/items", {"text": str(i)}, {})).status == 200)

    def minute(_i: int, count: Count) -> None:
        def play() -> None:
            for change in range(4):
                client.post_form("/items", {"text": str(change)}, HX)
                for poll in range(7 + change % 2):
                    for _phone in range(WATCHERS):
                        client.get("/page" if poll == 0 else "/static-page")

        count(play)

    return dict(
        zip(ROWS, (static, static, page, two_writes, page, form_write, minute), strict=True)
    )


def _read(client: TestClientHTTP, url: str) -> Step:
    """A page read, counted."""
    return lambda _i, count: _check(count(lambda: client.get(url)).status == 200)


def _check(ok: bool) -> None:
    """Stop the bench when a request did not answer what its row needs."""
    if not ok:
        raise SystemExit("a request of the cost table failed")


def bare_app(url: str) -> tuple[Any, Counter]:
    """bench/baseline.py's app, with a counter on its engine."""
    from baseline import create_app, db
    from sqlalchemy import event

    app = create_app(url)
    counter = Counter(profiling=False)
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", counter.statement)
        event.listen(db.engine, "begin", counter.transaction)
    return app, counter


def measure(side: str, url: str, requests: int) -> dict[str, dict[str, float]]:
    """Per row of one app (`ours` or `bare`): statements, transactions, poll reads and requests
    a request (a table-minute: the minute), and the counted steps (a callgrind dump each, when
    run under callgrind)."""
    if side == "ours":
        app, counter = app_on(ROOT, url)
        counter.profiling = False
        steps = our_steps(app)
    else:
        app, counter = bare_app(url)
        steps = bare_steps(app)
    sent = 0

    def count(work: Callable[[], Any]) -> Any:
        nonlocal sent
        before = TestClientHTTP.sent
        with counter.counting():
            done = operator.call(work)
        sent += TestClientHTTP.sent - before
        return done

    found = {}
    with redis_trips_counted(counter):
        for row, step in steps.items():
            times = 1 if row == MINUTE else requests
            for i in range(times):
                step(i, lambda work: work())  # warm, outside what callgrind collects
            counter.reset()
            sent = 0
            for i in range(times, 2 * times):
                step(i, count)
            each = times * PER_ROW.get(row, 1)
            found[row] = {
                "statements": counter.statements / each,
                "transactions": counter.transactions / each,
                "poll_reads": counter.poll_reads / each,
                "redis_trips": counter.redis_trips / each,
                "requests": sent / times / PER_ROW.get(row, 1),
                "times": times,
            }
    with app.app_context():  # its connections closed, not left to the garbage collector
        app.extensions["sqlalchemy"].engine.dispose()
    return found


def run_side(side: str, requests: int, callgrind: bool, url: str) -> dict[str, Side]:
    """One app's rows, in a process of its own on a scratch database (url: a SQLite file's
    name is made here)."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-costs-") as folder:
        out = Path(folder) / "callgrind.out"
        command = [sys.executable, __file__, "--child", side, "--requests", str(requests)]
        command += ["--url", url or f"sqlite:///{Path(folder) / 'costs.db'}"]
        wrap = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        wrap += [f"--toggle-collect={COLLECTED}", f"--dump-after={COLLECTED}"]
        # One hash seed, so both apps lay out their dicts and sets alike run after run.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(
            [*wrap, *command] if callgrind else command,
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
        if done.returncode != 0:
            sys.exit(f"{side}: {done.stderr[-3000:]}")
        found: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
        dumps = iter(_totals(out, sum(int(row["times"]) for row in found.values())))
    figures = {}
    for name, row in found.items():
        times = int(row.pop("times"))
        spent = sum(next(dumps) for _ in range(times)) if callgrind else None
        each = None if spent is None else spent / (times * PER_ROW.get(name, 1))
        figures[name] = Side(each, **row)
    return figures


def _totals(out: Path, expected: int) -> list[int]:
    """The instructions of each callgrind dump, in the order they were written."""
    dumps = sorted(out.parent.glob(out.name + ".*"), key=lambda path: int(path.suffix[1:]))
    if not dumps:
        return []
    if len(dumps) != expected:
        sys.exit(f"{len(dumps)} callgrind dumps for {expected} counted steps")
    return [int(re.search(r"^totals: (\d+)", d.read_text(), re.M)[1]) for d in dumps]  # type: ignore[index]


def table(ours: dict[str, Side], bare: dict[str, Side]) -> str:
    """The cost table in Markdown: ratio = bare ÷ ours (1.0: as cheap as the bare stack)."""
    lines = [
        "| request | ours | bare | ratio | statements (ours / bare) | transactions (ours / bare) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in ROWS:
        mine, theirs = ours[row], bare[row]
        if mine.instructions and theirs.instructions is not None:
            cells = [f"{mine.instructions / 1e6:.3g} M", f"{theirs.instructions / 1e6:.3g} M"]
            cells.append(f"**{theirs.instructions / mine.instructions:.2f}**")
        else:
            cells = ["-", "-", "-"]
        counts = f"{mine.statements:g} / {theirs.statements:g}"
        begun = f"{mine.transactions:g} / {theirs.transactions:g}"
        lines.append(f"| {row} | {' | '.join(cells)} | {counts} | {begun} |")
    return "\n".join(lines)


def redis_reachable(url: str) -> bool:
    """Whether a Redis server answers at this URL."""
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except (redis.RedisError, OSError):
        return False


def main() -> None:
    """Measure both apps and print the cost table (and save it, for bench/capacity.py)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=2, help="counted requests a row")
    parser.add_argument("--no-instructions", action="store_true", help="statements only")
    parser.add_argument(
        "--database",
        default=os.environ.get("BENCH_COST_DATABASE", "sqlite"),
        help="sqlite, or a PostgreSQL admin URL (postgresql://postgres@127.0.0.1:5432/postgres) "
        "on which a scratch database is made for each app and dropped",
    )
    parser.add_argument("--save", type=Path, help="write the figures here as JSON")
    parser.add_argument("--version-map", metavar="URL", help=VERSION_MAP_HELP)
    parser.add_argument("--rate-limits", metavar="URL", help=RATE_LIMITS_HELP)
    parser.add_argument("--child", choices=("ours", "bare"), help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.url, args.requests)))
        return
    use_version_map(args.version_map)
    use_rate_limits(args.rate_limits)
    callgrind = not args.no_instructions
    kind = "sqlite" if args.database == "sqlite" else "postgresql"
    if kind == "postgresql" and not postgres_reachable(args.database):
        print(f"cost table skipped: PostgreSQL is not reachable at {args.database}")
        return
    for redis_url in filter(None, (args.version_map, args.rate_limits)):
        if not redis_reachable(redis_url):
            print(f"cost table skipped: Redis is not reachable at {redis_url}")
            return
    with scratch_databases(kind, ["ours", "bare"], args.database) as urls:
        sides = {
            side: run_side(side, args.requests, callgrind, urls[side] if kind != "sqlite" else "")
            for side in ("ours", "bare")
        }
    how = "callgrind instructions" if callgrind else "statements only"
    name = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[kind]
    mapped = ", version map on" if args.version_map else ""
    mapped += ", rate limits on Redis" if args.rate_limits else ""
    print(f"\n## Cost a request ({name}, {args.requests} counted a row, {how}{mapped})\n")
    print(table(sides["ours"], sides["bare"]), flush=True)
    if args.save:
        saved = {
            side: {row: fig._asdict() for row, fig in rows.items()} for side, rows in sides.items()
        }
        found = {"database": kind, "version_map": bool(args.version_map), **saved}
        found["rate_limits"] = bool(args.rate_limits)
        args.save.write_text(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
