"""What each bench request costs in counts that the machine's load does not move: SQL
statements and Python function calls a request (and, with --instructions, CPU instructions),
in-process, for one tree or several side by side.

The game is bench/run.py's (May I? with unlimited buys, 8 players, six rounds played through
the API, in round 7), and the requests are its scenarios, sent through Flask's test client to
the app factory's app (public routes only, so an older tree answers them too): the unchanged
poll of the round screen and of a seat's page, the round screen, the score sheet at an
unchanged version and right after a change, a poll right after another phone's change (every
region of the round screen), an API buy and a form buy (each taken back uncounted), and a live
table's minute (6 phones each polling every 2 s, one tapping a change every 15 s, played by
bench/client.py's Phone as htmx does).
Statements are counted by an engine event, plus the unchanged poll's one driver statement;
function calls by cProfile. Both are averaged over --requests requests after as many warm
ones (a table-minute: over --minutes).

Run: .venv/bin/python bench/request_costs.py [--tree PATH ...] [--before REV] [--requests 20]
[--databases sqlite,postgresql] [--top 30] [--instructions] [--scenario "score sheet"]
Each tree (default: this checkout; --before REV adds a revision, exported as bench/run.py
does) is measured in its own process with this interpreter. --top prints --scenario's
functions by cumulative time in each tree; --instructions runs --scenario alone under
valgrind's callgrind twice, 5 and 5 + --requests requests (each as many warm), and gives the
difference a request, with one hash seed: everything the process did for them, what a
scenario does uncounted included (a buy taken back, the phones' first loads), so it is clean
for the pure reads (the poll, the round screen, the score sheet).
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import json
import os
import pstats
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from client import HX, Answer, Phone, unchanged
from run import ADMIN_URL, export_tree, play_game, postgres_reachable, scratch_databases

ROOT = Path(__file__).parent.parent
PHONES, CHANGES_PER_MINUTE = 6, 4  # as bench/run.py's live table
FEW = 5  # requests of the shorter callgrind run, whose total is taken from the longer's
SCENARIOS = (
    "poll",
    "seat poll",
    "round screen",
    "score sheet",
    "score sheet after a change",
    "poll after a change",
    "API buy",
    "form buy",
    "table's round screen",
    "table's score sheet",
    "table minute",
)


@dataclass
class Counter:
    """Statements and function calls while counting is on."""

    statements: int = 0
    calls: int = 0
    transactions: int = 0  # each BEGIN, and each unchanged poll's read (outside any)
    poll_reads: int = 0  # the unchanged poll's driver statements, of `statements`
    redis_trips: int = 0  # commands (or pipelines) sent to Redis: the map's, the limits'
    on: bool = False
    profiling: bool = True  # not under callgrind, whose count cProfile's own work would swell
    kept: list[cProfile.Profile] = field(default_factory=list)

    def reset(self) -> None:
        """Start counting from nothing."""
        self.statements, self.calls, self.kept = 0, 0, []
        self.transactions = self.poll_reads = self.redis_trips = 0

    def statement(self, *_args: Any) -> None:
        if self.on:
            self.statements += 1

    def transaction(self, *_args: Any) -> None:
        if self.on:
            self.transactions += 1

    def poll_read(self) -> None:
        """The unchanged poll's statement: its own transaction (autocommit), past the engine."""
        if self.on:
            self.statements += 1
            self.transactions += 1
            self.poll_reads += 1

    def redis_trip(self) -> None:
        if self.on:
            self.redis_trips += 1

    @contextmanager
    def counting(self) -> Iterator[None]:
        """Count what the block sends and calls."""
        self.on = True
        if not self.profiling:
            yield
            self.on = False
            return
        profile = cProfile.Profile()
        profile.enable()
        try:
            yield
        finally:
            profile.disable()
            self.on = False
            self.calls += pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
            self.kept.append(profile)


class TestClientHTTP:
    """bench/client.py's Client on Flask's test client, so its Phone plays a phone in-process."""

    sent = 0  # requests by every client, for counting a step's

    def __init__(self, app: Any) -> None:
        self.test = app.test_client()
        self.requests = 0

    def send(self, method: str, path: str, headers: dict[str, str], **kwargs: Any) -> Answer:
        """One request, gzip accepted as bench/client.py's are (the app compresses answers)."""
        started = time.perf_counter()
        sent = {"Accept-Encoding": "gzip", **headers}
        response = self.test.open(path, method=method, headers=sent, **kwargs)
        self.requests += 1
        TestClientHTTP.sent += 1
        got = {k.title(): v for k, v in response.headers.items()}
        raw = response.get_data()
        data = gzip.decompress(raw) if got.get("Content-Encoding") == "gzip" else raw
        seconds = time.perf_counter() - started
        return Answer(response.status_code, got, data.decode(), len(raw), seconds)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.send("GET", path, headers or {})

    def post_form(self, path: str, form: dict[str, str], headers: dict[str, str]) -> Answer:
        return self.send("POST", path, headers, data=form)

    def post_json(self, path: str, data: object, token: str | None = None) -> Answer:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.send("POST", path, headers, json=data)

    def put_json(self, path: str, data: object, token: str) -> Answer:
        return self.send("PUT", path, {"Authorization": f"Bearer {token}"}, json=data)


