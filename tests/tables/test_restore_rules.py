"""A restored game is replayed through the checks live entry makes, fact by fact: one fact they
refuse refuses the whole file, naming the game, the round and the reason (RULES.md §10).

Before, a restore stored what the live forms refuse: points that differ from the tapped
cards, a hand of 5000, a cut bonus for a player who did not cut, six buys against a cap of
three, a stock ending with no run-out, one game twice, history the pages cannot read.
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
    empty,
    encoded,
    nothing_stored,
    scratch_client,
    upload,
)
from tests.tables.helpers import BEN_WINS, open_table, play, start_at
from tests.web.test_games import text

pytestmark = pytest.mark.storage

Backup = dict[str, Any]
PLAYERS = ["Anna", "Ben", "Carla", "Dan"]


@pytest.fixture(scope="module")
def made(sqlite_migrated: Path, tmp_path_factory: pytest.TempPathFactory) -> Backup:
    """A May I? game with a buy and a Liverpool game with a cut bonus, made once on a scratch
    database (test_the_backup_as_made_restores restores it unchanged on each database)."""
    with scratch_client(sqlite_migrated, tmp_path_factory.mktemp("made")) as (_, client):
        url = open_table(client)
        may_i = start_at(client, url, PLAYERS)
        may_i.buy("Carla")
        play(may_i, BEN_WINS)
        liverpool = start_at(client, url, PLAYERS, ruleset="liverpool")
        out, hands = BEN_WINS[0]
        assert liverpool.end_round(1, out, hands, cut="Dan").status_code == 303  # Anna dealt
        backup = backup_of(client, url)
    assert backup["games"][1]["rounds"][0]["cut_bonus_seat"] == 3
    return backup


@pytest.fixture
def backup(app: Flask, made: Backup) -> Backup:
    """The backup, this test's own copy, for the test's empty installation."""
    return copy.deepcopy(made)


def test_the_backup_as_made_restores(app: Flask, client: FlaskClient, backup: Backup) -> None:
    assert upload(client, encoded(backup)).status_code == 303
    assert client.get("/").status_code == 200  # shows what it added
    empty(app)
    assert nothing_stored(app)


def round_of(backup: Backup, game: int = 0, number: int = 1) -> Backup:
    round_: Backup = backup["games"][game]["rounds"][number - 1]
    return round_


def hand(backup: Backup, seat: int, game: int = 0, number: int = 1) -> Backup:
    result: Backup = next(r for r in round_of(backup, game, number)["results"] if r["seat"] == seat)
    return result


def end_by_stock(backup: Backup) -> None:
    """Round 1 ends as if the stock had ended it, though it never ran out."""
    round_of(backup).update(ended_by_stock=True)
    hand(backup, 1).update(went_out=False, points=5)


def six_buys(backup: Backup) -> None:
    buys = round_of(backup)["buys"]
    buys[:] = [dict(buys[0], seat=1) for _ in range(6)]


def one_game_twice(backup: Backup) -> None:
    backup["games"].append(copy.deepcopy(backup["games"][0]))


def history_entry(backup: Backup, **changes: object) -> None:
    """The newest round end of the first game's history, changed."""
    entry = next(c for c in reversed(backup["games"][0]["changes"]) if c["kind"] == "result")
    entry.update(changes)


R1 = "Round 1"
REFUSED = [
    (lambda b: hand(b, 0).update(cards={"K": 2}), 1, R1, "10 points were typed but the tapped"),
    (lambda b: hand(b, 0).update(points=5000), 1, R1, "No hand is worth 5000"),
    (
        lambda b: round_of(b, game=1).update(cut_bonus_seat=0),
        2,
        R1,
        "Only the player who cut this round can earn the cut bonus.",
    ),
    (six_buys, 1, R1, "The limit of 3 buys per round is reached."),
    (end_by_stock, 1, R1, "The stock ends the round only when it runs out a second time"),
    (lambda b: round_of(b).update(run_outs=3), 1, R1, "The round already ended when the stock"),
    (lambda b: round_of(b).update(ended_by_stock=True), 1, R1, "Its end is not what its hands"),
    (lambda b: hand(b, 1).update(points=5), 1, R1, "Ben went out and holds no cards"),
    (lambda b: round_of(b)["results"].pop(), 1, R1, "Enter the points or the cards left in hand."),
    (lambda b: round_of(b).update(results=[]), 1, R1, "This round has no end, yet rounds follow"),
    (
        lambda b: b["games"][0]["rounds"].pop(1),
        1,
        "Round 3",
        "This round does not follow the rounds",
    ),
    (
        lambda b: b["games"][0]["rounds"].append(dict(round_of(b, number=7), number=8)),
        1,
        "Tiebreaker round 1",
        "This game is over.",
    ),
    (
        lambda b: round_of(b).update(tiebreak_seats=[0, 1]),
        1,
        R1,
        "This round's players are not the ones the tie asks for.",
    ),
    (lambda b: round_of(b).update(down_seats=[2, 2]), 1, R1, "A player is marked down twice."),
    (lambda b: b["games"][0].update(first_dealer=5), 1, None, "There is no seat"),
    (
        lambda b: history_entry(b, before={"ended_by_stock": False, "results": []}),
        1,
        None,
        "This entry of the history holds a round's end no table can have.",
    ),
    (
        lambda b: history_entry(b, round_number=42),
        1,
        None,
        "This entry of the history names a round or seat the game does not have.",
    ),
    (
        lambda b: history_entry(b, version=10**6),
        1,
        None,
        "The history's versions must grow, up to the game's own.",
    ),
    (
        lambda b: b["games"][0]["rules"].update(rounds=[]),
        1,
        None,
        "Its rules are refused at rounds",
    ),
]


@pytest.mark.parametrize(("change", "game", "label", "reason"), REFUSED)
def test_a_fact_live_entry_refuses_refuses_the_file_naming_game_and_round(
    app: Flask,
    client: FlaskClient,
    backup: Backup,
    change: Callable[[Backup], object],
    game: int,
    label: str | None,
    reason: str,
) -> None:
    change(backup)
    response = upload(client, encoded(backup))
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    at = f", {label}: " if label is not None else "): "
    assert f"Game {game} of the file (" in page and at in page, page
    assert reason in page, page
    assert nothing_stored(app)


def test_one_game_twice_in_a_file_is_refused(
    app: Flask, client: FlaskClient, backup: Backup
) -> None:
    one_game_twice(backup)
    response = upload(client, encoded(backup))
    assert response.status_code == 422
    assert "The backup holds one game twice." in text(response.get_data(as_text=True))
    assert nothing_stored(app)


def test_the_refusal_is_in_the_language_of_the_browser(
    app: Flask, client: FlaskClient, backup: Backup
) -> None:
    six_buys(backup)
    response = upload(client, encoded(backup), **{"Accept-Language": "de"})
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    assert "Spiel 1 der Datei (" in page and ", Runde 1: " in page, page
    assert "Die Grenze von 3 Käufen pro Runde ist erreicht." in page, page
    assert nothing_stored(app)
