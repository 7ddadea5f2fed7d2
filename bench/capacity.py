"""What 10,000 live tables need, from the figures `make bench` measured in the same run.

A live table is the cost table's table-minute: 4 phones polling every 2 s, one of them (the
writer) changing something every 15 s, so 4 changes and 124 requests a minute. From
bench/cost_table.py's saved figures (`--save`; instructions, statements, transactions, round
trips to Redis and requests a table-minute), it puts:

- the server processes' cores: a table-minute's CPU seconds × tables ÷ 60, where a
  table-minute's CPU is its instructions ÷ this machine's instructions a CPU second × the
  spread (what sending a table's requests to several processes, each with its own kept
  states and regions, multiplies the app's work by: 1 behind the recipe, which keeps each
  game on one process; measured for a run played round robin), plus its round trips (to
  PostgreSQL: each statement, and each transaction's BEGIN and end; to Redis: the version
  map's and the rate limits') × a round trip's CPU beyond its instructions (the kernel's
  sockets, waits and wake-ups, which callgrind does not see), plus a served request's CPU
  beyond both (gunicorn's parsing, nginx's connections, the caches other processes leave
  cold) for each of its requests;
- PostgreSQL's transactions a second: transactions a table-minute × tables ÷ 60, without the
  version map (every poll reads the game's version and links: one autocommit statement) and
  with it (SCOREKEEPER_VERSION_MAP_URL: polls never reach the database), measured by a cost
  table run with `--version-map` (else the polls' reads taken off, marked "not measured");
- the processes (one per core, 8 threads each) and their connections, and whether PgBouncer
  is needed in front of PostgreSQL.

The four, measured: the instructions a second, from the SQLite table-minute played natively
by one app (bench/native_minutes.py: one hash seed, as under callgrind; the median CPU time,
time.process_time, user + system) against the instructions callgrind counted for the same
steps; the round trip, from the PostgreSQL table-minute that models the run (the version
map's, with its rate limits on Redis, as the recipe serves) played natively in turn with it
on a scratch database: its CPU beyond its instructions at the SQLite rate, over its round
trips. Both are played during each of the run's measured windows (bench/proxy_tables.py), so
each window is priced by its own load's rates; for a run without them, and for no run, here
(--minutes of each). The spread: the SQLite minute played in turn with its requests sent to
one of N apps at random (N: the run's processes, and MANY for a hosted instance). The
serving, from bench/proxy_tables.py's saved `--tables` run (`--run`), in which the bare
Flask + Flask-SQLAlchemy app played its own table-minute (the cost table's bare column: the same 124
requests, a static page for an unchanged poll, its 56-cell page after a change, a row for a
change) behind the same recipe at the same rate: its processes' CPU a request less its
instructions' and round trips' (the cost table's bare table-minute ÷ 124). That holds what
serving costs under the run's own conditions (gunicorn and nginx, 800 phones at once, the
caches other processes leave cold) and none of our app's work. Our table-minute in the same
run is set beside the model's CPU for the requests it served (measured ÷ model, and each
term's share), and its nginx CPU scaled to the tables. On another machine, the same
measurements give its model.

Run: .venv/bin/python bench/capacity.py --costs sqlite.json [--costs postgresql.json]
[--costs postgresql-map.json] [--run tables.json …] [--tables 10000] [--postgres ADMIN_URL]
[--redis URL]
"""

from __future__ import annotations

import argparse
import json
import math
import operator
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from native_minutes import NAMES, Native, recipe_settings
from run import ADMIN_URL, scratch_databases

MINUTE = "a table-minute (1 writer, 4 changes; 4 phones polling every 2 s)"
THREADS = 8  # `serve`'s threads a process: its pool keeps a PostgreSQL connection for each
POOL_MOST = THREADS + 10  # and SQLAlchemy's overflow opens up to 10 more at a burst
MAX_CONNECTIONS = 100  # PostgreSQL's default max_connections


REDIS_URL = "redis://127.0.0.1:6379/15"  # make bench's BENCH_REDIS
MANY = 16  # processes that stand for a hosted instance's many (more cost an app's memory each)


