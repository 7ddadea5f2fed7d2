"""The attacks' figures for the CI log: requests fuzzed, server errors, writes kept.

A figure is named "attack:figure"; each is printed after the run as one line per attack.
Under pytest-xdist every worker counts its own and the controller adds them up (a figure
named "largest …" is a maximum, so it takes the largest instead).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

FIGURES: Counter[str] = Counter()  # filled by the attack tests, printed after the run


def merge(worker: Mapping[str, int]) -> None:
    """Add one worker's figures to this process's."""
    for name, value in worker.items():
        largest = name.split(":", 1)[-1].startswith("largest")
        FIGURES[name] = max(FIGURES[name], value) if largest else FIGURES[name] + value


def lines() -> list[str]:
    """One line per attack: its figures, by name."""
    return [
        f"{attack}: "
        + ", ".join(
            f"{name.split(':', 1)[1]}: {count}"
            for name, count in sorted(FIGURES.items())
            if name.startswith(f"{attack}:")
        )
        for attack in sorted({name.split(":")[0] for name in FIGURES})
    ]
