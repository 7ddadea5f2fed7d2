"""A table restored from its JSON backup: the form, and the restore with what it added."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, render_template, request
from flask_babel import gettext, ngettext
from werkzeug.wrappers import Response

from ..i18n import translate, translate_text
from ..rules.messages import Message
from ..tables import backup
from .remembered_rule_sets import remember, saved_here
from .table_door import TABLES

bp = Blueprint("restores", __name__)
DIFFERENCES_SHOWN = 8  # where a restored file and its table differ, as flashed messages


@bp.url_value_preprocessor
def _allow_a_backup(_endpoint: str | None, _values: dict[str, Any] | None) -> None:
    """Take a backup file larger than other requests; runs before the CSRF check reads the form."""
    request.max_content_length = backup.BACKUP_LIMIT


@bp.get("/tables/import")
def new() -> str:
    """Show the form to restore a table from its JSON backup."""
    return render_template("tables/restore.html", error=None)


@bp.post("/tables/import")
def create() -> Response | tuple[str, int]:
    """Restore a table from a backup file, or say why the file is refused (nothing changed)."""
    upload = request.files.get("backup")
    data = upload.read() if upload else b""
    try:
        done = backup.import_backup(data, saved_here())
    except backup.BackupRefused as refusal:
        return render_template("tables/restore.html", error=translate(refusal.message)), 422
    flash(_added(done), "info")
    _flash_differences(done.differences)
    for saved in done.new_house_rules:  # this browser restored them: it may open them
        remember(saved)
    return TABLES.open_in_browser(done.table.id, done.table.edit_token)


def _added(done: backup.Imported) -> str:
    """What a restore added, or that the file was all here already."""
    if done.added_nothing:
        return gettext("Everything in this file is already here: nothing was added.")
    added = gettext(
        "New games: %(games)s. New people: %(people)s.",
        games=done.games_added,
        people=done.players_added,
    )
    added += " " + gettext("New house rule sets: %(sets)s.", sets=done.house_rules_added)
    if done.evenings_added:
        added += " " + gettext("New card parties: %(count)s.", count=done.evenings_added)
    return added


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
