"""CPU seconds that chosen processes spend, read from /proc (Linux), so a run on a shared,
loaded machine is measured by the work its own processes did rather than by wall time."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

PROC = Path("/proc")
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of one process so far; None once it is gone."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()  # the name may hold spaces
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def pids_where(test: Callable[[int], bool]) -> list[int]:
    """Every process for which test(pid) holds (unreadable ones are skipped)."""
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                if test(int(entry.name)):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def with_environment(name: str, value: str) -> Callable[[int], bool]:
    """A test: the process was started with this environment variable (so its children too)."""
    wanted = f"{name}={value}".encode()
    return lambda pid: wanted in (PROC / str(pid) / "environ").read_bytes().split(b"\0")


def with_argument(text: str) -> Callable[[int], bool]:
    """A test: one of the process's arguments holds text."""
    return lambda pid: text.encode() in (PROC / str(pid) / "cmdline").read_bytes()


def with_descendants(pids: Iterable[int]) -> list[int]:
    """These processes and every process they started, and those started, and so on."""
    parents = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    family = set(pids)
    while more := {pid for pid, parent in parents.items() if parent in family} - family:
        family |= more
    return sorted(family)


class Spent:
    """CPU seconds a set of processes spends between start() and stop(): processes that exist
    at the start, and any found at the stop (counted whole: they began within the window)."""

    def __init__(self, find: Callable[[], Iterable[int]]) -> None:
        self.find = find
        self.before: dict[int, float] = {}
        self.seconds = 0.0
        self.processes = 0

    def start(self) -> None:
        self.before = {pid: s for pid in self.find() if (s := cpu_seconds(pid)) is not None}

    def stop(self) -> None:
        after = {
            pid: s for pid in {*self.before, *self.find()} if (s := cpu_seconds(pid)) is not None
        }
        self.seconds = sum(s - self.before.get(pid, 0.0) for pid, s in after.items())
        self.processes = len(after)
