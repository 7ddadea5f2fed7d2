"""`make bench`, the proxy recipe: how many live tables our processes behind nginx hold.

`scorekeeper serve --workers 1` processes, two a core, on one PostgreSQL database, rate limits
and the version map on Redis, behind nginx under /scores/ exactly as test_proxy.py serves
them (tools/nginx_proxy.py: deploy/nginx's own files, each game's requests to one process),
as many workers as two processes of gunicorn's one a core; beside them the bare Flask +
Flask-SQLAlchemy app (bench/baseline.py) served the same way: two processes of gunicorn's
workers behind the same nginx, on its own PostgreSQL database. A live table is 6
phones, each polling every 2 s on its own keep-alive connection, one of them changing
something every 15 s (bench/live_load.py). The number of tables doubles until the p99 of
every request reaches 100 ms (or a request fails), then is halved back towards the limit;
the figure is the most tables held, and the ratio is ours over the bare stack's.

The two stacks are measured in turn at each step (the order flipped each time), so the
machine's load, which other work on it moves, falls on both alike.

Run: .venv/bin/python bench/proxy_tables.py [--start 25] [--seconds 15] [--most 3200]

`--tables 200` instead plays that many live tables of ours once (`--phones 4`, the cost
table's table-minute: 4 phones polling every 2 s, one of them changing something every 15 s)
for `--seconds` after 10 s of warm-up; then as many of the bare stack's (its table-minute, the
cost table's bare column: a static page for an unchanged poll, its 56-cell page after a
change, a row for a change) behind the same recipe, after 5 s: bench/capacity.py's serving.
Each part's cost: CPU seconds read from /proc (bench/process_cpu.py) of the server processes
and their workers, nginx and the client; PostgreSQL's own count of transactions and sessions
opened (pg_stat_database); the connections nginx opened to the processes and closed (their
sockets in TIME_WAIT); the load as it is measured; and, played by a child during each
measured window (bench/native_minutes.py, spread over it), the CPU of the SQLite table-minute
and the PostgreSQL one natively, from which bench/capacity.py takes the window's instructions
a CPU second and a round trip's CPU. PostgreSQL's CPU is not read (a backend that exits takes
its CPU out of /proc). `--rate-limits file` keeps our rate limits in the data folder's file
instead of Redis: a probe of what the model's round trips to Redis are worth. `--save FILE`
keeps the figures ("bare …" the bare stack's) for bench/capacity.py, with the load at the start
and the end. `--layout affinity,round-robin` plays ours in both layouts in turn in the one
run, the same workers in each: the recipe's, and the recipe before it (round robin over two
processes of a worker a core, so a game's requests reach every worker, each with its own kept
states); the first layout's figures are saved plain, the others' as "<layout> …".
Everything listens on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import redis

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from client import Client
from live_load import PHONES, Baseline, Samples, Scorekeeper, run
from native_minutes import Native, recipe_settings
from process_cpu import Spent, pids_where, with_argument, with_descendants, with_environment
from run import ADMIN_URL, PLAYERS, postgres_reachable, scratch_databases

from scorekeeper.hosting.servers import cores
from tools.nginx_proxy import find_nginx, free_port, nginx, scorekeeper, server

TARGET_MS = 100.0
NATIVE_MINUTES = 10  # of each native table-minute, spread over a measured window
REDIS_URL = "redis://127.0.0.1:6379/0"
TIME_WAIT = 60.0  # s: Linux's, fixed
PREFIX_SETTING = "SCOREKEEPER_RATELIMIT_KEY_PREFIX"  # unique a run: finds its server processes
BARE_RUN = "BENCH_BARE_RUN"  # the same for the bare stack's


def closed_to(ports: list[int], seconds: float) -> int:
    """Connections to these ports on 127.0.0.1 that the connecting side closed within the last
    `seconds` (< 60): its sockets in TIME_WAIT, which Linux keeps 60 s, with more than
    60 - seconds of it left (/proc/net/tcp's timer, in 1/100 s)."""
    wanted = {f"0100007F:{port:04X}" for port in ports}
    closed = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        left = int(fields[5].split(":")[1], 16) / 100
        closed += fields[2] in wanted and fields[3] == "06" and left > TIME_WAIT - seconds
    return closed


@dataclass
class Step:
    """One number of tables, and how the requests fared."""

    tables: int
    samples: Samples

    @property
    def held(self) -> bool:
        return self.samples.p99_ms() < TARGET_MS and self.samples.errors == 0

    def row(self, name: str) -> str:
        late = sorted(self.samples.late)[int(len(self.samples.late) * 0.99)] * 1000
        return (
            f"| {name} | {self.tables} | {len(self.samples.seconds)} | "
            f"{self.samples.p99_ms():.1f} | {self.samples.errors} | {late:.0f} |"
        )


@contextmanager
def baseline(url: str, run: str = "") -> Iterator[int]:
    """bench/serve.py's bare app under gunicorn's workers, as `scorekeeper serve` runs ours
    (`run`: its processes' BARE_RUN, which finds them)."""
    port = free_port()
    command = [sys.executable, str(Path(__file__).parent / "serve.py"), "baseline", str(port), url]
    ready = f"http://127.0.0.1:{port}/static-page"
    with server(command, ready, quiet=True, BENCH_SERVER="gunicorn", **{BARE_RUN: run}):
        yield port


def ours(url: str, prefix: str, limits_on_redis: bool = True) -> dict[str, str]:
    """Our processes' settings: as the recipe, with starting games unlimited for the set-up
    (`limits_on_redis` False: the rate limits in the data folder's file, a probe's)."""
    settings = {
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": "bench-secret",
        "SCOREKEEPER_PROXY_HOPS": "1",
        "SCOREKEEPER_RATELIMIT_STORAGE_URI": REDIS_URL,
        PREFIX_SETTING: prefix,
        # Unchanged polls answered from Redis (docs/HOSTING.md), under this run's own keys.
        "SCOREKEEPER_VERSION_MAP_URL": REDIS_URL,
        "SCOREKEEPER_VERSION_MAP_PREFIX": f"{prefix}:v:",
        "SCOREKEEPER_RATELIMIT_NEW_GAMES": "100000 per minute",
        "SCOREKEEPER_ACCESS_LOG": "false",  # the bare stack writes none either
        "SCOREKEEPER_DATA_DIR": tempfile.mkdtemp(prefix="scorekeeper-proxy-bench-"),
    }
    if not limits_on_redis:
        del settings["SCOREKEEPER_RATELIMIT_STORAGE_URI"]
    return settings


def migrate(settings: dict[str, str]) -> None:
    """`scorekeeper migrate` on the database these settings name."""
    migrated = subprocess.run(
        [str(Path(sys.executable).parent / "scorekeeper"), "migrate"],
        env={**os.environ, **settings}, capture_output=True, check=False,
    )  # fmt: skip
    assert migrated.returncode == 0, migrated.stderr


def new_game(port: int) -> str:
    """A game of eight in round 3 (two rounds played); its round screen behind the proxy."""
    client = Client(port)
    body = {"ruleset": "unlimited-buys", "players": PLAYERS, "first_dealer": 0}
    game = json.loads(client.post_json("/api/v1/games", body).body)
    game_id, token = game["id"], game["links"]["edit_token"]
    for number in (1, 2):
        hands = {str(s): {"points": 10 + s + number} for s in range(8) if s != number}
        path = f"/api/v1/games/{game_id}/rounds/{number}"
        assert client.put_json(path, {"went_out": number, "hands": hands}, token).status == 200
    client.connection.close()
    return f"/scores/g/{game_id}/{token}"


Play = Callable[[int], Samples]


def search(plays: dict[str, Play], start: int, most: int) -> dict[str, list[Step]]:
    """Double the tables until a stack does not hold them, then halve the gap back towards its
    limit; both stacks step by step in turn, the order flipped each step, so a change in the
    machine's load falls on both."""
    steps: dict[str, list[Step]] = {name: [] for name in plays}

    def step(names: list[str], tables: dict[str, int], turn: int) -> None:
        for name in names if turn % 2 == 0 else names[::-1]:
            steps[name].append(Step(tables[name], plays[name](tables[name])))
            print(steps[name][-1].row(name), flush=True)

    tables, turn = start, 0
    while tables <= most:
        going = [name for name, done in steps.items() if not done or done[-1].held]
        if not going:
            break
        step(going, dict.fromkeys(going, tables), turn)
        tables, turn = tables * 2, turn + 1
    for _ in range(2):
        middles = {name: middle for name in plays if (middle := _middle(steps[name]))}
        if middles:
            step(list(middles), middles, turn)
            turn += 1
    return steps


def _middle(steps: list[Step]) -> int | None:
    """Halfway between the most tables held and the fewest not held, if worth a step."""
    low = max((s.tables for s in steps if s.held), default=0)
    high = min((s.tables for s in steps if not s.held), default=0)
    return (low + high) // 2 if high - low > max(2, low // 8) else None


def most_held(steps: list[Step]) -> int:
    """The most tables a stack held."""
    return max((s.tables for s in steps if s.held), default=0)


def measure(args: argparse.Namespace, urls: dict[str, str], folder: Path) -> dict[str, list[Step]]:
    """Both stacks behind their nginx at once, measured in turn."""
    settings = ours(urls["ours"], f"bench-{uuid.uuid4().hex}")
    migrate(settings)
    with ExitStack() as stack:
        ports, proxy = stack.enter_context(serving(LAYOUTS[0], settings, folder))
        bare_ports = [stack.enter_context(baseline(urls["bare"])) for _ in range(2)]
        bare = stack.enter_context(nginx(bare_ports, folder / "bare", "/static-page"))
        bare_proxy = urlsplit(bare).port or 0
        pages: list[str] = []

        def play_ours(tables: int) -> Samples:
            with ThreadPoolExecutor(8) as pool:
                more = [ports[i % len(ports)] for i in range(tables - len(pages))]
                pages.extend(pool.map(new_game, more))
            return asyncio.run(run(Scorekeeper(), pages[:tables], proxy, 5, args.seconds))

        def play_bare(tables: int) -> Samples:
            return asyncio.run(run(Baseline(), ["/scores"] * tables, bare_proxy, 5, args.seconds))

        return search({"Scorekeeper": play_ours, "bare stack": play_bare}, args.start, args.most)


LAYOUTS = ("affinity", "round-robin")  # the recipe's; before it, round robin over 2 processes


@contextmanager
def serving(layout: str, settings: dict[str, str], folder: Path) -> Iterator[tuple[list[int], int]]:
    """Our processes behind nginx in a layout, the same workers in each: the recipe's (one
    worker a process, a process for each, nginx keeping each game on one) or round robin over
    two processes of a worker a core (the recipe before); their ports and nginx's."""
    affinity = layout == "affinity"
    options, processes = (["--workers", "1"], 2 * cores()) if affinity else ([], 2)
    with ExitStack() as stack:
        ports = [
            stack.enter_context(scorekeeper(settings, *options, quiet=True))
            for _ in range(processes)
        ]
        proxy = stack.enter_context(nginx(ports, folder / layout, affinity=affinity))
        yield ports, urlsplit(proxy).port or 0


def play_tables(args: argparse.Namespace, urls: dict[str, str], folder: Path) -> dict[str, float]:
    """args.tables live tables of ours behind nginx in each layout in turn (new games each),
    then the bare stack's table-minute at the same rate behind the same recipe; what each
    measured part cost (the first layout's plain, "<layout> …" the others', "bare …" the
    bare stack's)."""
    prefix = f"bench-{uuid.uuid4().hex}"
    settings = ours(urls["ours"], prefix, args.rate_limits == "redis")
    migrate(settings)
    found: dict[str, float] = {}
    with psycopg.connect(args.postgres_url, autocommit=True) as admin:
        for turn, layout in enumerate(args.layout):
            with serving(layout, settings, folder) as (ports, proxy):
                with ThreadPoolExecutor(8) as pool:
                    more = [ports[i % len(ports)] for i in range(args.tables)]
                    pages = list(pool.map(new_game, more))
                servers = Spent(lambda: pids_where(with_environment(PREFIX_SETTING, prefix)))
                folder_of = folder / layout
                played = Played(
                    args, admin, name_of(urls["ours"]), ports, folder_of, servers, urls["native"]
                )
                measured = played(Scorekeeper(), pages, proxy)
            measured["affinity"] = layout == "affinity"
            measured["workers"] = 2 * cores()  # the processes serving: gunicorn's workers
            found.update({f"{layout} {k}" if turn else k: v for k, v in measured.items()})
        with ExitStack() as stack:
            ports = [stack.enter_context(baseline(urls["bare"], prefix)) for _ in range(2)]
            proxy = urlsplit(stack.enter_context(nginx(ports, folder / "bare", "/static-page")))
            servers = Spent(lambda: pids_where(with_environment(BARE_RUN, prefix)))
            played = Played(
                args, admin, name_of(urls["bare"]), ports, folder / "bare", servers, urls["native"]
            )
            # 5 s of warm-up, as the search's: it keeps no states to warm, and the run 3 minutes
            bare = played(Baseline(minute=True), ["/scores"] * args.tables, proxy.port or 0, 5)
    found.update({f"bare {name}": value for name, value in bare.items()})
    found["version_map"] = 1  # ours served with it: bench/capacity.py compares the map's costs
    found["rate_limits"] = int(args.rate_limits == "redis")  # and picks its rate limits' too
    return found


def name_of(url: str) -> str:
    """The database a URL names."""
    return urlsplit(url).path.lstrip("/")


@dataclass
class Played:
    """Plays live tables through one stack's nginx, measuring CPU (/proc), PostgreSQL's
    transactions and sessions on `database`, and connections to the stack's ports closed."""

    args: argparse.Namespace
    admin: psycopg.Connection[tuple[int, int]]
    database: str
    ports: list[int]
    nginx_folder: Path
    servers: Spent
    native_url: str  # where the native table-minutes play during the window

    def counted(self) -> tuple[int, int]:
        """PostgreSQL's transactions and sessions (connections opened) on the database."""
        sql = (
            "SELECT xact_commit + xact_rollback, sessions FROM pg_stat_database WHERE datname = %s"
        )
        row = self.admin.execute(sql, (self.database,)).fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    def __call__(
        self, kind: Scorekeeper | Baseline, pages: list[str], proxy: int, warm: float = 10
    ) -> dict[str, float]:
        """One table a page, for `warm` seconds of warm-up and args.seconds measured."""
        folder = str(self.nginx_folder)
        spent = {
            "servers": self.servers,
            "nginx": Spent(lambda: with_descendants(pids_where(with_argument(folder)))),
            "client": Spent(lambda: [os.getpid()]),
        }
        marks: dict[str, float] = {}
        # As the recipe serves: the version map and the rate limits on Redis.
        limits_on_redis = self.args.rate_limits == "redis"
        settings = recipe_settings(REDIS_URL, version_map=True, rate_limits=limits_on_redis)
        native = Native.start(NATIVE_MINUTES, self.native_url, settings, self.args.seconds * 0.8)

        def measuring(on: bool) -> None:
            if on:
                native.go()
            for each in spent.values():
                each.start() if on else each.stop()
            now = dict(zip(("transactions", "sessions"), self.counted(), strict=True))
            now["wall"] = time.monotonic()
            if on:
                marks["load when measured"] = os.getloadavg()[0]
            for name, value in now.items():
                marks[name] = value if on else value - marks[name]
            if not on:
                marks["upstream closes"] = closed_to(self.ports, marks["wall"])

        args = self.args
        samples = asyncio.run(run(kind, pages, proxy, warm, args.seconds, args.phones, measuring))
        found = {f"{name} cpu": each.seconds for name, each in spent.items()}
        found.update({f"native {name} cpu": cpu for name, cpu in native.medians().items()})
        found.update(tables=args.tables, phones=args.phones, seconds=marks["wall"])
        found.update(requests=len(samples.seconds), errors=samples.errors, p99_ms=samples.p99_ms())
        kept = ("transactions", "sessions", "upstream closes", "load when measured")
        found.update({name: marks[name] for name in kept})
        late = sorted(samples.late)
        found["late_p99_ms"] = late[int(len(late) * 0.99)] * 1000
        found["server processes"] = spent["servers"].processes
        return found


def ready(args: argparse.Namespace) -> str | None:
    """Why the bench cannot run here, or None."""
    if find_nginx() is None:
        return "nginx is not installed (apt-get install nginx)"
    if not postgres_reachable(args.postgres_url):
        return "PostgreSQL is not reachable"
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.ConnectionError:
        return f"Redis is not reachable at {REDIS_URL}"
    return None


def main() -> None:
    """Find the live tables each stack holds behind the proxy; print the table for the docs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--start", type=int, default=25, help="tables in the first step")
    parser.add_argument("--seconds", type=float, default=15, help="measured per step")
    parser.add_argument("--most", type=int, default=3200)
    parser.add_argument("--postgres-url", default=ADMIN_URL)
    parser.add_argument("--tables", type=int, help="play this many of ours once, measuring CPU")
    parser.add_argument("--phones", type=int, default=PHONES, help="phones a table")
    parser.add_argument("--save", type=Path, help="with --tables: write the figures as JSON")
    parser.add_argument(
        "--rate-limits",
        choices=("redis", "file"),
        default="redis",
        help="with --tables: our rate limits on Redis (the recipe) or in the data folder's file",
    )
    parser.add_argument(
        "--layout",
        type=lambda text: text.split(","),
        default=[LAYOUTS[0]],
        help=f"with --tables: ours in these layouts in turn, comma-separated ({LAYOUTS})",
    )
    args = parser.parse_args()
    if reason := ready(args):
        print(f"proxy bench skipped: {reason}")
        return
    if args.tables:
        started = os.getloadavg()[0]
        print(f"proxy bench: {args.tables} live tables of {args.phones} phones behind nginx; "
              f"load {started:.1f}")  # fmt: skip
        with (
            scratch_databases("postgresql", ["ours", "bare", "native"], args.postgres_url) as urls,
            tempfile.TemporaryDirectory(prefix="proxy-bench-") as folder,
        ):
            found = play_tables(args, urls, Path(folder))
        found.update({"load at start": started, "load": os.getloadavg()[0]})
        print("\n".join(f"- {name}: {value:.6g}" for name, value in found.items()))
        if args.save:
            args.save.write_text(json.dumps(found, indent=1))
        return
    print(
        f"proxy bench: live tables behind nginx, {2 * cores()} workers each; load {os.getloadavg()}"
    )
    print("\n| stack | tables | requests | p99 ms | errors | client late p99 ms |")
    print("| --- | --- | --- | --- | --- | --- |")
    with (
        scratch_databases("postgresql", ["ours", "bare"], args.postgres_url) as urls,
        tempfile.TemporaryDirectory(prefix="proxy-bench-") as folder,
    ):
        results = measure(args, urls, Path(folder))
    held = {name: most_held(steps) for name, steps in results.items()}
    ours_held, bare_held = held["Scorekeeper"], held["bare stack"]
    ratio = ours_held / bare_held if bare_held else float("nan")
    print(f"\nLive tables held with p99 < {TARGET_MS:.0f} ms: Scorekeeper {ours_held}, "
          f"bare stack {bare_held}, ratio {ratio:.2f}×; load {os.getloadavg()}")  # fmt: skip


if __name__ == "__main__":
    main()
