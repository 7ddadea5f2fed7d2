"""bench/process_cpu.py reads the CPU a process spent, and finds a run's processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from process_cpu import Spent, pids_where, with_descendants, with_environment

# 0.3 s of CPU, then says so and waits: its CPU is read while it still runs.
BUSY = "import time\nwhile time.process_time() < 0.3: pass\nprint('spent', flush=True)\ninput()"


def test_spent_counts_a_childs_cpu_found_by_its_environment() -> None:
    marker = f"probe-{os.getpid()}"
    env = {**os.environ, "BENCH_PROBE": marker}
    spent = Spent(lambda: pids_where(with_environment("BENCH_PROBE", marker)))
    spent.start()  # before the child: its whole CPU counts
    child = subprocess.Popen(
        [sys.executable, "-c", BUSY], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == b"spent\n"
        spent.stop()
        assert child.pid in with_descendants([os.getpid()])
    finally:
        child.communicate(b"\n", timeout=30)
    assert spent.processes == 1
    assert 0.25 <= spent.seconds < 5  # its CPU (read in clock ticks), not the machine's
