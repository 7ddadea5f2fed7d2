"""The attacks' figures for the CI log: requests fuzzed, server errors, writes kept."""

from __future__ import annotations

from collections import Counter

import pytest

FIGURES: Counter[str] = Counter()  # filled by the attack tests, printed after the run


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print what the attacks sent and what they found, one line each."""
    for attack in sorted({name.split(":")[0] for name in FIGURES}):
        figures = ", ".join(
            f"{name.split(':', 1)[1]}: {count}"
            for name, count in sorted(FIGURES.items())
            if name.startswith(f"{attack}:")
        )
        terminalreporter.write_line(f"{attack}: {figures}")
