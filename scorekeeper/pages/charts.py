"""Line charts as geometry for an SVG template: no script, no inline style, classes only.

The numbers come from the rules engine (running totals, a person's totals); this only
places them in a 320 × 180 box, which scales down to a 390 px phone without losing labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 8, 22  # room for the axis labels
TICKS = 4


@dataclass(frozen=True)
class Line:
    """One player's line: the polyline's points and where its last point sits."""

    label: str
    points: str
    dots: tuple[tuple[float, float], ...]
    series: int  # picks the colour class series-N


@dataclass(frozen=True)
class Chart:
    """A chart ready to draw: lines, the y-axis ticks and the x-axis labels."""

    lines: tuple[Line, ...]
    y_ticks: tuple[tuple[float, int], ...]  # (y, value)
    x_labels: tuple[tuple[float, str], ...]  # (x, label)
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def empty(self) -> bool:
        """Nothing to draw yet."""
        return not any(line.dots for line in self.lines)


def line_chart(
    labels: Sequence[str], x_labels: Sequence[str], values: Sequence[Sequence[int]]
) -> Chart:
    """Lines of values (one per label), each value at the x of its x label, from 0 upwards."""
    top = _nice_top(max((v for row in values for v in row), default=0))
    steps = max(len(x_labels) - 1, 1)
    x_of = [LEFT + (WIDTH - LEFT - RIGHT) * i / steps for i in range(len(x_labels))]

    def y_of(value: int) -> float:
        return round(HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * value / top, 1)

    lines = []
    for series, (label, row) in enumerate(zip(labels, values, strict=True)):
        dots = tuple((round(x_of[i], 1), y_of(v)) for i, v in enumerate(row))
        lines.append(Line(label, " ".join(f"{x},{y}" for x, y in dots), dots, series % 8))
    ticks = tuple((y_of(top * i // TICKS), top * i // TICKS) for i in range(TICKS + 1))
    return Chart(tuple(lines), ticks, tuple(zip(x_of, x_labels, strict=True)))


def running_chart(names: Sequence[str], running: Sequence[Sequence[int]]) -> Chart:
    """A game's running totals: one line per player, one point per round, from 0 before round 1."""
    labels = ["0", *(str(n) for n in range(1, len(running) + 1))]
    values = [[0, *(row[seat] for row in running)] for seat in range(len(names))]
    return line_chart(names, labels, values)


def totals_chart(totals: Sequence[int]) -> Chart:
    """A person's total in each of their games, oldest first."""
    return line_chart([""], [str(n) for n in range(1, len(totals) + 1)], [list(totals)])


def _nice_top(largest: int) -> int:
    """A round top for the y axis that divides into even ticks."""
    step = 10
    while largest > step * TICKS * 5:
        step *= 5 if str(step)[0] == "1" else 2
    return max(TICKS * step, -(-largest // (TICKS * step)) * TICKS * step)
