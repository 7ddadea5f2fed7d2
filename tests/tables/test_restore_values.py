"""A restore refuses any value the app could not keep or read back, with the reason, at 422.

Before: a backup nested 100,000 deep was a server error; a time PostgreSQL stores but Python
cannot read (year 0 once in UTC) was restored, and every page of that table answered 500 for
good; NUL in a name, huge numbers and wrong types were stored, or refused as a fact "twice".
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.tables.backups import (
    backup_of,
    encoded,
    nothing_stored,
    scratch_client,
    upload,
)
from tests.tables.helpers import BEN_WINS, open_table, play, start_at
from tests.web.test_games import text

pytestmark = pytest.mark.storage

Backup = dict[str, Any]


@pytest.fixture(scope="module")
def made(sqlite_migrated: Path, tmp_path_factory: pytest.TempPathFactory) -> Backup:
    """A table's backup with one finished game and a buy, made once on a scratch database."""
    with scratch_client(sqlite_migrated, tmp_path_factory.mktemp("made")) as (_, client):
        url = open_table(client)
        game = start_at(client, url, ["Anna", "Ben", "Carla", "Dan"])
        game.buy("Ben")
        play(game, BEN_WINS)
        return backup_of(client, url)


@pytest.fixture
def backup(app: Flask, made: Backup) -> Backup:
    """The backup, this test's own copy, for the test's empty installation."""
    return copy.deepcopy(made)


def changed(backup: Backup, change: Callable[[Backup], object]) -> bytes:
    """The backup with one change made to a copy of it."""
    copied = copy.deepcopy(backup)
    change(copied)
    return encoded(copied)


def first_round(backup: Backup) -> Backup:
    round_: Backup = backup["games"][0]["rounds"][0]
    return round_


def refused(client: FlaskClient, data: bytes, reason: str) -> None:
    """The file is refused at the upload's field with the reason, and nothing is stored."""
    response = upload(client, data)
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    assert reason in page, page
    assert 'class="error"' in response.get_data(as_text=True)


def test_a_backup_nested_100000_deep_is_refused(app: Flask, client: FlaskClient) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    data = b'{"format": "scorekeeper-table-backup", "version": 1, "table": ' + deep + b"}"
    refused(client, data, "This file is nested too deeply to be a backup.")
    assert nothing_stored(app)


def test_rules_nested_deep_are_refused(app: Flask, client: FlaskClient, backup: Backup) -> None:
    nested: Any = []
    for _ in range(900):
        nested = [nested]
    data = changed(backup, lambda b: b["games"][0]["rules"].update(extra=nested))
    refused(client, data, "Its rules are refused at extra: Unknown setting.")
    assert nothing_stored(app)


@pytest.mark.parametrize(
    "moment",
    [
        "0001-01-01T00:00:00+05:00",  # year 0 in UTC: PostgreSQL keeps it, Python cannot read it
        "9999-12-31T23:59:59-05:00",  # year 10000 in UTC
        "1969-12-31T23:59:59Z",
        "3000-01-01T00:00:00Z",
    ],
)
@pytest.mark.parametrize(
    ("where", "place"),
    [
        ("games.0.created_at", lambda b: b["games"][0]),
        ("players.1.created_at", lambda b: b["players"][1]),
        ("games.0.rounds.0.buys.0.created_at", lambda b: first_round(b)["buys"][0]),
        ("games.0.changes.0.created_at", lambda b: b["games"][0]["changes"][0]),
        ("table.created_at", lambda b: b["table"]),
    ],
)
def test_a_time_outside_what_every_database_reads_back_is_refused(
    app: Flask,
    client: FlaskClient,
    backup: Backup,
    moment: str,
    where: str,
    place: Callable[[Backup], Backup],
) -> None:
    data = changed(backup, lambda b: place(b).update(created_at=moment))
    refused(client, data, f"The backup is refused at {where}: Must be a time from 1970 to 2999.")
    assert nothing_stored(app)


