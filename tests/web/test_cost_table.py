"""`make bench`'s cost table is produced: every row, ours beside the bare app (no callgrind)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
import cost_table

from tests.web.test_version_map import REDIS, redis_up


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, dict[str, float]]]:
    """Each app's rows, one counted step a row, in this process on SQLite."""
    folder = tmp_path_factory.mktemp("costs")
    return {
        side: cost_table.measure(side, f"sqlite:///{folder / side}.db", requests=1)
        for side in ("ours", "bare")
    }


def test_every_row_is_measured_on_both_apps(
    sides: dict[str, dict[str, dict[str, float]]],
) -> None:
    for figures in sides.values():
        assert list(figures) == list(cost_table.ROWS)
    assert sides["bare"]["unchanged poll of a game page"]["statements"] == 0  # the static page
    buy = sides["bare"]["API buy + take-back (per request)"]
    assert (buy["statements"], buy["transactions"]) == (2, 1)  # a row and its history, at once
    assert sides["ours"]["unchanged poll of a game page"]["statements"] >= 1


@pytest.mark.storage
def test_a_table_minute_reaches_the_database_once_a_poll(database_url: str) -> None:
    """124 requests: every poll's fast-path read its own transaction, one more for each of the
    16 requests that change something or follow a change (bench/capacity.py's figures)."""
    minute = cost_table.measure("ours", database_url, requests=1)[cost_table.MINUTE]
    assert minute["requests"] == 124  # 4 phones × 30 polls, 4 taps
    assert minute["poll_reads"] == 120
    assert minute["transactions"] == 120 + 4 + 3 * 4  # the taps; each watcher's poll after one


@pytest.mark.storage
def test_with_the_version_map_a_table_minutes_polls_never_reach_the_database(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the 16 requests that change something or follow a change: 2,667 transactions a
    second for 10,000 tables (bench/capacity.py)."""
    if not redis_up(REDIS):
        pytest.skip(f"no Redis at {REDIS}: the version map's table-minute is not measured")
    monkeypatch.setenv("SCOREKEEPER_VERSION_MAP_URL", REDIS)  # as --version-map sets it
    minute = cost_table.measure("ours", database_url, requests=1)[cost_table.MINUTE]
    assert minute["requests"] == 124
    assert minute["poll_reads"] == 0
    assert minute["transactions"] == 4 + 3 * 4


def test_the_table_gives_each_row_its_ratio(
    sides: dict[str, dict[str, dict[str, float]]],
) -> None:
    ours, bare = (
        {row: cost_table.Side(None, figures["statements"]) for row, figures in f.items()}
        for f in sides.values()
    )
    assert "| ours | bare | ratio |" in cost_table.table(ours, bare)
    ours["score sheet"] = cost_table.Side(4e6, 1)
    bare["score sheet"] = cost_table.Side(2e6, 1)
    lines = cost_table.table(ours, bare).splitlines()
    header = (
        "| request | ours | bare | ratio | statements (ours / bare) | transactions (ours / bare) |"
    )
    assert lines[0] == header
    assert len(lines) == 2 + len(cost_table.ROWS)
    assert "| score sheet | 4 M | 2 M | **0.50** | 1 / 1 | 0 / 0 |" in lines
    assert lines[2].startswith("| unchanged poll of a game page | - | - | - | ")


@pytest.mark.storage
def test_with_rate_limits_on_redis_every_request_makes_its_round_trips_there(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the proxy recipe serves: each request reads the link-miss limits' two windows, and an
    unchanged poll the version map's entry besides; 400 round trips to Redis a table-minute,
    which bench/capacity.py prices (none counted when both stay off Redis)."""
    if not redis_up(REDIS):
        pytest.skip(f"no Redis at {REDIS}: the rate limits' round trips are not measured")
    off = cost_table.measure("ours", database_url, requests=1)
    assert off[cost_table.MINUTE]["redis_trips"] == 0
    monkeypatch.setenv("SCOREKEEPER_VERSION_MAP_URL", REDIS)  # as --version-map sets it
    monkeypatch.setenv("SCOREKEEPER_RATELIMIT_STORAGE_URI", REDIS)  # as --rate-limits sets it
    found = cost_table.measure("ours", database_url, requests=1)
    assert found["unchanged poll of a game page"]["redis_trips"] == 3
    assert found["score sheet"]["redis_trips"] == 2
    assert found[cost_table.MINUTE]["redis_trips"] == 400
