"""CSV of a game and of a table, the printable sheet, the running-totals chart, query counts."""

from __future__ import annotations

import csv
import io

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.models import Round, RoundResult
from scorekeeper.tables.record_csv import _tiebreak_cells
from tests.api.test_concurrency import statements
from tests.tables.helpers import BEN_WINS, open_table, play, play_tiebreaker, start_at
from tests.web.test_games import text

pytestmark = pytest.mark.storage


def rows(body: bytes) -> list[list[str]]:
    """CSV in UTF-8 with its byte order mark, as Excel reads it, as rows of cells."""
    assert body.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_a_game_csv_has_a_row_per_round_and_the_totals(client: FlaskClient) -> None:
    url = open_table(client)
    game = start_at(client, url, ["Anna", "Ben", "Carla", "=cmd()"])
    game.names = ["Anna", "Ben", "Carla", "Dan"]
    play(game, BEN_WINS)
    response = client.get(f"{game.url}/sheet.csv")
    assert (
        response.mimetype == "text/csv" and "attachment" in response.headers["Content-Disposition"]
    )
    sheet = rows(response.get_data())
    assert response.content_type == "text/csv; charset=utf-8"
    assert sheet[0] == ["round", "Anna", "Ben", "Carla", "'=cmd()"]  # no formula runs
    assert sheet[1] == ["1", "10", "0", "30", "40"]
    assert sheet[-2] == ["total", "50", "35", "180", "240"]
    assert sheet[-1] == ["winner", "", "yes", "", ""]


def test_the_csvs_are_utf_8_with_a_byte_order_mark_for_excel(client: FlaskClient) -> None:
    url = open_table(client)
    game = start_at(client, url, ["Ömer", "Zoë"])
    for csv_url in (f"{url}/games.csv", f"{game.url}/sheet.csv"):
        body = client.get(csv_url).get_data()
        assert body.startswith("\ufeff".encode()) and "Ömer".encode() in body
        assert any("Zoë" in row for row in rows(body))


def test_a_table_csv_has_a_row_per_game_and_player(client: FlaskClient) -> None:
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    start_at(client, url, ["Ben", "Anna"])
    table = rows(client.get(f"{url}/games.csv").get_data())
    assert table[0][:3] == ["game", "date", "rule_set"] and len(table) == 1 + 4 + 2
    ben = next(row for row in table[1:] if row[0] == "1" and row[5] == "Ben")
    assert ben[2:] == ["may-i", "yes", "2", "Ben", "35", "3", "0", "yes", "", "", ""]


def test_the_printable_sheet_has_the_game_and_no_edit_icons(client: FlaskClient) -> None:
    url = open_table(client)
    game = start_at(client, url, ["Anna", "Ben", "Carla", "Dan"])
    play(game, BEN_WINS)
    page = game.page("/print")
    assert "May I?" in page and "Ben wins!" in page and "★" in page
    assert 'class="printable"' in page and "style=" not in page


def test_the_sheet_and_the_end_of_the_game_draw_the_running_totals(client: FlaskClient) -> None:
    url = open_table(client)
    game = start_at(client, url, ["Anna", "Ben", "Carla", "Dan"])
    play(game, BEN_WINS)
    for page in (game.page("/sheet"), game.page()):
        assert 'id="running-chart"' in page and "<polyline" in page and "style=" not in page
        assert "<caption>" in page  # the numbers, for screen readers


def test_the_table_page_record_and_backup_ask_the_same_number_of_queries_for_more_games(
    app: Flask, client: FlaskClient
) -> None:
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    with statements(app) as one:
        assert client.get(url).status_code == 200
        assert client.get(f"{url}/record").status_code == 200
        assert client.get(f"{url}/backup.json").status_code == 200
    for _ in range(3):
        play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    start_at(client, url, ["Eve", "Ben"])
    with statements(app) as five:
        assert client.get(url).status_code == 200
        assert client.get(f"{url}/record").status_code == 200
        assert client.get(f"{url}/backup.json").status_code == 200
    assert len(five) == len(one)


def test_a_tiebreakers_row_says_who_went_out_and_what_each_other_player_held() -> None:
    went_out = Round(results=[RoundResult(seat=0, points=15), RoundResult(seat=2, went_out=True)])
    held = Round(results=[RoundResult(seat=0, points=15), RoundResult(seat=2, points=5)])
    assert _tiebreak_cells(3, went_out) == ["15", "", "out"]
    assert _tiebreak_cells(3, held) == ["15", "", "5"]


def test_the_game_csv_keeps_the_hand_of_who_lost_the_tiebreaker(client: FlaskClient) -> None:
    url = open_table(client)
    game = play_tiebreaker(client, url, ["Anna", "Ben", "Carla", "Dan"])
    assert "Tiebreaker round 1: Ben went out, Anna 7" in text(game.page("/sheet"))
    sheet = rows(client.get(f"{game.url}/sheet.csv").get_data())
    assert ["tiebreaker 1", "7", "out", "", ""] in sheet
