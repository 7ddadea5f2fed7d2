"""bench/capacity.py's model against a run, and what bench/proxy_tables.py counts for it."""

from __future__ import annotations

import asyncio
import socket
import sys
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from capacity import (
    MINUTE,
    Rates,
    compare,
    layouts,
    model,
    named,
    rates_of,
    round_trips,
    served_costs,
    serving_seconds,
    spread_of,
    trip_seconds,
    window_of,
)
from live_load import Baseline, Samples, Table
from proxy_tables import closed_to

PER_SECOND = 4e9  # instructions a CPU second
MINUTE_FIGURES = {"instructions": 280e6, "requests": 124, "transactions": 136, "poll_reads": 120}
COSTS = {
    "database": "sqlite",
    "ours": {MINUTE: {**MINUTE_FIGURES, "statements": 148}},
    "bare": {
        MINUTE: {"instructions": 248e6, "requests": 124, "statements": 24, "transactions": 20}
    },
}
# As the version map's cost table on PostgreSQL: 28 statements, 16 transactions (each a BEGIN
# and a COMMIT or ROLLBACK of its own), 400 packed sends to Redis: 60 + 400 round trips.
SERVED = {
    "database": "postgresql",
    "ours": {
        MINUTE: {
            "instructions": 280e6,
            "requests": 124,
            "statements": 28,
            "transactions": 16,
            "poll_reads": 0,
            "redis_trips": 400,
        }
    },
    "bare": {
        MINUTE: {"instructions": 248e6, "requests": 124, "statements": 24, "transactions": 20}
    },
}


def run_of(bare_ms: float, minute_ms: float, minutes: float) -> dict[str, Any]:
    """A saved run: the bare stack's table-minutes cost bare_ms each, ours minute_ms."""
    return {
        "bare servers cpu": 100 * bare_ms / 1000,
        "bare requests": 100 * 124,
        "servers cpu": minutes * minute_ms / 1000,
        "requests": minutes * 124,
        "seconds": 45.0,
        "tables": 200,
        "phones": 4,
        "p99_ms": 50.0,
        "errors": 0,
        "transactions": minutes * 136,
        "sessions": 0,
        "upstream closes": 0,
        "servers": 0,
        "nginx cpu": 1.0,
        "client cpu": 2.0,
        "workers": 4,
        "load at start": 1.0,
        "load when measured": 1.0,
        "load": 1.0,
    }


def test_serving_is_what_the_bare_stack_served_beyond_its_instructions() -> None:
    """The bare table-minute's 248 M instructions are 62 ms at 4 G a second: of 124 ms served,
    62 ms are serving, 0.5 ms a request (SQLite: no round trip)."""
    run = run_of(bare_ms=124, minute_ms=0, minutes=1)
    assert serving_seconds(run, COSTS, Rates(PER_SECOND)) == pytest.approx(0.5e-3)


def test_round_trips_are_statements_their_transactions_ends_and_redis_sends() -> None:
    """On PostgreSQL a transaction adds its BEGIN and its end to its statements; an unchanged
    poll's read (autocommit) adds none; Redis's sends count on either database."""
    assert round_trips(SERVED["ours"][MINUTE], "postgresql") == 28 + 2 * 16 + 400
    assert round_trips(COSTS["ours"][MINUTE], "postgresql") == 148 + 2 * (136 - 120)
    assert round_trips(COSTS["ours"][MINUTE], "sqlite") == 0
    assert round_trips({**COSTS["ours"][MINUTE], "redis_trips": 7}, "sqlite") == 7


def test_a_round_trip_is_the_native_minutes_cpu_beyond_its_instructions() -> None:
    """280 M instructions are 70 ms at 4 G a second; played natively in 116 ms, the 46 ms
    beyond them over 460 round trips: 0.1 ms each."""
    assert trip_seconds(SERVED, 0.116, PER_SECOND) == pytest.approx(0.1e-3)


def test_the_bare_stacks_round_trips_are_not_serving() -> None:
    """The bare minute's 64 round trips (24 statements, 20 BEGINs and ends) at 0.1 ms are
    6.4 ms of its 124: serving is what is left beyond them and its 62 ms of instructions."""
    run = run_of(bare_ms=124, minute_ms=0, minutes=1)
    serving = serving_seconds(run, SERVED, Rates(PER_SECOND, trip=0.1e-3))
    assert serving * 124 * 1000 == pytest.approx(124 - 62 - 6.4)


def test_the_model_counts_each_round_trip() -> None:
    """460 round trips at 0.1 ms add 46 ms to the 70 ms of instructions and 62 ms of serving;
    a run that cost that is the model, one that cost the model without them is not."""
    rates = Rates(PER_SECOND, trip=0.1e-3, serving=0.5e-3)
    m = model(SERVED, rates, 12_000)
    assert m["round trips"] * 1000 == pytest.approx(46)
    assert m["cpu"] * 1000 == pytest.approx(70 + 46 + 62)
    run = run_of(bare_ms=124, minute_ms=178, minutes=150)
    assert compare(run, SERVED, rates, 1.0, m, 12_000) == pytest.approx(1.0)
    short = run_of(bare_ms=124, minute_ms=132, minutes=150)
    assert compare(short, SERVED, rates, 1.0, m, 12_000) == pytest.approx(132 / 178)


