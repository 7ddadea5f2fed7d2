"""Downloads: CSV of a game or a table, a game's printable sheet, a table's JSON backup."""

from __future__ import annotations

from flask import Blueprint, render_template
from werkzeug.wrappers import Response

from ..games.opening import open_for_read
from ..tables import backup, games, record_csv
from ..tables.party_record import played_at
from .game_door import current_access
from .remembered_rule_sets import saved_here
from .table_door import TABLES, current_table

game_bp = Blueprint("downloads", __name__)  # under the game's door
table_bp = Blueprint("downloads", __name__)  # under the table's


def _download(body: str, mimetype: str, filename: str) -> Response:
    """A file the browser saves rather than shows."""
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _csv_download(body: str, filename: str) -> Response:
    """A CSV file in UTF-8 with a byte order mark: Excel reads "Ömer" right only with one."""
    response = _download("\ufeff" + body, "text/csv", filename)
    response.charset = "utf-8"
    return response


@table_bp.get("/games.csv")
def table_csv(table_id: int) -> Response:
    """Download every game of the table as CSV, one row per game and player."""
    table = current_table()
    body = record_csv.table_csv(games.all_games(table), played_at(table))
    return _csv_download(body, f"table-{table_id}-games.csv")


@table_bp.get("/backup.json")
def table_backup(table_id: int) -> Response:
    """Download the whole table as a JSON backup; it holds the edit links, so editors only."""
    TABLES.require_edit()
    body = backup.export_backup(current_table(), saved_here()).model_dump_json(indent=1)
    return _download(body, "application/json", f"table-{table_id}-backup.json")


@game_bp.get("/sheet.csv")
def game_csv(game_id: int) -> Response:
    """Download the game's sheet as CSV: rounds × players, with totals."""
    body = record_csv.game_csv(open_for_read(game_id, current_access()))
    return _csv_download(body, f"game-{game_id}.csv")


@game_bp.get("/print")
def printable(game_id: int) -> str:
    """Show the game's sheet made for paper: no header, buttons or icons."""
    return render_template("games/print.html", state=open_for_read(game_id, current_access()))
