"""The write tail: 8 phones writing at once, on one game and on 8 games, beside the bare stack.

For SQLite and PostgreSQL it serves this tree and bench/baseline.py (waitress, 8 threads, each
on its own scratch database) and runs interleaved batches, the order flipped each pair: every
phone (its own keep-alive connection, released together) taps Buy and takes it back through
the API, on one shared game or on a game of its own; the baseline's phones insert a row each.
Prints each side's p50 and p99 per write as the server's own time (bench/serve.py's
Bench-Server-Ms: the request from the app's call to its answer, the wait for the game's lock
and its hold included, the load generator's own delays not), the client's p99 beside it, and
the errors (any answer but the expected one). One process serves each app, so its writers take
turns in arrival order (scorekeeper/write_turns.py: SQLite's, and each game's on PostgreSQL);
across processes (gunicorn's workers) the database's own lock still decides who writes next.

Run: .venv/bin/python bench/write_tail.py [--pairs 4] [--writes 20] [--databases sqlite,postgresql]
[--source PATH] (ours from another checkout's `scorekeeper`, for a before/after run)
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
from client import HX, Answer, Client
from run import ADMIN_URL, PLAYERS, postgres_reachable, scratch_databases, serving
from serve import SERVER_TIME

PHONES = 8
TARGET_P99_MS = 100.0
Write = Callable[[Client, int], tuple[Answer, bool]]


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

        def write(client: Client, index: int) -> tuple[Answer, bool]:
            taken = index % 2 == 1
            answer = client.post_json(api + ("/remove" if taken else ""), {"seat": number}, token)
            return answer, answer.status == (200 if taken else 201)

        return write

    return phone


def inserts(_number: int) -> Write:
    """A baseline phone's write: one row inserted, answered as a fragment."""

    def write(client: Client, index: int) -> tuple[Answer, bool]:
        answer = client.post_form("/items", {"text": f"item{index}"}, HX)
        return answer, answer.status == 200

    return write


Times = tuple[list[float], list[float]]  # seconds a write: the server's own, the client's


def batch(port: int, phone: Callable[[int], Write], writes: int) -> tuple[Times, int]:
    """Every phone's `writes` writes, all phones released together; their times and errors."""
    clients = [Client(port) for _ in range(PHONES)]
    start = threading.Barrier(PHONES)
    seconds: list[list[tuple[float, float]]] = [[] for _ in range(PHONES)]
    errors = [0] * PHONES

    def run(number: int) -> None:
        write = phone(number)
        start.wait()
        for index in range(writes):
            answer, ok = write(clients[number], index)
            own = float(answer.headers.get(SERVER_TIME.title(), "nan")) / 1000
            seconds[number].append((own, answer.seconds))
            errors[number] += not ok

    threads = [threading.Thread(target=run, args=(n,)) for n in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    pairs = [pair for each in seconds for pair in each]
    return ([own for own, _ in pairs], [whole for _, whole in pairs]), sum(errors)


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
        ours = s.enter_context(serving("after", "scorekeeper", urls["after"], args.source))
        base = s.enter_context(serving("baseline", "baseline", urls["baseline"], None))
        shared = [new_game(ours.port)]
        scenarios = {
            "one game": buys_on(shared),
            "8 games": buys_on([new_game(ours.port) for _ in range(PHONES)]),
        }
        print(f"\n## {kind}: {PHONES} phones at once, {args.writes} writes each per batch\n")
        print(f"load average {os.getloadavg()[0]:.1f}; the server's own time a write, ms\n")
        print(
            "| writes | ours p50 | ours p99 | bare p50 | bare p99 | client p99 ours / bare "
            "| errors | target |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for name, phone in scenarios.items():
            batch(ours.port, phone, 4)  # warm up both
            batch(base.port, inserts, 4)
            mine: Times = ([], [])
            theirs: Times = ([], [])
            errors = 0
            for pair in range(args.pairs):
                sides = [(mine, ours.port, phone), (theirs, base.port, inserts)]
                for samples, port, write in sides if pair % 2 == 0 else sides[::-1]:
                    spent, failed = batch(port, write, args.writes)
                    for kept, new in zip(samples, spent, strict=True):
                        kept.extend(new)
                    errors += failed
            cells = [percentile(mine[0], 0.5), percentile(mine[0], 0.99)]
            cells += [percentile(theirs[0], 0.5), percentile(theirs[0], 0.99)]
            shown = " | ".join(f"{cell:.1f}" for cell in cells)
            client = f"{percentile(mine[1], 0.99):.1f} / {percentile(theirs[1], 0.99):.1f}"
            met = "met" if cells[1] <= TARGET_P99_MS else "MISSED"
            print(
                f"| {name} | {shown} | {client} | {errors} | p99 ≤ {TARGET_P99_MS:.0f} ms: {met} |"
            )
            print(
                f"  ({len(mine[0])} writes ours, {len(theirs[0])} bare; mean ratio bare/ours "
                f"{statistics.fmean(theirs[0]) / statistics.fmean(mine[0]):.2f}×)",
                flush=True,
            )


def main() -> None:
    """Measure the write tail on every database asked for."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--writes", type=int, default=20, help="writes per phone per batch")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--postgres-url", default=ADMIN_URL, help="an admin URL to make dbs")
    parser.add_argument("--source", type=Path, help="a checkout to serve ours from")
    args = parser.parse_args()
    os.environ["SCOREKEEPER_ACCESS_LOG"] = "false"  # the bare stack writes none either
    # Each run starts 9 games: runs back to back (before/after) would meet the creation limit.
    os.environ["SCOREKEEPER_RATELIMIT_NEW_GAMES"] = "100000 per minute"
    for kind in args.databases.split(","):
        if kind == "postgresql" and not postgres_reachable(args.postgres_url):
            print("PostgreSQL not reachable; skipped")
            continue
        run_database(kind, args)


if __name__ == "__main__":
    main()