def test_a_run_that_costs_what_the_bare_stack_says_is_the_model() -> None:
    """Each of our 124 requests pays the bare stack's serving (0.5 ms) beside our minute's
    70 ms of instructions: 132 ms a table-minute."""
    rates = Rates(PER_SECOND, serving=0.5e-3)
    minute_ms = 280e6 / PER_SECOND * 1000 + 124 * rates.serving * 1000
    m = model(COSTS, rates, 12_000)
    assert m["cpu"] * 1000 == pytest.approx(minute_ms)
    assert m["workers"] == 27 and m["connections"] == 27 * 8  # 26.4 cores
    run = run_of(bare_ms=124, minute_ms=minute_ms, minutes=150)
    assert compare(run, COSTS, rates, 1.0, m, 12_000) == pytest.approx(1.0)
    dearer = run_of(bare_ms=124, minute_ms=minute_ms * 1.3, minutes=150)
    assert compare(dearer, COSTS, rates, 1.0, m, 12_000) == pytest.approx(1.3)


def test_spread_over_processes_multiplies_the_apps_instructions_not_the_rest() -> None:
    """Twice the app's 70 ms (a change's next requests deriving again in each process), the
    same 46 ms of round trips and 62 ms of serving: 248 ms a table-minute."""
    rates = Rates(PER_SECOND, trip=0.1e-3, serving=0.5e-3)
    minute_ms = 2 * 70 + 46 + 62
    m = model(SERVED, rates, 12_000, spread=2.0)
    assert m["cpu"] * 1000 == pytest.approx(minute_ms)
    run = run_of(bare_ms=124, minute_ms=minute_ms, minutes=150)
    assert compare(run, SERVED, rates, 2.0, m, 12_000) == pytest.approx(1.0)


def test_a_run_of_two_layouts_is_a_run_each_and_affinity_spreads_nothing() -> None:
    """The recipe's layout (each game on one process) is modelled without spread; the round
    robin one played in the same run with the spread measured over its workers, beside the
    same bare stack."""
    first = run_of(bare_ms=124, minute_ms=132, minutes=150) | {"affinity": True}
    second = run_of(bare_ms=124, minute_ms=202, minutes=150) | {"affinity": False}
    saved = first | {f"round-robin {k}": v for k, v in second.items() if "bare" not in k}
    affinity, round_robin = layouts(saved)
    assert affinity.items() >= first.items() and round_robin.items() >= second.items()
    spread = {4: 1.5, 16: 1.9}
    assert [spread_of(run, spread) for run in (affinity, round_robin)] == [1.0, 1.5]


def test_closed_connections_count_within_the_window_only() -> None:
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        for _ in range(3):
            client = socket.create_connection(("127.0.0.1", port))
            accepted, _ = listening.accept()
            client.close()  # the connecting side closes first: its socket waits in TIME_WAIT
            time.sleep(0.05)
            accepted.close()
        time.sleep(0.2)
        assert closed_to([port], 30) == 3
        assert closed_to([port], 0.01) == 0  # closed before the last 10 ms
        assert closed_to([port + 1], 30) == 0


class Phone:
    """A phone that answers every request 200 and notes what it asked."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, method: str, path: str, *_: Any) -> tuple[int, bytes, float]:
        self.sent.append(f"{method} {path}")
        return 200, b"", 0.0


def _run(work: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine to its end on a thread of its own: a browser test before this one on
    the same worker leaves Playwright's event loop running on the main thread, where
    asyncio.run refuses to start another."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, work).result()


def test_the_bare_minute_reads_its_page_once_a_phone_after_a_change() -> None:
    """As the cost table's bare table-minute: a row posted, then each phone's next poll reads
    /page in place of the static page, and the one after is static again."""
    phones = [Phone() for _ in range(2)]
    table = Table("/scores", phones)  # type: ignore[arg-type]
    kind = Baseline(minute=True)
    _run(kind.open(table))
    poll, _, change = (act for _, _, act in kind.acts(table, Samples()))

    async def play() -> None:
        for act in (poll, change, poll, poll):
            await act(0.0)

    _run(play())
    assert phones[0].sent == [
        "GET /scores/static-page",
        "POST /scores/items",
        "GET /scores/page",
        "GET /scores/static-page",
    ]


def test_the_rates_are_the_native_minutes_of_a_runs_window() -> None:
    """The SQLite minute's 248 M instructions in 62 ms: 4 G a second; the PostgreSQL minute's
    280 M (70 ms) played in 116 ms: 46 ms over its 460 round trips. A run that played no native
    minutes in its window says so (None), and its rates are measured at report time."""
    sqlite = {"database": "sqlite", "ours": {MINUTE: {"instructions": 248e6}}}
    run = {"native sqlite cpu": 0.062, "native postgresql cpu": 0.116}
    run |= {"bare native sqlite cpu": 0.124, "bare native postgresql cpu": 0.200}
    window = window_of(run)
    assert window is not None
    assert rates_of(window, sqlite, SERVED, "ours") == pytest.approx(Rates(PER_SECOND, 0.1e-3))
    bare = window_of(run, "bare ")
    assert bare is not None and rates_of(bare, sqlite, SERVED, "bare").per_second == 2e9
    assert window_of({"servers cpu": 1.0}) is None


def test_a_run_is_modelled_by_the_cost_table_counted_as_it_served() -> None:
    """The version map's table with the rate limits on Redis for the recipe's run; without
    them for a probe that kept them in the file."""
    plain = {"database": "postgresql", "version_map": False, "rate_limits": False}
    mapped = {"database": "postgresql", "version_map": True, "rate_limits": False}
    recipe = {"database": "postgresql", "version_map": True, "rate_limits": True}
    costs = [COSTS, plain, recipe, mapped]
    assert served_costs(costs) is recipe
    assert served_costs(costs, {"version_map": 1, "rate_limits": 1}) is recipe
    assert served_costs(costs, {"version_map": 1, "rate_limits": 0}) is mapped
    assert served_costs([COSTS]) is None
    assert named(recipe) == "postgresql + version map, rate limits on Redis"