def app_on(tree: Path, url: str) -> tuple[Any, Counter]:
    """The tree's app on a migrated database, with a counter on its engine and its poll."""
    sys.path.insert(0, str(tree))
    from flask_migrate import upgrade
    from sqlalchemy import event

    from scorekeeper import create_app
    from scorekeeper.extensions import db
    from scorekeeper.unchanged_poll import UnchangedPoll

    # The version map (--version-map, read from the environment) and the rate limits under
    # this app's own keys: the limits' default file is the checkout's instance/, where a run a
    # minute before would have spent the new games' limit.
    prefix = f"bench:{os.getpid()}:{time.time_ns()}:"
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "bench",
            "VERSION_MAP_PREFIX": prefix,
            "RATELIMIT_KEY_PREFIX": prefix,
        }
    )
    with app.app_context():
        upgrade()
        engine = db.engine
    counter = Counter()
    event.listen(engine, "before_cursor_execute", counter.statement)
    event.listen(engine, "begin", counter.transaction)
    poll = app.wsgi_app
    while not isinstance(poll, UnchangedPoll):  # inside the access log, if any
        poll = poll.inner
    reader = poll.links_reader()
    fetch = reader.fetch

    def fetch_and_count(driver: Any, *arguments: Any) -> Any:
        counter.poll_read()  # the unchanged poll's statement goes past the engine's events
        return fetch(driver, *arguments)

    reader.fetch = fetch_and_count
    return app, counter


@contextmanager
def redis_trips_counted(counter: Counter) -> Iterator[None]:
    """Count each packed send to Redis while the block runs (a command, or a pipeline's
    commands, answered in one round trip): the version map's and the rate limits' both go
    through redis-py's connection."""
    from redis.connection import AbstractConnection

    send = AbstractConnection.send_packed_command

    def sending(connection: Any, *args: Any, **kwargs: Any) -> Any:
        counter.redis_trip()
        return send(connection, *args, **kwargs)

    AbstractConnection.send_packed_command = sending  # type: ignore[method-assign]
    try:
        yield
    finally:
        AbstractConnection.send_packed_command = send  # type: ignore[method-assign]


VERSION_MAP_HELP = "answer unchanged polls from this Redis (SCOREKEEPER_VERSION_MAP_URL)"


RATE_LIMITS_HELP = "count rate limits in this Redis, as the recipe does (RATELIMIT_STORAGE_URI)"


def use_version_map(url: str | None) -> None:
    """Turn the version map on for the measured processes (they read the environment)."""
    if url:
        os.environ["SCOREKEEPER_VERSION_MAP_URL"] = url


