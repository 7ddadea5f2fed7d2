"""Write a table's JSON backup, and read one back: all of it or nothing, never a silent merge."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import select

from ... import house_rules
from ...extensions import db
from ...link_tokens import new_token
from ...models import CardTable, HouseRules, RetiredTableLink
from ...rules.errors import RuleError
from ...rules.messages import N_, Message, msg
from .. import games
from .evenings import check_parties, parties_facts
from .facts import differences, games_facts
from .format import (
    Backup,
    BackupHouseRules,
    BackupPlayer,
    BackupRefused,
    BackupRetiredLink,
    BackupTable,
    read_backup,
)
from .replay import replay_games
from .write import game_rows, store

__all__ = ["BACKUP_LIMIT", "BackupRefused", "Imported", "export_backup", "import_backup"]
BACKUP_LIMIT = 64 * 1024 * 1024  # a table's backup holds every game; other requests keep 256 KiB


@dataclass(frozen=True)
class Imported:
    """What an import did: the table, what it added, and where the file and the table differ."""

    table: CardTable
    players_added: int
    games_added: int
    house_rules_added: int = 0
    evenings_added: int = 0
    new_house_rules: list[HouseRules] = field(default_factory=list)
    differences: list[Message] = field(default_factory=list)  # the table's facts were kept

    @property
    def added_nothing(self) -> bool:
        """Whether everything in the file was here already."""
        added = self.players_added, self.games_added, self.house_rules_added, self.evenings_added
        return not any(added)


def export_backup(table: CardTable, saved_sets: Sequence[HouseRules] = ()) -> Backup:
    """Every fact of the table as a Backup, people by uid, games oldest first."""
    everyone = games.load_people(table)
    uid_of = {p.id: p.uid for p in everyone}
    players = [
        BackupPlayer(
            uid=p.uid,
            name=p.name,
            merged_into=uid_of[p.merged_into_id] if p.merged_into_id else None,
            merged_at=p.merged_at,
            created_at=p.created_at,
        )
        for p in sorted(everyone, key=lambda p: p.id)
    ]
    loaded = games.all_game_rows(table)
    played = games_facts(loaded, uid_of)
    replaced = select(RetiredTableLink).where(RetiredTableLink.table_id == table.id)
    head = BackupTable(
        uid=table.uid,
        name=table.name,
        edit_token=table.edit_token,
        view_token=table.view_token,
        created_at=table.created_at,
        retired_links=[
            BackupRetiredLink.model_validate(link)
            for link in db.session.scalars(replaced.order_by(RetiredTableLink.id))
        ],
    )
    saved = [
        BackupHouseRules(
            name=s.name, rules=s.rules_json, created_at=s.created_at, updated_at=s.updated_at
        )
        for s in sorted(saved_sets, key=lambda s: s.id)  # the sets the exporter holds links to
    ]
    parties = parties_facts(table, uid_of)
    return Backup(table=head, players=players, games=played, house_rules=saved, parties=parties)


def import_backup(data: bytes, saved_sets: Sequence[HouseRules] = ()) -> Imported:
    """Restore a backup whole, or refuse it with the reason: a new table, or what one lacks.

    The file is read and its games replayed through the rules before anything is locked or
    written (backup.format, backup.replay); then backup.write adds what the database lacks in
    one short transaction. Nothing already stored is changed: where the file and the table
    differ, `differences` says so. `saved_sets` are the house rule sets the importer holds
    links to: a backup's set that is one of them is not added again.
    """
    backup = read_backup(data)
    check_parties(backup)
    replay_games(backup)
    new_sets = _new_house_rules(backup.house_rules, saved_sets)
    rows = [game_rows(game) for game in backup.games]
    try:
        stored = store(backup, rows, new_sets)
    except BackupRefused:
        db.session.rollback()
        raise
    table = db.session.get_one(CardTable, stored.table_id)
    found = [] if stored.table_added else differences(backup, table, stored.present)
    sets = len(new_sets)
    added = stored.players_added, stored.games_added
    return Imported(table, *added, sets, stored.evenings_added, new_sets, found)


def _new_house_rules(
    backup_sets: list[BackupHouseRules], saved_sets: Sequence[HouseRules]
) -> list[HouseRules]:
    """The backup's saved sets the importer lacks, checked; a same name with other rules is
    refused.

    A set is here when one of the importer's sets of the same name holds the same rules; a
    name of theirs with other rules is a conflict the scorekeeper must settle. Each new set
    gets its own secret token.
    """
    here: dict[str, set[str]] = {}
    for saved in saved_sets:
        here.setdefault(saved.name, set()).add(_canonical(saved.rules_json))
    names_here = set(here)
    new = []
    for number, entry in enumerate(backup_sets):
        try:
            name, rules = house_rules.checked_copy(entry.name, entry.rules)
        except RuleError as error:
            message = N_("The backup's house rule set %(where)s is refused: %(reason)s")
            where = f"house_rules.{number}"
            raise BackupRefused(msg(message, where=where, reason=error.message)) from None
        if _canonical(rules) in here.get(name, set()):
            continue
        if name in names_here:
            taken = N_("A house rule set named %(name)s is already here with other rules.")
            raise BackupRefused(msg(taken, name=f"“{name}”"))
        here.setdefault(name, set()).add(_canonical(rules))
        saved = HouseRules(name=name, rules_json=rules, token=new_token())
        saved.created_at, saved.updated_at = entry.created_at, entry.updated_at
        new.append(saved)
    return new


def _canonical(rules: dict[str, object]) -> str:
    """Rules as text that is equal exactly when the rules are."""
    return json.dumps(rules, sort_keys=True)
