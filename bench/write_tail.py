"""The write tail: 8 phones writing at once, on one game and on 8 games, beside the bare stack.

For SQLite and PostgreSQL it serves this tree and bench/baseline.py (waitress, 8 threads, each
on its own scratch database) and runs interleaved batches, the order flipped each pair: every
phone (its own keep-alive connection, released together) taps Buy and takes it back through
the API, on one shared game or on a game of its own; the baseline's phones insert a row each.
Prints each side's p50 and p99 per write, and the errors (any answer but the expected one).

Run: .venv/bin/python bench/write_tail.py [--pairs 4] [--writes 20] [--databases sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from client import HX, Client
from run import ADMIN_URL, PLAYERS, postgres_reachable, scratch_databases, serving

PHONES = 8
TARGET_P99_MS = 100.0
Write = Callable[[Client, int], tuple[float, bool]]


def new_game(port: int) -> tuple[int, str]:
    """A game of May I? with unlimited buys for 8 players; its id and edit link."""
    created = Client(port).post_json(
        "/api/v1/games", {"ruleset": "unlimited-buys", "players": PLAYERS, "first_dealer": 0}
    )
    assert created.status == 201, created.body[:300]
    game = json.loads(created.body)
    return int(game["id"]), str(game["links"]["edit_token"])


def buys_on(games: list[tuple[int, str]]) -> Callable[[int], Write]:
    """Phone `n`'s write: a buy for its own seat and the buy taken back, on its game."""

    def phone(number: int) -> Write:
        game_id, token = games[number % len(games)]
        api = f"/api/v1/games/{game_id}/buys"

        def write(client: Client, index: int) -> tuple[float, bool]:
            taken = index % 2 == 1
            answer = client.post_json(api + ("/remove" if taken else ""), {"seat": number}, token)
            return answer.seconds, answer.status == (200 if taken else 201)

        return write

    return phone


def inserts(_number: int) -> Write:
    """A baseline phone's write: one row inserted, answered as a fragment."""

    def write(client: Client, index: int) -> tuple[float, bool]:
        answer = client.post_form("/items", {"text": f"item{index}"}, HX)
        return answer.seconds, answer.status == 200

    return write


def batch(port: int, phone: Callable[[int], Write], writes: int) -> tuple[list[float], int]:
    """Every phone's `writes` writes, all phones released together; seconds and errors."""
    clients = [Client(port) for _ in range(PHONES)]
    start = threading.Barrier(PHONES)
    seconds: list[list[float]] = [[] for _ in range(PHONES)]
    errors = [0] * PHONES

    def run(number: int) -> None:
        write = phone(number)
        start.wait()
        for index in range(writes):
            spent, ok = write(clients[number], index)
            seconds[number].append(spent)
            errors[number] += not ok

    threads = [threading.Thread(target=run, args=(n,)) for n in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [s for each in seconds for s in each], sum(errors)


def percentile(samples: list[float], share: float) -> float:
    """A percentile of the samples, in ms."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


def run_database(kind: str, args: argparse.Namespace) -> None:
    """Both scenarios on one database kind, each interleaved with the baseline."""
    with (
        scratch_databases(kind, ["after", "baseline"], args.postgres_url) as urls,
        ExitStack() as s,
    ):
        ours = s.enter_context(serving("after", "scorekeeper", urls["after"], None))
        base = s.enter_context(serving("baseline", "baseline", urls["baseline"], None))
        shared = [new_game(ours.port)]
        scenarios = {
            "one game": buys_on(shared),
            "8 games": buys_on([new_game(ours.port) for _ in range(PHONES)]),
        }
        print(f"\n## {kind}: {PHONES} phones at once, {args.writes} writes each per batch\n")
        print(
            "| writes | ours p50 ms | ours p99 ms | bare p50 ms | bare p99 ms | errors | target |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for name, phone in scenarios.items():
            batch(ours.port, phone, 4)  # warm up both
            batch(base.port, inserts, 4)
            mine: list[float] = []
            theirs: list[float] = []
            errors = 0
            for pair in range(args.pairs):
                sides = [(mine, ours.port, phone), (theirs, base.port, inserts)]
                for samples, port, write in sides if pair % 2 == 0 else sides[::-1]:
                    spent, failed = batch(port, write, args.writes)
                    samples.extend(spent)
                    errors += failed
            cells = [percentile(mine, 0.5), percentile(mine, 0.99)]
            cells += [percentile(theirs, 0.5), percentile(theirs, 0.99)]
            shown = " | ".join(f"{cell:.1f}" for cell in cells)
            met = "met" if cells[1] <= TARGET_P99_MS else "MISSED"
            print(f"| {name} | {shown} | {errors} | p99 ≤ {TARGET_P99_MS:.0f} ms: {met} |")
            print(
                f"  ({len(mine)} writes ours, {len(theirs)} bare; mean ratio bare/ours "
                f"{statistics.fmean(theirs) / statistics.fmean(mine):.2f}×)",
                flush=True,
            )


def main() -> None:
    """Measure the write tail on every database asked for."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--writes", type=int, default=20, help="writes per phone per batch")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--postgres-url", default=ADMIN_URL, help="an admin URL to make dbs")
    args = parser.parse_args()
    os.environ["SCOREKEEPER_ACCESS_LOG"] = "false"  # the bare stack writes none either
    for kind in args.databases.split(","):
        if kind == "postgresql" and not postgres_reachable(args.postgres_url):
            print("PostgreSQL not reachable; skipped")
            continue
        run_database(kind, args)


if __name__ == "__main__":
    main()
