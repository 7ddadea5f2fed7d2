"""Line-chart geometry: every point inside the box, zero at the bottom, a round top."""

from __future__ import annotations

from scorekeeper.pages.charts import (
    BOTTOM,
    HEIGHT,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    running_chart,
    totals_chart,
)


def test_running_totals_start_at_zero_and_end_at_the_right_edge() -> None:
    chart = running_chart(["Anna", "Ben"], [(0, 10), (25, 10), (25, 60)])
    anna, ben = chart.lines
    assert [label for _x, label in chart.x_labels] == ["0", "1", "2", "3"]
    assert anna.dots[0] == (LEFT, HEIGHT - BOTTOM) and anna.dots[-1][0] == WIDTH - RIGHT
    assert ben.dots[-1][1] < anna.dots[-1][1]  # 60 is drawn higher than 25
    assert [value for _y, value in chart.y_ticks] == [0, 20, 40, 60, 80]
    assert (anna.series, ben.series) == (0, 1)


def test_every_point_stays_inside_the_box_for_large_totals() -> None:
    chart = totals_chart([1234, 5, 980])
    top = max(value for _y, value in chart.y_ticks)
    assert top >= 1234 and top % 4 == 0
    for x, y in chart.lines[0].dots:
        assert LEFT <= x <= WIDTH - RIGHT and TOP <= y <= HEIGHT - BOTTOM


def test_no_games_draws_nothing() -> None:
    assert totals_chart([]).empty
