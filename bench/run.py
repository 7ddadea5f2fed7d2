"""`make bench`: Scorekeeper against a bare Flask + Flask-SQLAlchemy app, both under waitress.

For SQLite and PostgreSQL it serves this tree (and with --before [REV], main or REV) and the
baseline in bench/baseline.py, each on its own scratch database, and measures interleaved
pairs of batches: poll/static, round screen/table, score sheet/table, API buy/insert and
form buy/insert, as throughput ratios (baseline time / our time) with p99s. Then a 6-phone
table (every phone polling every 2 s, a change every 15 s that every phone fetches) gives the
server CPU per table-minute, so tables per core, each version's played a table-minute at a
time in turn (with --before, the CPU after / before); and the first load's bytes.

Run: .venv/bin/python bench/run.py [--before [REV]] [--pairs 5] [--requests 30] [--profile]
[--routes poll,round screen] [--table-minutes 0]
--routes measures only the scenarios it names (comma-separated, as in TARGETS: "poll",
"round screen", "score sheet", "API buy", "form buy"), to spend a run's time where one change
may show; --table-minutes 0 leaves out the live table (the first load is still measured).
Ratios move with the machine's load; what each request costs in counts that do not (SQL
statements, function calls, callgrind's instructions), for this tree and any other side by
side, is bench/request_costs.py's.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).parent))
from client import HX, Client, JsonSender, Phone, unchanged

ROOT = Path(__file__).parent.parent
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
PLAYERS = ["Anna", "Ben", "Carla", "Dan", "Eve", "Finn", "Gus", "Hal"]
PHONES, POLLS_PER_CHANGE, CHANGES_PER_MINUTE = 6, 7.5, 4  # polls every 2 s, a change every 15 s
TARGETS = {"poll": 0.8, "round screen": 0.5, "score sheet": 0.5, "API buy": 0.5, "form buy": 0.5}
BASELINE_SIDE = {
    "poll": "static page",
    "round screen": "56-cell table",
    "score sheet": "56-cell table",
    "API buy": "one-row insert",
    "form buy": "one-row insert",
}


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """One app served by bench/serve.py in its own process."""

    name: str
    process: subprocess.Popen[str]
    port: int

    def cpu_seconds(self) -> float:
        """User + system CPU the server process has used so far (Linux /proc)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def serving(name: str, kind: str, url: str, source: Path | None) -> Iterator[Server]:
    """Start one server and wait until it answers; stop it afterwards."""
    port = free_port()
    command = [sys.executable, str(Path(__file__).parent / "serve.py"), kind, str(port), url]
    if source is not None:
        command.append(str(source))
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "ready", f"{name} did not start"
        for _ in range(100):
            with suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            time.sleep(0.05)
        yield Server(name, process, port)
    finally:
        process.terminate()
        process.wait(timeout=20)


@contextmanager
def scratch_databases(kind: str, names: list[str], admin_url: str) -> Iterator[dict[str, str]]:
    """An empty database per app: SQLite files, or PostgreSQL databases dropped afterwards."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
            yield {name: f"sqlite:///{Path(folder) / name}.db" for name in names}
        return
    made = {name: f"bench_{name}_{uuid.uuid4().hex[:8]}" for name in names}
    with psycopg.connect(admin_url, autocommit=True) as admin:
        for database in made.values():
            admin.execute(f"CREATE DATABASE {database}")
    base = admin_url.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        yield {name: f"{base}/{database}" for name, database in made.items()}
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            for database in made.values():
                admin.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def export_tree(revision: str) -> Path:
    """A revision's tree in a temporary folder (git archive; the checkout untouched)."""
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-before-"))
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    subprocess.run(  # compiled catalogs are built, not committed
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "compile",
            "-d",
            str(folder / "scorekeeper" / "translations"),
            "--use-fuzzy",
        ],
        check=False,
        capture_output=True,
    )
    return folder


@dataclass
class Game:
    """A round-7 game for 8 players on one server, and a phone showing it."""

    client: Client
    game_id: int
    token: str
    phone: Phone = field(init=False)

    @property
    def page(self) -> str:
        return f"/g/{self.game_id}/{self.token}"

    def __post_init__(self) -> None:
        self.phone = Phone(Client(self.client.port), self.page)
        self.phone.open()


