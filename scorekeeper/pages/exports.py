"""Downloads and the import: CSV of a game or a table, a table's JSON backup, its restore."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, g, render_template, request
from flask_babel import gettext, ngettext
from werkzeug.wrappers import Response

from ..games.opening import open_for_read
from ..i18n import translate, translate_text
from ..rules.messages import Message
from ..tables import backup, export, games
from .house_rule_links import remember, saved_here
from .links import GAME, current_access, protect
from .table_links import TABLE, open_table_in_browser, protect_table, require_table_edit

bp = Blueprint("exports", __name__)
protect_table(bp)
game_bp = Blueprint("game_exports", __name__, url_prefix=GAME)
protect(game_bp)
import_bp = Blueprint("imports", __name__)
DIFFERENCES_SHOWN = 8  # where a restored file and its table differ, as flashed messages


@import_bp.url_value_preprocessor
def _allow_a_backup(_endpoint: str | None, _values: dict[str, Any] | None) -> None:
    """Take a backup file larger than other requests; runs before the CSRF check reads the form."""
    request.max_content_length = backup.BACKUP_LIMIT


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


@bp.get(f"{TABLE}/games.csv")
def table_csv(table_id: int) -> Response:
    """Download every game of the table as CSV, one row per game and player."""
    body = export.table_csv(games.all_games(g.table))
    return _csv_download(body, f"table-{table_id}-games.csv")


@bp.get(f"{TABLE}/backup.json")
def table_backup(table_id: int) -> Response:
    """Download the whole table as a JSON backup; it holds the edit links, so editors only."""
    require_table_edit()
    body = backup.export_backup(g.table, saved_here()).model_dump_json(indent=1)
    return _download(body, "application/json", f"table-{table_id}-backup.json")


@game_bp.get("/sheet.csv")
def game_csv(game_id: int) -> Response:
    """Download the game's sheet as CSV: rounds × players, with totals."""
    body = export.game_csv(open_for_read(game_id, current_access()))
    return _csv_download(body, f"game-{game_id}.csv")


@game_bp.get("/print")
def printable(game_id: int) -> str:
    """Show the game's sheet made for paper: no header, buttons or icons."""
    return render_template("games/print.html", state=open_for_read(game_id, current_access()))


@import_bp.get("/tables/import")
def new() -> str:
    """Show the form to restore a table from its JSON backup."""
    return render_template("tables/import.html", error=None)


@import_bp.post("/tables/import")
def create() -> Response | tuple[str, int]:
    """Restore a table from a backup file, or say why the file is refused (nothing changed)."""
    upload = request.files.get("backup")
    data = upload.read() if upload else b""
    try:
        done = backup.import_backup(data, saved_here())
    except backup.BackupRefused as refusal:
        return render_template("tables/import.html", error=translate(refusal.message)), 422
    flash(_added(done), "info")
    _flash_differences(done.differences)
    for saved in done.new_house_rules:  # this browser restored them: it may open them
        remember(saved)
    return open_table_in_browser(done.table.id, done.table.edit_token)


def _added(done: backup.Imported) -> str:
    """What a restore added, or that the file was all here already."""
    if done.added_nothing:
        return gettext("Everything in this file is already here: nothing was added.")
    added = gettext(
        "New games: %(games)s. New people: %(people)s.",
        games=done.games_added,
        people=done.players_added,
    )
    return added + " " + gettext("New house rule sets: %(sets)s.", sets=done.house_rules_added)


def _flash_differences(differences: list[Message]) -> None:
    """Say where the file and the table differ: the first few, then how many more (the
    messages travel in the session cookie, which holds 4 KB)."""
    if not differences:
        return
    flash(gettext("Where the file and this table differ, the table's facts are kept:"), "warning")
    for difference in differences[:DIFFERENCES_SHOWN]:
        flash(translate_text(difference), "warning")
    more = len(differences) - DIFFERENCES_SHOWN
    if more > 0:
        flash(
            ngettext("… and %(count)s more.", "… and %(count)s more.", more, count=more), "warning"
        )