def minute_cpu_seconds(minutes: int, processes: int) -> tuple[float, float]:
    """The median CPU seconds of one SQLite table-minute played natively, as the cost table
    plays it (in a child process with the cost table's hash seed): served by one app, and
    spread over `processes` apps (child)."""
    command = [sys.executable, __file__, "--child", str(minutes), "--processes", str(processes)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    one, spread = done.stdout.strip().splitlines()[-1].split()
    return float(one), float(spread)


def child(minutes: int, processes: int) -> None:
    """Print the median CPU seconds of a table-minute served by one app, and of one spread over
    `processes` apps on the one database, `minutes` of each played in turn (so the machine's
    load falls on both alike), after each app has served one warm minute alone.

    Spread, each request goes to an app picked at random, as nginx and the kernel spread a
    table's requests over served processes: each app keeps its own derived states and regions
    (kept.py), so a change's next requests that reach another app derive them again.
    """
    from cost_table import our_steps
    from request_costs import ROOT, TestClientHTTP, app_on

    with tempfile.TemporaryDirectory(prefix="scorekeeper-capacity-") as folder:
        url = f"sqlite:///{Path(folder) / 'capacity.db'}"
        apps = [app_on(ROOT, url)[0] for _ in range(processes)]
        pick, send, routes = random.Random(0), TestClientHTTP.send, [apps[0]]

        def routed(client: Any, *args: Any, **kwargs: Any) -> Any:
            client.test.application = pick.choice(routes)
            return send(client, *args, **kwargs)

        TestClientHTTP.send = routed  # type: ignore[method-assign]
        one, many = (our_steps(apps[0])[MINUTE] for _ in range(2))
        for app in apps:
            routes[:] = [app]
            many(0, lambda work: work())
        one(0, lambda work: work())
        spent: dict[bool, list[float]] = {False: [], True: []}

        def counted(spread: bool) -> Any:
            def count(work: Any) -> Any:
                started = time.process_time()
                done = operator.call(work)
                spent[spread].append(time.process_time() - started)
                return done

            return count

        for i in range(1, minutes + 1):
            routes[:] = apps[:1]
            one(i, counted(False))
            routes[:] = apps
            many(i, counted(True))
    print(statistics.median(spent[False]), statistics.median(spent[True]))


def round_trips(side: dict[str, float], database: str) -> float:
    """Round trips a request (or table-minute) makes over sockets: on PostgreSQL each statement,
    and each transaction's BEGIN and its COMMIT or ROLLBACK (psycopg sends them apart; an
    unchanged poll's read runs outside any); each packed send to Redis (the version map's, the
    rate limits'). SQLite is a library in the process: no round trip."""
    postgres = 0.0
    if database == "postgresql":
        postgres = side["statements"] + 2 * (side["transactions"] - side.get("poll_reads", 0))
    return postgres + side.get("redis_trips", 0)


def trip_seconds(costs: dict[str, Any], cpu: float, per_second: float) -> float:
    """A round trip's CPU seconds beyond its instructions (the kernel's sockets, the waits and
    wake-ups that callgrind, user space only, does not see): the table-minute of these costs
    played natively (`cpu`, on their database and settings) less its instructions at the
    SQLite-measured rate, over its round trips."""
    ours = costs["ours"][MINUTE]
    return (cpu - ours["instructions"] / per_second) / round_trips(ours, costs["database"])


class Rates(NamedTuple):
    """What this machine's CPU pays, measured: instructions a CPU second (natively), a round
    trip's CPU beyond its instructions (seconds), a served request's beyond both (seconds)."""

    per_second: float
    trip: float = 0.0
    serving: float = 0.0


def app_seconds(side: dict[str, float], database: str, rates: Rates, spread: float = 1.0) -> float:
    """The app's CPU seconds for a request (or table-minute) of the cost table: its
    instructions (× the spread: what sending a table's requests to several processes
    multiplies them by) and its round trips."""
    instructions = side["instructions"] / rates.per_second * spread
    return float(instructions + round_trips(side, database) * rates.trip)


def serving_seconds(run: dict[str, Any], costs: dict[str, Any], rates: Rates) -> float:
    """A served request's CPU seconds beyond its instructions and round trips: the run's bare
    table-minutes' CPU a request, less their app's (`costs`: the cost table whose bare
    table-minute it played)."""
    bare = costs["bare"][MINUTE]
    app = app_seconds(bare, costs["database"], rates) / bare["requests"]
    return float(run["bare servers cpu"] / run["bare requests"] - app)


def minute_parts(costs: dict[str, Any], rates: Rates, spread: float = 1.0) -> dict[str, float]:
    """A table-minute's CPU seconds by what pays them: the app's instructions (× the spread),
    its round trips, and serving its requests."""
    ours = costs["ours"][MINUTE]
    instructions = ours["instructions"] / rates.per_second * spread
    return {
        "instructions": instructions,
        "round trips": app_seconds(ours, costs["database"], rates, spread) - instructions,
        "serving": ours["requests"] * rates.serving,
    }


def model(
    costs: dict[str, Any],
    rates: Rates,
    tables: int,
    spread: float = 1.0,
    mapped: dict[str, Any] | None = None,
) -> dict[str, float]:
    """What `tables` live tables need on this database, by the cost table's figures and this
    machine's measured rates (`spread`: what spreading a table over the processes multiplies
    its instructions by); `mapped`: the cost table's figures with the version map on, if
    measured."""
    ours = costs["ours"][MINUTE]
    with_map = ours["transactions"] - ours["poll_reads"]
    if mapped is not None:
        with_map = mapped["ours"][MINUTE]["transactions"]
    parts = minute_parts(costs, rates, spread)
    cpu = sum(parts.values())  # CPU seconds a table-minute
    cores = tables * cpu / 60
    workers = max(1, math.ceil(cores))
    return {
        **parts,
        "cpu": cpu,
        "requests": tables * ours["requests"] / 60,
        "cores": cores,
        "workers": workers,
        "tps": tables * ours["transactions"] / 60,
        "tps with a version map": tables * with_map / 60,
        "connections": workers * THREADS,
    }


def layouts(run: dict[str, Any]) -> list[dict[str, Any]]:
    """A saved run as a run for each layout it played ("<layout> …" the second's on; the
    bare stack's figures and the load at the start and end shared)."""
    others = [key.removesuffix(" affinity") for key in run if key.endswith(" affinity")]
    return [run] + [
        {**run, **{k.removeprefix(f"{o} "): v for k, v in run.items() if k.startswith(f"{o} ")}}
        for o in others
    ]


def spread_of(run: dict[str, Any], spread: dict[int, float]) -> float:
    """What a run's layout multiplies the app's work by: 1 when the proxy kept each game on one
    process (the recipe), else the spread measured over its processes."""
    return 1.0 if run.get("affinity") else spread[run["workers"]]


def rates_of(
    native: dict[str, float], sqlite: dict[str, Any], served: dict[str, Any] | None, where: str
) -> Rates:
    """This machine's instructions a CPU second and a round trip's CPU, from the native
    table-minutes' CPU (`native`, by database) and the cost tables they played (`served`: the
    PostgreSQL one, as the recipe serves; None: no round trip counted); printed."""
    instructions = sqlite["ours"][MINUTE]["instructions"]
    per_second = instructions / native["sqlite"]
    line = (
        f"- {where}: the SQLite table-minute, {instructions / 1e6:.0f} M instructions "
        f"(callgrind), took {native['sqlite'] * 1000:.0f} ms of CPU natively: "
        f"{per_second / 1e9:.2f} G instructions a CPU second"
    )
    if served is None:
        print(f"{line}; round trips not counted (no PostgreSQL cost table).")
        return Rates(per_second)
    ours, trip = served["ours"][MINUTE], trip_seconds(served, native["postgresql"], per_second)
    redis = ours.get("redis_trips", 0)
    named = {"version_map": "the version map", "rate_limits": "rate limits on Redis"}
    settings = [name for key, name in named.items() if served.get(key)]
    print(
        f"{line}; the PostgreSQL one ({', '.join(settings) or 'no Redis'}; "
        f"{ours['instructions'] / 1e6:.0f} M instructions, "
        f"{round_trips(ours, 'postgresql') - redis:.0f} round trips to PostgreSQL and "
        f"{redis:.0f} to Redis) {native['postgresql'] * 1000:.0f} ms, "
        f"{(native['postgresql'] - ours['instructions'] / per_second) * 1000:.0f} ms beyond its "
        f"instructions: {trip * 1e6:.0f} µs a round trip."
    )
    return Rates(per_second, trip)


def window_of(run: dict[str, Any], stack: str = "") -> dict[str, float] | None:
    """The native table-minutes' CPU played during a stack's measured window of a run
    (bench/proxy_tables.py; `stack`: "bare " for the bare stack's), if it played them."""
    keys = {name: f"{stack}native {name} cpu" for name in NAMES}
    return {name: run[key] for name, key in keys.items()} if keys["sqlite"] in run else None


def named(costs: dict[str, Any]) -> str:
    """A cost table's name: its database, and what it kept on Redis."""
    on_redis = {"version_map": " + version map", "rate_limits": ", rate limits on Redis"}
    return costs["database"] + "".join(text for key, text in on_redis.items() if costs.get(key))


def served_costs(
    costs: list[dict[str, Any]], run: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The PostgreSQL cost table counted most as a run was served: with the version map and
    the rate limits where it kept them (a run that does not say: on Redis, the recipe's)."""
    wanted = {key: bool((run or {}).get(key, True)) for key in ("version_map", "rate_limits")}
    ranked = sorted(
        (c for c in costs if c["database"] == "postgresql"),
        key=lambda c: sum(bool(c.get(key)) == on for key, on in wanted.items()),
    )
    return ranked[-1] if ranked else None


def native_now(served: dict[str, Any], args: Any) -> dict[str, float]:
    """The native table-minutes' CPU, played now on a scratch PostgreSQL database with the
    settings the served costs were counted with."""
    with scratch_databases("postgresql", ["capacity"], args.postgres) as urls:
        on = (bool(served.get("version_map")), bool(served.get("rate_limits")))
        settings = recipe_settings(args.redis, *on)
        native = Native.start(args.minutes, urls["capacity"], settings)
        native.go()
        return native.medians()


def report(costs: list[dict[str, Any]], runs: list[dict[str, Any]], args: Any) -> None:
    """Print the model for each database, and each run (each layout it played) against it."""
    found = {c["database"]: c for c in costs if not c.get("version_map")}
    mapped = {c["database"]: c for c in costs if c.get("version_map")}
    measured = {
        processes: minute_cpu_seconds(args.minutes, processes)
        for processes in sorted(
            {MANY, *(r["workers"] for run in runs for r in layouts(run) if not r.get("affinity"))}
        )
    }
    print(f"\n## {args.tables:,} live tables (load {os.getloadavg()[0]:.1f})\n")
    spread = {processes: many / one for processes, (one, many) in measured.items()}
    print(
        "- Spread over processes (each request to one of N apps at random, each with its own "
        "kept states and regions; played in turn with one app), the same SQLite table-minute "
        "costs "
        + ", ".join(f"{times:.2f} × ({n} processes)" for n, times in spread.items())
        + f"; {MANY} stands for a hosted instance's many. The recipe keeps each game on one "
        "process (deploy/nginx): the model's spread is 1."
    )
    served = served_costs(costs)  # the recipe's: they calibrate the round trip played now
    windows = [window_of(layout) for run in runs for layout in layouts(run)]
    windows += [window_of(run, "bare ") for run in runs]
    now = None
    if not runs or None in windows:
        where = f"Now ({args.minutes} of each, in turn)" if served else "Now"
        native = native_now(served, args) if served else {"sqlite": measured[MANY][0]}
        now = rates_of(native, found["sqlite"], served, where)

    def rates_in(run: dict[str, Any], stack: str = "") -> Rates:
        """The rates of a stack's window in a run, else the ones measured now."""
        window = window_of(run, stack)
        if window is None:
            assert now is not None
            return now
        where = f"During {'the bare stack' if stack else 'our'} run's window"
        return rates_of(window, found["sqlite"], served_costs(costs, run), where)

    bare_costs = found.get("postgresql", found["sqlite"])
    bare = bare_costs["bare"][MINUTE]
    servings = []
    for run in runs:
        rates = rates_in(run, "bare ")
        servings.append(serving_seconds(run, bare_costs, rates))
        print(
            f"- Serving: the bare stack's table-minute behind the same nginx ({run['tables']} "
            f"tables, {run['bare requests']:,} requests, p99 {run['bare p99_ms']:.0f} ms, load "
            f"{run['bare load when measured']:.1f}) cost "
            f"{run['bare servers cpu'] / run['bare requests'] * 1e3:.2f} ms of its processes' "
            f"CPU a request, its instructions and round trips "
            f"{app_seconds(bare, bare_costs['database'], rates) / bare['requests'] * 1e3:.2f} "
            f"ms: {servings[-1] * 1e3:.2f} ms a request is serving."
        )
    ours_rates = [
        rates_in(layout)._replace(serving=each)
        for run, each in zip(runs, servings, strict=True)
        for layout in layouts(run)
    ]
    rates = Rates(*map(statistics.median, zip(*ours_rates, strict=True))) if runs else now
    assert rates is not None
    if not runs:
        print("- Serving: not counted (no --run measured it).")
    print(
        "\n| database | CPU a table-minute (instructions + round trips + serving) | requests/s "
        "| cores | processes | PostgreSQL TPS (today / version map) | connections |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    rows = [(named(c), c, c if c.get("version_map") else mapped.get(c["database"])) for c in costs]
    for name, each, measured_map in rows:
        m = model(each, rates, args.tables, 1.0, measured_map)
        postgres = name.startswith("postgresql")
        today = "-" if measured_map is each else f"{m['tps']:,.0f}"  # the map's own row: - / …
        tps = f"{today} / {m['tps with a version map']:,.0f}" if postgres else "-"
        if postgres and measured_map is None:
            tps += " (not measured)"
        most = m["workers"] * POOL_MOST
        connections = f"{m['connections']:,} (at most {most:,})" if postgres else "-"
        print(
            f"| {name} | {m['cpu'] * 1000:.0f} ms ({m['instructions'] * 1000:.0f} + "
            f"{m['round trips'] * 1000:.0f} + {m['serving'] * 1000:.0f}) | "
            f"{m['requests']:,.0f} | {m['cores']:.1f} | "
            f"{m['workers']} × {THREADS} threads | {tps} | {connections} |"
        )
    if "postgresql" not in found:
        return

    def costs_of(run: dict[str, Any]) -> dict[str, Any]:
        """The cost table a run is modelled by."""
        return served_costs(costs, run) or found["postgresql"]

    m = model(found["postgresql"], rates, args.tables)
    pooled = m["connections"] > MAX_CONNECTIONS
    print(
        f"\nPgBouncer: {'needed' if pooled else 'not needed'}: {m['workers']} processes × "
        f"{THREADS} threads keep {m['connections']:,} connections (up to {POOL_MOST} each) "
        f"against PostgreSQL's default max_connections of {MAX_CONNECTIONS}."
    )
    played = [layout for run in runs for layout in layouts(run)]
    ratios = [
        compare(
            layout,
            costs_of(layout),
            each,
            spread_of(layout, spread),
            model(costs_of(layout), rates, args.tables),
            args.tables,
        )
        for layout, each in zip(played, ours_rates, strict=True)
    ]
    if ratios:
        shown = ", ".join(f"{ratio:.2f}" for ratio in ratios)
        print(
            f"\nServer CPU, measured ÷ model: {shown} (load {os.getloadavg()[0]:.1f} at the end)."
        )


def compare(
    run: dict[str, Any], costs: dict[str, Any], rates: Rates, spread: float,
    m: dict[str, float], tables: int,
) -> float:  # fmt: skip
    """The run's CPU and transactions against the model's for the requests it served (with
    its own serving, and spread over its processes); measured ÷ model of the CPU."""
    ours = costs["ours"][MINUTE]
    minutes = run["requests"] / ours["requests"]  # table-minutes the run served
    parts = minute_parts(costs, rates, spread)
    predicted = minutes * sum(parts.values())
    measured = run["servers cpu"]
    transactions = minutes * ours["transactions"]
    offered = run["tables"] * run["phones"] / 2 + run["tables"] / 15  # requests a second
    print(
        f"\n### The run: {run['tables']} tables of {run['phones']} phones behind nginx, "
        f"{run['workers']} workers, "
        f"{'each game on one' if run.get('affinity') else 'round robin'}, "
        f"{run['seconds']:.0f} s (load {run['load at start']:.1f} at the run's start, "
        f"{run['load when measured']:.1f} as measured, {run['load']:.1f} at the end)\n"
    )
    print("| | model | measured | measured ÷ model |")
    print("| --- | --- | --- | --- |")
    print(
        f"| requests a second | {offered:.0f} offered | {run['requests'] / run['seconds']:.0f} "
        f"(p99 {run['p99_ms']:.0f} ms, {run['errors']} errors) | "
        f"{run['requests'] / run['seconds'] / offered:.2f} |"
    )
    print(
        f"| server processes' CPU | {predicted:.1f} s | {measured:.1f} s | "
        f"**{measured / predicted:.2f}** |"
    )
    print(
        f"| PostgreSQL transactions | {transactions:,.0f} | {run['transactions']:,.0f} | "
        f"{run['transactions'] / transactions:.2f} |"
    )
    print(f"| PostgreSQL sessions opened | 0 | {run['sessions']:.0f} | |")
    print(f"| nginx's upstream connections closed | 0 | {run['upstream closes']:.0f} | |")

    def cores(cpu: float) -> str:
        """Cores for `tables` tables, at cpu seconds over the run's table-minutes."""
        return f"{tables * cpu / minutes / 60:.1f}"

    per_minute = ", ".join(
        f"{name} {run[f'{key} cpu'] / minutes * 1000:.0f} ms"
        for name, key in (
            ("server processes", "servers"),
            ("nginx", "nginx"),
            ("the client", "client"),
        )
    )
    shares = " + ".join(f"{name} {each * 1000:.0f}" for name, each in parts.items())
    print(
        f"\nThe run's CPU a table-minute served: {per_minute} (the model: "
        f"{predicted / minutes * 1000:.0f} ms: {shares}). Scaled to {tables:,} tables: server "
        f"processes {cores(measured)} cores (the model: {m['cores']:.1f}), nginx "
        f"{cores(run['nginx cpu'])}."
    )
    return float(measured / predicted)


def main() -> None:
    """Read the saved figures, measure this machine's rates, print the model."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--costs", type=Path, action="append", default=[], help="cost_table.py --save"
    )
    parser.add_argument(
        "--run", type=Path, action="append", default=[], help="proxy_tables.py --tables … --save"
    )
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--minutes", type=int, default=10, help="native table-minutes timed")
    parser.add_argument("--postgres", default=ADMIN_URL, help="admin URL: a round trip's scratch")
    parser.add_argument("--redis", default=REDIS_URL, help="the Redis a round trip's play uses")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--processes", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.processes)
        return
    costs = [json.loads(path.read_text()) for path in args.costs if path.exists()]
    if not any(c["database"] == "sqlite" and c["ours"][MINUTE]["instructions"] for c in costs):
        print("capacity model skipped: no SQLite cost table with instructions (--costs)")
        return
    runs = [json.loads(path.read_text()) for path in args.run if path.exists()]
    report(costs, runs, args)


if __name__ == "__main__":
    main()
