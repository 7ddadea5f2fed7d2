"""What 10,000 live tables need, from the figures `make bench` measured in the same run.

A live table is the cost table's table-minute: 4 phones polling every 2 s, one of them (the
writer) changing something every 15 s, so 4 changes and 124 requests a minute. From
bench/cost_table.py's saved figures (`--save`; instructions, statements, transactions and
requests a table-minute), it puts:

- the server processes' cores: a table-minute's CPU seconds × tables ÷ 60, where a
  table-minute's CPU is its instructions ÷ this machine's instructions a CPU second, plus a
  served request's CPU beyond its instructions (gunicorn's parsing, the sockets, the kernel's
  share) for each of its requests;
- PostgreSQL's transactions a second: transactions a table-minute × tables ÷ 60, without the
  version map (every poll reads the game's version and links: one autocommit statement) and
  with it (SCOREKEEPER_VERSION_MAP_URL: polls never reach the database), measured by a cost
  table run with `--version-map` (else the polls' reads taken off, marked "not measured");
- the processes (one per core, 8 threads each) and their connections, and whether PgBouncer
  is needed in front of PostgreSQL.

Measured here, in processes of their own: the instructions a second, from the SQLite
table-minute played natively (one hash seed, as under callgrind; the median CPU time of
--minutes, time.process_time) against the instructions callgrind counted for the same steps;
the serving, as the CPU a `scorekeeper serve` process (one gunicorn worker, PostgreSQL)
spends on an unchanged poll over keep-alive (from /proc; the median of 3 batches of --polls)
less its instructions. Medians, not least times: the run this checks is as loaded as the
machine is.

With bench/proxy_tables.py's saved `--tables` run it also puts what the model predicts for
the requests that run served beside what its server processes spent, and scales the run's
nginx CPU a table-minute to the 10,000 tables.

Run: .venv/bin/python bench/capacity.py --costs sqlite.json [--costs postgresql.json]
[--run tables.json] [--tables 10000]
"""

from __future__ import annotations

import argparse
import json
import math
import operator
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))
from client import HX, unchanged
from process_cpu import Spent, pids_where, with_environment

MINUTE = "a table-minute (1 writer, 4 changes; 4 phones polling every 2 s)"
THREADS, POOL_MOST = 8, 15  # `serve`'s threads a process; SQLAlchemy's pool: 5 + 10 overflow
MAX_CONNECTIONS = 100  # PostgreSQL's default max_connections


