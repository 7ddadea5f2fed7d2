"""The CPU a table-minute costs played natively, for bench/capacity.py's rates: the SQLite
table-minute (its instructions a CPU second) and the PostgreSQL one as the recipe serves it
(its round trips' CPU beyond their instructions), in turn, in one child process with the cost
table's hash seed, so the machine's load falls on both alike.

bench/proxy_tables.py plays them during a run's measured window, spread over it (`--pace`),
so the rates are the window's: the same cores, the same load, the same cold caches; the
SQLite minute and the PostgreSQL one each take a tenth of a second or so, a few percent of a
core over the window. bench/capacity.py plays them at once when a run did not.

Run (as the child): python bench/native_minutes.py MINUTES POSTGRESQL_URL [--pace SECONDS]
[--wait] with the PostgreSQL app's settings in NATIVE_SETTINGS (JSON); prints the median CPU
seconds of each (SQLite, PostgreSQL), after "ready" and a line on stdin with --wait.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

SETTINGS = "NATIVE_SETTINGS"  # the PostgreSQL app's SCOREKEEPER_* settings, as JSON
NAMES = ("sqlite", "postgresql")


def recipe_settings(redis_url: str, version_map: bool, rate_limits: bool) -> dict[str, str]:
    """The PostgreSQL app's settings for a table-minute counted with the version map and the
    rate limits on Redis, or either (request_costs.app_on gives each app its own keys)."""
    settings = {}
    if version_map:
        settings["SCOREKEEPER_VERSION_MAP_URL"] = redis_url
    if rate_limits:
        settings["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = redis_url
    return settings


@dataclass
class Native:
    """A child playing the two table-minutes: started, told to go, its medians read."""

    process: subprocess.Popen[str]

    @classmethod
    def start(cls, minutes: int, url: str, settings: dict[str, str], pace: float = 0.0) -> Native:
        """The child, its apps set up and warm, waiting for go()."""
        command = [sys.executable, __file__, str(minutes), url, "--pace", str(pace), "--wait"]
        env = {**os.environ, SETTINGS: json.dumps(settings), "PYTHONHASHSEED": "0"}
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        return cls(process)

    def go(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def medians(self) -> dict[str, float]:
        """The median CPU seconds of each table-minute, by database."""
        out, _ = self.process.communicate(timeout=600)
        if self.process.returncode != 0:
            raise SystemExit(f"native table-minutes failed ({self.process.returncode})")
        return dict(zip(NAMES, map(float, out.split()), strict=True))


def play(minutes: int, url: str, settings: dict[str, str], pace: float, wait: bool) -> None:
    """Set up the SQLite app, then the PostgreSQL one with `settings`; after a warm minute
    each (and a line on stdin, if `wait`), play `minutes` of each in turn, a pair every
    pace ÷ minutes seconds; print the median CPU seconds (time.process_time) of each."""
    from cost_table import MINUTE, our_steps
    from request_costs import ROOT, app_on

    for name in settings:  # the SQLite app is made as the cost table made it: without them
        os.environ.pop(name, None)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-native-") as folder:
        minute = [our_steps(app_on(ROOT, f"sqlite:///{Path(folder) / 'native.db'}")[0])[MINUTE]]
        os.environ.update(settings)  # read as the app is made: the SQLite app has none
        minute.append(our_steps(app_on(ROOT, url)[0])[MINUTE])
        spent: list[list[float]] = [[], []]

        def counted(kept: list[float]) -> Callable[[Callable[[], Any]], Any]:
            def count(work: Callable[[], Any]) -> Any:
                started = time.process_time()
                done = operator.call(work)
                kept.append(time.process_time() - started)
                return done

            return count

        for each in minute:
            each(0, lambda work: work())
        if wait:
            print("ready", flush=True)
            sys.stdin.readline()
        started = time.monotonic()
        for i in range(1, minutes + 1):
            for each, kept in zip(minute, spent, strict=True):
                each(i, counted(kept))
            time.sleep(max(0.0, started + i * pace / minutes - time.monotonic()))
    print(*(statistics.median(kept) for kept in spent))


def main() -> None:
    """The child: play and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("minutes", type=int)
    parser.add_argument("url", help="a migrated or empty PostgreSQL database")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds the pairs spread over")
    parser.add_argument("--wait", action="store_true", help="play after a line on stdin")
    args = parser.parse_args()
    settings = json.loads(os.environ.get(SETTINGS, "{}"))
    play(args.minutes, args.url, settings, args.pace, args.wait)


if __name__ == "__main__":
    main()