def test_a_time_in_another_zone_is_kept_as_the_same_moment(
    app: Flask, client: FlaskClient, backup: Backup
) -> None:
    backup["games"][0]["created_at"] = "2026-03-01T23:30:00-05:00"
    response = upload(client, encoded(backup))
    assert response.status_code == 303
    exported = backup_of(client, response.headers["Location"])
    assert exported["games"][0]["created_at"] == "2026-03-02T04:30:00Z"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            lambda b: b["players"][0].update(name="An\x00na"),
            "The backup is refused at players.0.name: Use only visible letters",
        ),
        (
            lambda b: b["players"][0].update(name="Anna\u202e"),
            "The backup is refused at players.0.name: Use only visible letters",
        ),
        (
            lambda b: b["players"][0].update(name="  Anna  "),
            "The backup is refused at players.0.name: The app keeps this name as “Anna”.",
        ),
        (
            lambda b: b["table"].update(name="Thursday\x00club"),
            "The backup is refused at table.name: Use only visible letters",
        ),
        (
            lambda b: b["house_rules"].append(
                {"name": "Ours\x00", "rules": b["games"][0]["rules"]}
                | {"created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"}
            ),
            "The backup is refused at house_rules.0.name: Use only visible letters",
        ),
        (
            lambda b: b["games"][0]["changes"][1].update(action_id="tap\x00"),
            "The backup is refused at games.0.changes.1.action_id: Holds an invisible character.",
        ),
        (
            lambda b: b["players"][0].update(name="\ud800"),
            "This file holds text that is not valid Unicode.",
        ),
    ],
)
def test_text_the_app_would_not_keep_is_refused_at_its_place(
    app: Flask, client: FlaskClient, backup: Backup, change: Callable[[Backup], None], reason: str
) -> None:
    refused(client, changed(backup, change), reason)
    assert nothing_stored(app)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda b: b["games"][0].update(version=10**30), "The backup is broken at games.0.version"),
        (lambda b: first_round(b).update(tiebreak_seats=[10**30]), "Round 1: This round's players"),
        (lambda b: first_round(b).update(down_seats=[10**30]), "That player is not in this round."),
        (
            lambda b: first_round(b)["results"][0].update(cards={"K": 10**30}),
            "Round 1: Only 8 cards of rank K are in play.",
        ),
        (lambda b: first_round(b)["results"][0].update(cards={"ZZ": 1}), "Not a rank: ZZ"),
        (
            lambda b: b["games"][0]["changes"].append(
                b["games"][0]["changes"][-1]
                | {"kind": "run_out", "before": {"run_outs": 10**30}, "action_id": None}
            ),
            "History entry changes.",
        ),
        (lambda b: first_round(b).update(tiebreak_seats="abc"), "The backup is broken at games.0"),
        (lambda b: first_round(b).update(run_outs="many"), "The backup is broken at games.0"),
        (
            lambda b: b["games"][0]["changes"][-1].update(before={"results": "x"}),
            "This entry of the history cannot be read.",
        ),
        (
            lambda b: b["games"][0]["changes"][-1].update(kind="cheat"),
            "The backup is broken at games.0.changes",
        ),
        (lambda b: b["games"][0].update(rules=[]), "The backup is broken at games.0.rules"),
        (lambda b: b["games"][0].update(rules={"rounds": []}), "Its rules are refused at"),
    ],
)
def test_huge_numbers_and_wrong_types_are_refused(
    app: Flask, client: FlaskClient, backup: Backup, change: Callable[[Backup], None], reason: str
) -> None:
    refused(client, changed(backup, change), reason)
    assert nothing_stored(app)


def seat_links(backup: Backup) -> list[Backup]:
    links: list[Backup] = backup["games"][0]["seat_links"]
    return links


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            lambda b: seat_links(b)[0].update(seat=5),  # a game of four
            "The backup refers to something it does not hold, at games.0.seat_links.",
        ),
        (
            lambda b: seat_links(b).append(seat_links(b)[0] | {"token": "n" * 32}),
            "The backup holds one seat's link twice, at games.0.seat_links.",
        ),
        (
            lambda b: seat_links(b).append(seat_links(b)[1] | {"seat": 2}),
            "The backup holds one seat's link twice, at games.0.seat_links.",
        ),
        (lambda b: seat_links(b)[0].update(token="short"), "broken at games.0.seat_links.0.token"),
        (lambda b: seat_links(b)[0].update(seat=8), "broken at games.0.seat_links.0.seat"),
    ],
)
def test_a_seat_link_that_names_no_seat_or_one_twice_is_refused(
    app: Flask, client: FlaskClient, backup: Backup, change: Callable[[Backup], None], reason: str
) -> None:
    assert len(seat_links(backup)) == 4
    refused(client, changed(backup, change), reason)
    assert nothing_stored(app)