def minute_cpu_seconds(minutes: int) -> float:
    """The median CPU seconds of one SQLite table-minute played natively, as the cost table
    plays it (in a child process with the cost table's hash seed)."""
    command = [sys.executable, __file__, "--child", str(minutes)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    return float(done.stdout.strip().splitlines()[-1])


def child(minutes: int) -> None:
    """Print the median CPU seconds of `minutes` counted table-minutes, after one warm."""
    from cost_table import our_steps
    from request_costs import ROOT, app_on

    with tempfile.TemporaryDirectory(prefix="scorekeeper-capacity-") as folder:
        app, counter = app_on(ROOT, f"sqlite:///{Path(folder) / 'capacity.db'}")
        counter.profiling = False
        minute = our_steps(app)[MINUTE]
        spent = []

        def count(work: Any) -> Any:
            started = time.process_time()
            done = operator.call(work)
            spent.append(time.process_time() - started)
            return done

        minute(0, lambda work: work())
        for i in range(minutes):
            minute(i + 1, count)
    print(statistics.median(spent))


def served_poll_seconds(admin_url: str, polls: int) -> float:
    """CPU seconds one unchanged poll costs a `scorekeeper serve` process (one gunicorn worker
    on a scratch PostgreSQL database, as the proxy recipe's settings), polled over one
    keep-alive connection: the app's work and gunicorn's (parsing, sockets, the kernel's); the
    median of 3 batches of `polls`, after one warm."""
    from client import Client, Phone
    from proxy_tables import PREFIX_SETTING, migrate, new_game, ours
    from run import scratch_databases

    from tools.nginx_proxy import scorekeeper

    prefix = f"bench-{uuid.uuid4().hex}"
    with scratch_databases("postgresql", ["served"], admin_url) as urls:
        settings = {**ours(urls["served"], prefix), "SCOREKEEPER_WORKERS": "1"}
        migrate(settings)
        with scorekeeper(settings, quiet=True) as port:
            phone = Phone(Client(port), new_game(port).removeprefix("/scores"))
            phone.open()
            spent = Spent(lambda: pids_where(with_environment(PREFIX_SETTING, prefix)))
            batches = []
            for batch in range(4):  # the first warms
                spent.start()
                for _ in range(polls):
                    if not unchanged(phone.client.get(phone.poller, HX)):
                        raise SystemExit("a served poll found a change")
                spent.stop()
                batches += [spent.seconds / polls] if batch else []
    return statistics.median(batches)


def model(
    costs: dict[str, Any],
    per_second: float,
    serving: float,
    tables: int,
    mapped: dict[str, Any] | None = None,
) -> dict[str, float]:
    """What `tables` live tables need on this database, by the cost table's figures and a
    served request's CPU beyond its instructions (`serving`, seconds); `mapped`: the cost
    table's figures with the version map on, if measured."""
    ours = costs["ours"][MINUTE]
    with_map = ours["transactions"] - ours["poll_reads"]
    if mapped is not None:
        with_map = mapped["ours"][MINUTE]["transactions"]
    app = ours["instructions"] / per_second  # CPU seconds a table-minute in the app
    cpu = app + ours["requests"] * serving
    cores = tables * cpu / 60
    workers = max(1, math.ceil(cores))
    return {
        "app": app,
        "cpu": cpu,
        "requests": tables * ours["requests"] / 60,
        "cores": cores,
        "workers": workers,
        "tps": tables * ours["transactions"] / 60,
        "tps with a version map": tables * with_map / 60,
        "connections": workers * THREADS,
    }


def report(costs: list[dict[str, Any]], runs: list[dict[str, Any]], args: Any) -> None:
    """Print the model for each database, and the run against it."""
    found = {c["database"]: c for c in costs if not c.get("version_map")}
    mapped = {c["database"]: c for c in costs if c.get("version_map")}
    served_costs = mapped.get("postgresql", found.get("postgresql"))  # served with the map
    instructions = found["sqlite"]["ours"][MINUTE]["instructions"]
    cpu = minute_cpu_seconds(args.minutes)
    per_second = instructions / cpu
    print(f"\n## {args.tables:,} live tables (load {os.getloadavg()[0]:.1f})\n")
    print(
        f"- This machine's core: the SQLite table-minute, {instructions / 1e6:.0f} M "
        f"instructions (callgrind), took {cpu * 1000:.0f} ms of CPU natively (median of "
        f"{args.minutes}): {per_second / 1e9:.2f} G instructions a CPU second."
    )
    serving = 0.0
    if served_costs is not None:
        served = served_poll_seconds(args.postgres_url, args.polls)
        poll = served_costs["ours"]["unchanged poll of a game page"]["instructions"]
        serving = served - poll / per_second
        print(
            f"- Serving: an unchanged poll served by one gunicorn worker (PostgreSQL, the "
            f"version map on, "
            f"3 × {args.polls} over keep-alive) cost {served * 1e3:.2f} ms of the process's CPU, "
            f"its instructions in-process {poll / per_second * 1e3:.2f} ms: "
            f"{serving * 1e3:.2f} ms a request is serving (gunicorn, sockets, the kernel)."
        )
    print(
        "\n| database | CPU a table-minute (app + serving) | requests/s | cores | processes "
        "| PostgreSQL TPS (today / version map) | connections |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    rows = [(name, each, mapped.get(name)) for name, each in found.items()]
    rows += [(f"{name} + version map", each, each) for name, each in mapped.items()]
    for name, each, measured in rows:
        m = model(each, per_second, serving, args.tables, measured)
        postgres = name.startswith("postgresql")
        today = "-" if measured is each else f"{m['tps']:,.0f}"  # the map's own row: - / …
        tps = f"{today} / {m['tps with a version map']:,.0f}" if postgres else "-"
        if postgres and measured is None:
            tps += " (not measured)"
        most = m["workers"] * POOL_MOST
        connections = f"{m['connections']:,} (at most {most:,})" if postgres else "-"
        print(
            f"| {name} | {m['cpu'] * 1000:.0f} ms ({m['app'] * 1000:.0f} + "
            f"{(m['cpu'] - m['app']) * 1000:.0f}) | {m['requests']:,.0f} | {m['cores']:.1f} | "
            f"{m['workers']} × {THREADS} threads | {tps} | {connections} |"
        )
    if "postgresql" not in found:
        return
    m = model(found["postgresql"], per_second, serving, args.tables)
    pooled = m["connections"] > MAX_CONNECTIONS
    print(
        f"\nPgBouncer: {'needed' if pooled else 'not needed'}: {m['workers']} processes × "
        f"{THREADS} threads hold {m['connections']:,} connections (up to {POOL_MOST} each) "
        f"against PostgreSQL's default max_connections of {MAX_CONNECTIONS}."
    )
    for run in runs:
        costs_of_run = mapped.get("postgresql") if run.get("version_map") else None
        compare(run, costs_of_run or found["postgresql"], per_second, serving, m, args.tables)


def compare(
    run: dict[str, Any], costs: dict[str, Any], per_second: float, serving: float,
    m: dict[str, float], tables: int,
) -> None:  # fmt: skip
    """The run's CPU and transactions against the model's for the requests it served."""
    ours = costs["ours"][MINUTE]
    minutes = run["requests"] / ours["requests"]  # table-minutes the run served
    predicted = minutes * (ours["instructions"] / per_second + ours["requests"] * serving)
    measured = run["servers cpu"]
    transactions = minutes * ours["transactions"]
    offered = run["tables"] * run["phones"] / 2 + run["tables"] / 15  # requests a second
    print(
        f"\n### The run: {run['tables']} tables of {run['phones']} phones behind nginx, "
        f"{run['seconds']:.0f} s (load {run['load']:.1f})\n"
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
    if "sessions" in run:
        print(f"| PostgreSQL sessions opened | 0 | {run['sessions']} | |")

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
    print(
        f"\nThe run's CPU a table-minute served: {per_minute}. Scaled to {tables:,} tables: "
        f"server processes {cores(measured)} cores (the model: {m['cores']:.1f}), nginx "
        f"{cores(run['nginx cpu'])}."
    )


def main() -> None:
    """Read the saved figures, measure this machine's instructions a second, print the model."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--costs", type=Path, action="append", default=[], help="cost_table.py --save"
    )
    parser.add_argument(
        "--run", type=Path, action="append", default=[], help="proxy_tables.py --tables … --save"
    )
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--minutes", type=int, default=3, help="native table-minutes timed")
    parser.add_argument("--polls", type=int, default=1000, help="served polls a batch")
    parser.add_argument("--postgres-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    costs = [json.loads(path.read_text()) for path in args.costs if path.exists()]
    if not any(c["database"] == "sqlite" and c["ours"][MINUTE]["instructions"] for c in costs):
        print("capacity model skipped: no SQLite cost table with instructions (--costs)")
        return
    runs = [json.loads(path.read_text()) for path in args.run if path.exists()]
    report(costs, runs, args)


if __name__ == "__main__":
    main()