def play_game(client: JsonSender, at_table: bool = False) -> tuple[int, str]:
    """Start a game of May I? with unlimited buys and play six rounds through the API, on
    bench/client.py's Client or another JsonSender; the game's id and edit link. `at_table`:
    a card table's game, its players the table's people."""
    start = {"ruleset": "unlimited-buys", "players": PLAYERS, "first_dealer": 0}
    if at_table:
        opened = client.post_json("/api/v1/tables", {"name": "Bench club"})
        assert opened.status == 201, opened.body[:300]
        table = json.loads(opened.body)
        where, table_token = f"/api/v1/tables/{table['id']}/games", table["links"]["edit_token"]
        created = client.post_json(where, start, table_token)
    else:
        created = client.post_json("/api/v1/games", start)
    assert created.status == 201, created.body[:300]
    game = json.loads(created.body)
    game_id, token = game["id"], game["links"]["edit_token"]
    for number in range(1, 7):
        for seat in range(1, 4):
            client.post_json(f"/api/v1/games/{game_id}/buys", {"seat": seat}, token)
        hands = {str(s): {"points": 10 + 5 * s + number} for s in range(8) if s != number % 8}
        done = client.put_json(
            f"/api/v1/games/{game_id}/rounds/{number}",
            {"went_out": number % 8, "hands": hands},
            token,
        )
        assert done.status == 200, done.body[:300]
    return game_id, token


def set_up_game(port: int) -> Game:
    """The bench's game (play_game), served on the port."""
    client = Client(port)
    return Game(client, *play_game(client))


Timed = Callable[[int], float]


def ours(game: Game, scenario: str) -> Timed:
    """One timed request of a scenario on a Scorekeeper server (a buy is taken back untimed)."""
    client, page, phone = game.client, game.page, game.phone
    api = f"/api/v1/games/{game.game_id}"

    def poll(_i: int) -> float:
        answer = client.get(phone.poller, headers=HX)
        assert unchanged(answer), answer.status
        return answer.seconds

    def round_screen(_i: int) -> float:
        return client.get(page).seconds

    def sheet(_i: int) -> float:
        return client.get(f"{page}/sheet").seconds

    def api_buy(i: int) -> float:
        answer = client.post_json(f"{api}/buys", {"seat": i % 8}, game.token)
        assert answer.status == 201, answer.body[:300]
        client.post_json(f"{api}/buys/remove", {"seat": i % 8}, game.token)
        return answer.seconds

    def form_buy(i: int) -> float:
        seconds = phone.tap("buys", i % 8).seconds
        phone.tap("buys/remove", i % 8)
        return seconds

    chosen = {
        "poll": poll,
        "round screen": round_screen,
        "score sheet": sheet,
        "API buy": api_buy,
        "form buy": form_buy,
    }[scenario]
    if scenario == "poll":
        phone.open()  # a poller on the current version
    return chosen


def baseline(client: Client, scenario: str) -> Timed:
    """One timed request of the baseline's side of a scenario."""
    if scenario == "poll":
        return lambda _i: client.get("/static-page").seconds
    if scenario in ("round screen", "score sheet"):
        return lambda _i: client.get("/table").seconds
    headers = {"HX-Request": "true"}
    return lambda i: client.post_form("/items", {"text": f"item{i}"}, headers).seconds