def use_rate_limits(url: str | None) -> None:
    """Count the measured processes' rate limits in this Redis (each app under its own keys)."""
    if url:
        os.environ["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = url


def set_up_game(app: Any, at_table: bool = False) -> tuple[TestClientHTTP, str, str, int]:
    """bench/run.py's game (run.play_game), played in-process; `at_table`, a card table's."""
    client = TestClientHTTP(app)
    game_id, token = play_game(client, at_table)
    return client, f"/g/{game_id}/{token}", token, game_id


Step = Callable[[int, Counter], None]


def seat_token(app: Any, game_id: int) -> str:
    """Seat 1's own link."""
    from scorekeeper.games.seat_links import links_of

    with app.app_context():
        return links_of(game_id)[1]


def scenarios(app: Any) -> dict[str, Step]:
    """Each scenario as one step: what it counts inside counter.counting(), the rest outside."""
    client, page, token, game_id = set_up_game(app)
    api = f"/api/v1/games/{game_id}"
    phone = Phone(TestClientHTTP(app), page)  # type: ignore[arg-type]
    phone.open()

    def polling(watcher: Phone) -> Step:
        """An unchanged poll of the phone's page, counted."""

        def poll(_i: int, counter: Counter) -> None:
            with counter.counting():
                answer = watcher.client.get(watcher.poller, headers=HX)
            assert unchanged(answer), answer.status

        return poll

    seat = Phone(TestClientHTTP(app), f"/s/{game_id}/{seat_token(app, game_id)}")  # type: ignore[arg-type]
    seat.open()

    def reading(url: str) -> Step:
        """A page read, counted."""

        def read(_i: int, counter: Counter) -> None:
            with counter.counting():
                assert client.get(url).status == 200

        return read

    sheet = reading(f"{page}/sheet")

    def sheet_after_change(i: int, counter: Counter) -> None:
        client.post_json(f"{api}/buys{'/remove' if i % 2 else ''}", {"seat": 1}, token)
        sheet(i, counter)

    def poll_after_change(i: int, counter: Counter) -> None:
        client.post_json(f"{api}/buys{'/remove' if i % 2 else ''}", {"seat": 1}, token)
        with counter.counting():  # every region of the round screen, as a watching phone's
            answer = phone.client.get(phone.poller, headers=HX)
        assert answer.status == 200 and answer.body, answer.status
        phone.follow(answer)

    def api_buy(i: int, counter: Counter) -> None:
        with counter.counting():
            answer = client.post_json(f"{api}/buys", {"seat": i % 8}, token)
        assert answer.status == 201, answer.body[:300]
        client.post_json(f"{api}/buys/remove", {"seat": i % 8}, token)

    def form_buy(i: int, counter: Counter) -> None:
        headers = {**HX, "X-CSRFToken": phone.csrf}
        with counter.counting():  # the tap's own request, as bench/run.py times it
            answer = phone.client.post_form(f"{page}/buys", {"seat": str(i % 8)}, headers)
        assert answer.status == 200, answer.body[:300]
        phone.tap("buys/remove", i % 8)
        phone.open()

    phones = [Phone(TestClientHTTP(app), page) for _ in range(PHONES)]  # type: ignore[arg-type]
    # The same game played at a card table: its people's names, kept like any other game's.
    table_page = set_up_game(app, at_table=True)[1]

    def table_minute(_i: int, counter: Counter) -> None:
        for each in phones:  # uncounted: the phones' first loads
            each.open()
        with counter.counting():
            play_minute(phones)

    return {
        "poll": polling(phone),
        "seat poll": polling(seat),
        "round screen": reading(page),
        "score sheet": sheet,
        "score sheet after a change": sheet_after_change,
        "poll after a change": poll_after_change,
        "API buy": api_buy,
        "form buy": form_buy,
        "table minute": table_minute,
        "table's round screen": reading(table_page),
        "table's score sheet": reading(f"{table_page}/sheet"),
    }


def play_minute(phones: list[Phone]) -> None:
    """A live table's minute: the first phone taps a change every 15 s (a buy, then its
    take-back), and every phone polls every 2 s, following what each poll sets off."""
    for change in range(CHANGES_PER_MINUTE):
        phones[0].tap("buys" if change % 2 == 0 else "buys/remove", 1)
        for _ in range(7 + change % 2):  # 7.5 polls per phone per 15 s
            for each in phones:
                each.poll()


def measure_tree(
    tree: Path, url: str, requests: int, minutes: int, only: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Per scenario: statements and calls a request (a table-minute), and its profiles."""
    app, counter = app_on(tree, url)
    counter.profiling = not only
    steps = scenarios(app)
    found: dict[str, Any] = {}
    for name in only or SCENARIOS:
        step = steps[name]
        times = minutes if name == "table minute" else requests
        for i in range(times):  # warm: the kept states and regions, the compiled templates
            step(i, counter)
        counter.reset()
        for i in range(times):
            step(times + i, counter)
        found[name] = (
            counter.statements / times,
            counter.calls / times,
            counter.transactions / times,
            counter.kept,
        )
        counter.reset()  # the next warm-up is not this scenario's
    return found


def top(profiles: list[cProfile.Profile], count: int) -> str:
    """The functions that took the most cumulative time over these profiles."""
    stats = pstats.Stats(profiles[0])
    for other in profiles[1:]:
        stats.add(other)
    lines = []

    class Sink:
        def write(self, text: str) -> None:
            lines.append(text)

    stats.stream = Sink()  # type: ignore[attr-defined]
    stats.strip_dirs().sort_stats("cumulative").print_stats(count)
    return "".join(lines)


def child(args: argparse.Namespace) -> None:
    """Measure one tree on one database and print its figures as JSON (and a profile's top)."""
    only = (args.scenario,) if args.only else ()
    found = measure_tree(Path(args.child), args.url, args.requests, args.minutes, only)
    figures = {name: list(counts[:3]) for name, counts in found.items()}
    print(json.dumps(figures))
    if args.top:
        print(top(found[args.scenario][3], args.top), file=sys.stderr)


def run_child(
    tree: Path, url: str, args: argparse.Namespace, requests: int, wrap: list[str]
) -> subprocess.CompletedProcess[str]:
    """This script on one tree in a process of its own (one `scorekeeper` per process): every
    scenario, or under `wrap` (callgrind) --scenario alone, `requests` times (or minutes)."""
    minutes = requests if wrap else args.minutes
    command = [*wrap, sys.executable, __file__, "--child", str(tree), "--url", url]
    command += ["--requests", str(requests), "--minutes", str(minutes), "--top", str(args.top)]
    command += ["--scenario", args.scenario, *(["--only"] if wrap else [])]
    # One hash seed, so both callgrind runs (and every tree) lay out their dicts and sets alike:
    # random seeds move the instructions a request by a few percent.
    env = {**os.environ, "PYTHONHASHSEED": "0"} if wrap else None
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        sys.exit(f"{tree}: {done.stderr[-3000:]}")
    return done


def run_tree(tree: Path, url: str, args: argparse.Namespace) -> dict[str, list[float]]:
    """One tree's statements and calls a request, per scenario."""
    done = run_child(tree, url, args, args.requests, [])
    if args.top:
        print(f"\n### {tree}: {args.scenario}, by cumulative time\n\n{done.stderr}")
    figures: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def instructions(tree: Path, urls: list[str], args: argparse.Namespace) -> float:
    """The instructions one request of --scenario costs (callgrind, two runs' difference)."""
    totals = []
    with tempfile.TemporaryDirectory() as folder:
        for url, requests in zip(urls, (FEW, FEW + args.requests), strict=True):
            out = Path(folder) / "callgrind.out"
            wrap = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
            run_child(tree, url, args, requests, wrap)
            summary = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M)
            assert summary is not None, out
            totals.append(int(summary[1]))
    return (totals[1] - totals[0]) / (2 * args.requests)  # as many warm as counted


def main() -> None:
    """Measure every tree on every database and print the counts side by side."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tree", action="append", default=[], help="a checkout (repeatable)")
    parser.add_argument("--before", help="also measure this revision (git archive)")
    parser.add_argument("--requests", type=int, default=20, help="counted requests a scenario")
    parser.add_argument("--minutes", type=int, default=2, help="counted table-minutes")
    parser.add_argument("--databases", default="sqlite")
    parser.add_argument("--postgres-url", default=ADMIN_URL, help="an admin URL to make dbs")
    parser.add_argument("--top", type=int, default=0, help="print this many functions")
    parser.add_argument("--instructions", action="store_true", help="callgrind: --scenario")
    parser.add_argument("--scenario", default="score sheet", choices=SCENARIOS)
    parser.add_argument("--version-map", metavar="URL", help=VERSION_MAP_HELP)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    use_version_map(args.version_map)
    trees = {str(Path(t).resolve()): Path(t).resolve() for t in args.tree}
    if args.before:
        trees = {args.before: export_tree(args.before), **trees}
    if not args.tree:
        trees["this tree"] = ROOT
    for kind in args.databases.split(","):
        if kind == "postgresql" and not postgres_reachable(args.postgres_url):
            print("PostgreSQL not reachable; skipped")
            continue
        names = [f"t{n}" for n in range(len(trees))]
        fresh = [f"{name}{run}" for name in names for run in "ab"]  # callgrind's two runs
        with scratch_databases(kind, names + fresh, args.postgres_url) as urls:
            figures = {
                label: run_tree(tree, urls[name], args)
                for name, (label, tree) in zip(names, trees.items(), strict=True)
            }
            print_table(kind, figures, args)
            if args.instructions:
                print(f"\n{args.scenario}, instructions a request (callgrind):\n")
                for name, (label, tree) in zip(names, trees.items(), strict=True):
                    each = instructions(tree, [urls[f"{name}a"], urls[f"{name}b"]], args)
                    print(f"- {label}: {each / 1e6:.2f} M", flush=True)


def print_table(kind: str, figures: dict[str, dict[str, list[float]]], args: Any) -> None:
    """Statements and function calls a request, a column pair per tree."""
    labels = [re.sub(r".*/", "", label) for label in figures]
    mapped = ", version map on" if args.version_map else ""
    print(
        f"\n## {kind}: {args.requests} requests a scenario, {args.minutes} table-minutes{mapped}\n"
    )
    print(
        "| scenario | "
        + " | ".join(f"{n} statements | {n} transactions | {n} calls" for n in labels)
        + " |"
    )
    print("| --- |" + " --- | --- | --- |" * len(labels))
    for name in SCENARIOS:
        cells = []
        for counts in figures.values():
            statements, calls, transactions = counts[name]
            cells += [f"{statements:.1f}", f"{transactions:.1f}", f"{calls:,.0f}"]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
