"""A table's files through the API: both CSVs, the JSON backup and its restore.

The same service as the pages' downloads and import (tables.record_csv, tables.backup): the
restore is the two-phase one, whole or refused with the reason.
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, request
from pydantic import Field

from .. import house_rules
from ..games.opening import open_for_read
from ..models import HouseRules
from ..rules.messages import N_, msg
from ..tables import backup, games, record_csv
from ..tables.backup.format import Backup
from ..tables.party_record import played_at
from .answers import NewLinks
from .base import (
    GAME,
    TABLE,
    Answer,
    Count,
    MediaType,
    Parameter,
    Problem,
    Said,
    With,
    answer,
    documented,
    game_access,
    open_table,
)
from .rulesets import SavedRuleSet, saved_set

bp = Blueprint("table_files", __name__)

EDIT_ONLY = N_("The backup holds the table's edit link: send the edit link to download it.")
HELD = "[0-9]{1,10}=[A-Za-z0-9_-]{1,64}"
HELD_SETS = Parameter(
    "Scorekeeper-Rule-Sets",
    {"type": "string", "pattern": f"^ *{HELD}( *, *{HELD})* *$", "maxLength": 4000},
    "The saved house rule sets this client holds, as id=token pairs separated by commas "
    "(7=token, 8=token): a backup holds these sets, and a restore adds none of them again, "
    "as the pages do with the sets a browser holds.",
    location="header",
)
NOT_HELD = N_("Give each saved rule set as its id=token, separated by commas.")
TABLE_CSV = MediaType("text/csv", "Every game of the table, one row per game and player (UTF-8).")
GAME_CSV = MediaType("text/csv", "The game's sheet: a row per round and player's points (UTF-8).")


class TableHead(Answer):
    id: Count
    name: str


class Restored(Answer):
    """What a restore added, and where the file and the table differ (the table's kept)."""

    table: TableHead
    links: NewLinks
    added_nothing: bool
    players_added: Count
    games_added: Count
    house_rules_added: Count
    evenings_added: Count = Field(description="The card parties the restore added.")
    house_rules: list[SavedRuleSet] = Field(
        description="The house rule sets the restore added, each with its own new token."
    )
    differences: list[Said]


def _csv(body: str) -> Response:
    """CSV text as the answer, in UTF-8 with a byte order mark, byte for byte the pages' file."""
    return Response("\ufeff" + body, mimetype="text/csv")


@bp.get(f"{TABLE}/games.csv")
@documented({200: TABLE_CSV})
def table_csv(table_id: int) -> Response:
    """Download every game of the table as CSV, as the table's page offers it."""
    table, _access = open_table(table_id, change=False)
    return _csv(record_csv.table_csv(games.all_games(table), played_at(table)))


@bp.get(f"{GAME}/sheet.csv")
@documented({200: GAME_CSV})
def game_csv(game_id: int) -> Response:
    """Download the game's sheet as CSV: rounds × players, with totals."""
    return _csv(record_csv.game_csv(open_for_read(game_id, game_access(game_id, change=False))))


def held_sets() -> list[HouseRules]:
    """The saved sets the Scorekeeper-Rule-Sets header's tokens open (none without it)."""
    raw = request.headers.get(HELD_SETS.name)
    if raw is None:
        return []
    if len(raw) > 4000 or not re.fullmatch(HELD_SETS.schema["pattern"], raw):
        raise Problem(422, errors={HELD_SETS.name: [msg(NOT_HELD)]})
    pairs = (pair.strip(" ").split("=") for pair in raw.split(","))
    return house_rules.among({int(number): token for number, token in pairs})


@bp.get(f"{TABLE}/backup")
@documented({200: Backup}, errors=(403,), parameters=(HELD_SETS,))
def backup_show(table_id: int) -> tuple[Response, int]:
    """Download the whole table as its JSON backup; it holds the edit links, so edit link only.

    With the saved house rule sets the client holds (Scorekeeper-Rule-Sets), as the page
    holds the sets its browser holds; each game holds the rules it was played under anyway.
    """
    table, access = open_table(table_id, change=False)
    if not access.can_edit:
        raise Problem(403, msg(EDIT_ONLY))
    # As the page writes it: in the stored order of each fact's keys (jsonify would sort them).
    body = backup.export_backup(table, held_sets()).model_dump_json()
    return Response(body, mimetype="application/json"), 200


@bp.post("/v1/tables/restore")
@documented({201: Restored, 200: Restored}, Backup, parameters=(HELD_SETS,))
def backups_restore() -> tuple[Response, int]:
    """Restore a table from its JSON backup: whole, or refused with the reason (nothing changed).

    201 when it added anything, 200 when everything in it was here already; a house rule set
    of the file that is one of the client's (Scorekeeper-Rule-Sets) is not added again.
    """
    request.max_content_length = backup.BACKUP_LIMIT
    held = held_sets()
    try:
        done = backup.import_backup(request.get_data(), held)
    except backup.BackupRefused as refusal:
        raise Problem(422, refusal.message, {"": [refusal.message]}) from None
    restored = With(
        done, links=done.table, house_rules=[saved_set(s) for s in done.new_house_rules]
    )
    return answer(Restored.model_validate(restored), 200 if done.added_nothing else 201)