def p99(samples: list[float]) -> float:
    """The 99th percentile, in ms."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def measure(
    games: dict[str, Game], base: Client, scenario: str, pairs: int, requests: int
) -> dict[str, tuple[float, float, float]]:
    """Interleaved batches, each version next to a baseline batch, the order flipped each pair.

    Answers per version: (ratio of mean times, our p99 ms, the baseline's p99 ms).
    """
    runs = {name: ours(game, scenario) for name, game in games.items()}
    other = baseline(base, scenario)
    for run in (*runs.values(), other):  # warm up
        for i in range(5):
            run(i)
    mine: dict[str, list[float]] = {name: [] for name in runs}
    theirs: dict[str, list[float]] = {name: [] for name in runs}
    for pair in range(pairs):
        for name, run in runs.items():
            batches = [(mine[name], run), (theirs[name], other)]
            for samples, call in batches if pair % 2 == 0 else batches[::-1]:
                samples.extend(call(i) for i in range(requests))
    return {
        name: (
            statistics.fmean(theirs[name]) / statistics.fmean(mine[name]),
            p99(mine[name]),
            p99(theirs[name]),
        )
        for name in runs
    }


@dataclass
class TableMinute:
    """What one live table costs the server, per minute of play."""

    cpu_ms: float
    requests: float
    tapping_phone_per_change: float
    watching_phone_per_change: float

    @property
    def tables_per_core(self) -> float:
        return 60_000 / self.cpu_ms


def table_minutes(server: Server, game: Game, minutes: int) -> TableMinute:
    """Six phones on one game: each polls every 2 s, the first taps a change every 15 s.

    A phone's requests per change: those that carried it (the tap, a poll that answered 200,
    and whatever they set off), beyond the polls that answered "unchanged" (empty).
    """
    phones = [Phone(Client(server.port), game.page) for _ in range(PHONES)]
    for phone in phones:
        phone.open()
    carried = [0] * PHONES
    started = server.cpu_seconds()
    changes = minutes * CHANGES_PER_MINUTE
    for change in range(changes):
        before = [phone.client.requests for phone in phones]
        phones[0].tap("buys" if change % 2 == 0 else "buys/remove", 1)
        polls = 7 + change % 2  # 7.5 polls per phone per 15 s
        quiet = [0] * PHONES
        for _ in range(polls):
            for index, phone in enumerate(phones):
                quiet[index] += unchanged(phone.poll())
        for index, phone in enumerate(phones):
            carried[index] += phone.client.requests - before[index] - quiet[index]
    cpu = server.cpu_seconds() - started
    total = sum(phone.client.requests for phone in phones) - PHONES  # not the first loads
    return TableMinute(
        cpu_ms=cpu * 1000 / minutes,
        requests=total / minutes,
        tapping_phone_per_change=carried[0] / changes,
        watching_phone_per_change=statistics.fmean(carried[1:]) / changes,
    )


def interleaved_table_minutes(
    servers: dict[str, Server], games: dict[str, Game], minutes: int
) -> tuple[dict[str, TableMinute], list[float]]:
    """Each version's live table a table-minute at a time, in turn and in alternating order
    (ABBA), so that the machine's load, which drifts over a run, falls on every version alike;
    with the last version's CPU over the first's in the whole run and in each half of it (two
    versions only: the halves show how far one run's figure can be trusted).

    One block of minutes per version, one after the other, let the drift decide: issue 19's
    PostgreSQL table-minute was higher than bd6e921's in 6 of 9 runs measured that way though
    its statements were the same and its instructions fewer. A minute is about 200 ms of CPU,
    20 of the clock ticks /proc counts in, so one minute's ratio alone says little.
    """
    names = list(servers)
    slices: dict[str, list[TableMinute]] = {name: [] for name in names}
    for minute in range(minutes):
        for name in names if minute % 2 == 0 else names[::-1]:
            slices[name].append(table_minutes(servers[name], games[name], 1))
    ratios = []
    if len(names) == 2:
        half = minutes // 2
        for part in (slice(None), slice(None, half), slice(half, None)):
            before, after = (sum(m.cpu_ms for m in slices[name][part]) for name in names)
            ratios.append(after / before)
    return {name: mean_minute(slices[name]) for name in names}, ratios


def mean_minute(minutes: list[TableMinute]) -> TableMinute:
    """The mean of table-minutes measured one at a time."""
    return TableMinute(
        cpu_ms=statistics.fmean(m.cpu_ms for m in minutes),
        requests=statistics.fmean(m.requests for m in minutes),
        tapping_phone_per_change=statistics.fmean(m.tapping_phone_per_change for m in minutes),
        watching_phone_per_change=statistics.fmean(m.watching_phone_per_change for m in minutes),
    )


def first_load(game: Game) -> tuple[int, int]:
    """Bytes a first visit to the round screen transfers; static files a warm reload re-asks."""
    client = Client(game.client.port)
    page = client.get(game.page)
    total, revalidated = page.wire_bytes, 0
    for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', page.body):
        answer = client.get(url.replace("&amp;", "&"))
        total += answer.wire_bytes
        if "immutable" not in answer.headers.get("Cache-Control", ""):
            revalidated += 1
    return total, revalidated


def profile_split(scenario: str, database_url: str, requests: int) -> str:
    """Where the time of one scenario goes in this tree, in-process, by package (cProfile)."""
    import cProfile
    import pstats

    from flask_migrate import upgrade

    sys.path.insert(0, str(ROOT))
    from scorekeeper import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench"})
    with app.app_context():
        upgrade()
    test = app.test_client()
    created = test.post(
        "/api/v1/games", json={"ruleset": "unlimited-buys", "players": PLAYERS, "first_dealer": 0}
    ).get_json()
    token, game_id = created["links"]["edit_token"], created["id"]
    auth = {"Authorization": f"Bearer {token}"}
    for number in range(1, 7):
        hands = {str(s): {"points": 10 + 5 * s + number} for s in range(8) if s != number % 8}
        test.put(
            f"/api/v1/games/{game_id}/rounds/{number}",
            json={"went_out": number % 8, "hands": hands},
            headers=auth,
        )
    page = f"/g/{game_id}/{token}"
    csrf = re.findall(r'"X-CSRFToken": "([^"]+)"', test.get(page).get_data(as_text=True))[0]
    form = {"HX-Request": "true", "X-CSRFToken": csrf}
    version = test.get(f"/api/v1/games/{game_id}", headers=auth).get_json()["version"]
    calls = {
        "poll": lambda i: test.get(f"{page}/version?v={version}", headers=HX),
        "round screen": lambda i: test.get(page),
        "score sheet": lambda i: test.get(f"{page}/sheet"),
        "API buy": lambda i: (
            test.post(f"/api/v1/games/{game_id}/buys", json={"seat": i % 8}, headers=auth),
            test.post(f"/api/v1/games/{game_id}/buys/remove", json={"seat": i % 8}, headers=auth),
        ),
        "form buy": lambda i: (
            test.post(f"{page}/buys", data={"seat": i % 8}, headers=form),
            test.post(f"{page}/buys/remove", data={"seat": i % 8}, headers=form),
        ),
    }
    call = calls[scenario]
    for i in range(10):
        call(i)
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(requests):
        call(i)
    profiler.disable()
    stats = pstats.Stats(profiler)
    by_package: dict[str, float] = {}
    for (path, _line, _name), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        by_package[_package(path)] = by_package.get(_package(path), 0.0) + tottime
    total = sum(by_package.values())
    parts = sorted(by_package.items(), key=lambda item: -item[1])
    return ", ".join(f"{name} {share / total:.0%}" for name, share in parts[:7])


PACKAGES = (
    ("sqlalchemy", "SQLAlchemy"),
    ("jinja2", "Jinja"),
    ("/templates/", "Jinja"),
    ("werkzeug", "Werkzeug"),
    ("flask_wtf", "Flask-WTF"),
    ("wtforms", "Flask-WTF"),
    ("flask_babel", "Babel"),
    ("babel", "Babel"),
    ("flask", "Flask"),
    ("psycopg", "driver"),
    ("sqlite3", "driver"),
    ("pydantic", "pydantic"),
    ("scorekeeper/rules", "rules engine"),
    ("scorekeeper", "Scorekeeper"),
)


def _package(path: str) -> str:
    """Which package a profiled function's file belongs to."""
    if path.startswith("<") or path == "~":
        return "driver and builtins"
    return next((name for part, name in PACKAGES if part in path), "other Python")


def main() -> None:
    """Run every measurement on every database and print the tables for docs/PERFORMANCE.md."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--before", nargs="?", const="main", help="also measure this revision (default: main)"
    )
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--requests", type=int, default=30, help="requests per batch")
    parser.add_argument("--table-minutes", type=int, default=3)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--postgres-url", default=ADMIN_URL, help="an admin URL to make dbs")
    parser.add_argument("--profile", action="store_true", help="profile missed targets")
    parser.add_argument(
        "--routes", default=",".join(TARGETS), help="comma-separated scenarios (default: all)"
    )
    args = parser.parse_args()
    args.routes = [route.strip() for route in args.routes.split(",")]
    if unknown := set(args.routes) - set(TARGETS):
        parser.error(f"no such scenario: {', '.join(sorted(unknown))}")
    versions: dict[str, Path | None] = {"after": None}
    if args.before:
        versions = {"before": export_tree(args.before), "after": None}
    print(f"bench: {args.pairs} interleaved pairs of {args.requests} requests, waitress")
    for kind in args.databases.split(","):
        if kind == "postgresql" and not postgres_reachable(args.postgres_url):
            print("PostgreSQL not reachable; skipped")
            continue
        run_database(kind, versions, args)


def postgres_reachable(url: str) -> bool:
    """Whether the admin URL answers."""
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.OperationalError:
        return False
    return True


def run_database(kind: str, versions: dict[str, Path | None], args: argparse.Namespace) -> None:
    """Every measurement on one database kind."""
    names = [*versions, "baseline"]
    with scratch_databases(kind, names, args.postgres_url) as urls, ExitStack() as stack:
        servers = {
            name: stack.enter_context(serving(name, "scorekeeper", urls[name], source))
            for name, source in versions.items()
        }
        base = stack.enter_context(serving("baseline", "baseline", urls["baseline"], None))
        games = {name: set_up_game(server.port) for name, server in servers.items()}
        base_client = Client(base.port)
        print(f"\n## {kind}\n")
        print(
            "| scenario | "
            + " | ".join(f"{v} ratio (p99 ms)" for v in versions)
            + " | baseline p99 ms | target |"
        )
        print("| --- | " + " | ".join("---" for _ in versions) + " | --- | --- |")
        missed = []
        for scenario in args.routes:
            target = TARGETS[scenario]
            result = measure(games, base_client, scenario, args.pairs, args.requests)
            cells = [f"{result[v][0]:.2f}× ({result[v][1]:.1f})" for v in versions]
            if result["after"][0] < target:
                missed.append(scenario)
            print(
                f"| {scenario} / {BASELINE_SIDE[scenario]} | "
                + " | ".join(cells)
                + f" | {result['after'][2]:.1f} | ≥ {target}× |",
                flush=True,
            )
        print("\n| per live table (6 phones) | " + " | ".join(versions) + " |")
        print("| --- | " + " | ".join("---" for _ in versions) + " |")
        rows = [
            ("server CPU per table-minute", lambda t: f"{t.cpu_ms:.0f} ms"),
            ("tables per core", lambda t: f"{t.tables_per_core:.0f}"),
            ("requests per table-minute", lambda t: f"{t.requests:.0f}"),
            ("tapping phone: requests per change", lambda t: f"{t.tapping_phone_per_change:.1f}"),
            ("watching phone: requests per change", lambda t: f"{t.watching_phone_per_change:.1f}"),
        ]
        if args.table_minutes <= 0:
            rows = []
        tables, ratios = (
            ({}, []) if not rows else interleaved_table_minutes(servers, games, args.table_minutes)
        )
        loads = {name: first_load(games[name]) for name in versions}
        for label, shown in rows:
            print(f"| {label} | " + " | ".join(shown(tables[v]) for v in versions) + " |")
        if ratios:
            whole, first, second = ratios
            print(
                f"| server CPU after / before, {args.table_minutes} interleaved minutes (each "
                f"half) | {whole:.3f} ({first:.3f}, {second:.3f}) |"
            )
        print(
            "| first load of the round screen | "
            + " | ".join(f"{loads[v][0] / 1024:.1f} KB" for v in versions)
            + " |"
        )
        print(
            "| static requests on a warm reload | "
            + " | ".join(str(loads[v][1]) for v in versions)
            + " |",
            flush=True,
        )
        if args.profile and missed:
            print("\nWhere the time goes (this tree, in-process cProfile, own time by package):\n")
            for scenario in missed:
                print(f"- {scenario}: {profile_split(scenario, urls['after'], 200)}", flush=True)


if __name__ == "__main__":
    main()
