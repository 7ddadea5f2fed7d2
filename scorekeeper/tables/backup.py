"""Write a table's JSON backup, and read one back: all of it or nothing, never a silent merge."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from ..capability_links import new_token
from ..extensions import db
from ..games import house_rules
from ..games.state import game_state
from ..models import CardTable, Game, HouseRules, TablePlayer
from ..rules.errors import RuleError
from ..rules.messages import N_, Message, msg
from ..rules.ruleset_json import ruleset_from_dict
from . import games
from .backup_facts import changes_by_game, game_facts, rebuild_game
from .backup_format import (
    FORMAT,
    VERSION,
    Backup,
    BackupGame,
    BackupHouseRules,
    BackupPlayer,
    BackupTable,
)


class BackupRefused(Exception):
    """A file that cannot be imported, with the reason; nothing was changed."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render())
        self.message = message


@dataclass(frozen=True)
class Imported:
    """What an import did: the table, what it added, and names that may be one person."""

    table: CardTable
    players_added: int
    games_added: int
    house_rules_added: int = 0
    new_house_rules: list[HouseRules] = field(default_factory=list)


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
    loaded = [state.game for state in games.all_games(table)]
    history = changes_by_game([game.id for game in loaded])
    played = [game_facts(game, uid_of, history[game.id]) for game in loaded]
    head = BackupTable(
        uid=table.uid,
        name=table.name,
        edit_token=table.edit_token,
        view_token=table.view_token,
        created_at=table.created_at,
    )
    saved = [
        BackupHouseRules(
            name=s.name, rules=s.rules_json, created_at=s.created_at, updated_at=s.updated_at
        )
        for s in sorted(saved_sets, key=lambda s: s.id)  # the sets the exporter holds links to
    ]
    return Backup(table=head, players=players, games=played, house_rules=saved)


def import_backup(data: bytes, saved_sets: Sequence[HouseRules] = ()) -> Imported:
    """Restore a backup: a new table, or what an existing one lacks; refused whole if wrong.

    `saved_sets` are the house rule sets the importer holds links to: a backup's set that is
    one of them is not added again.
    """
    try:
        return _restore(_read(data), saved_sets)
    except BackupRefused:
        db.session.rollback()
        raise
    except DBAPIError:
        # A fact the schema refuses: the same round or hand twice, a number out of range.
        db.session.rollback()
        raise BackupRefused(msg(N_("The backup holds a fact twice or out of range."))) from None


def _restore(backup: Backup, saved_sets: Sequence[HouseRules]) -> Imported:
    """Add what the database lacks of a readable backup, in one transaction."""
    _check_references(backup)
    new_sets = _new_house_rules(backup.house_rules, saved_sets)
    table = db.session.scalar(select(CardTable).where(CardTable.uid == backup.table.uid))
    if table is None:
        table = CardTable(**backup.table.model_dump())
        db.session.add(table)
    elif table.edit_token != backup.table.edit_token:
        taken = N_("This table is already here, with other links: ask its scorekeeper.")
        raise BackupRefused(msg(taken))
    people = {p.uid: p for p in games.load_people(table)} if table.id else {}
    added = [_person(table, p) for p in backup.players if p.uid not in people]
    people.update({p.uid: p for p in added})
    db.session.flush()
    for player in backup.players:
        merged_into = people[player.merged_into].id if player.merged_into else None
        people[player.uid].merged_into_id = merged_into
        people[player.uid].merged_at = player.merged_at
    new_games = _new_games(backup.games)
    for facts in new_games:
        game = rebuild_game(facts, table, people)
        _check_rules(game, facts)
    db.session.add_all(new_sets)
    db.session.commit()
    return Imported(table, len(added), len(new_games), len(new_sets), new_sets)


def _read(data: bytes) -> Backup:
    """The file as a Backup of our format and version, else the reason it is not one."""
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise BackupRefused(msg(N_("This file is not JSON."))) from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise BackupRefused(msg(N_("This file is not a Scorekeeper table backup.")))
    if raw.get("version") != VERSION:
        message = N_("This backup has version %(found)s; this app reads version %(version)s.")
        raise BackupRefused(msg(message, found=str(raw.get("version")), version=VERSION))
    try:
        return Backup.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise BackupRefused(msg(N_("The backup is broken at %(where)s."), where=where)) from None


def _check_references(backup: Backup) -> None:
    """Every seat and merge names a person of the backup; seats and rounds are in range."""
    uids = [p.uid for p in backup.players]
    if len(set(uids)) != len(uids):
        raise BackupRefused(msg(N_("The backup names a person twice.")))
    for player in backup.players:
        if player.merged_into is not None and player.merged_into not in uids:
            raise _broken(f"players.{player.uid}.merged_into")
    for number, game in enumerate(backup.games):
        if any(uid not in uids for uid in game.seats) or len(set(game.seats)) != len(game.seats):
            raise _broken(f"games.{number}.seats")
        seats = len(game.seats)
        for played in game.rounds:
            facts = [r.seat for r in played.results] + [b.seat for b in played.buys]
            if any(seat >= seats for seat in [*facts, played.dealer]):
                raise _broken(f"games.{number}.rounds.{played.number}")


def _broken(where: str) -> BackupRefused:
    """A refusal for a reference that points nowhere."""
    message = N_("The backup refers to something it does not hold, at %(where)s.")
    return BackupRefused(msg(message, where=where))


def _new_games(played: list[BackupGame]) -> list[BackupGame]:
    """The backup's games not here yet; a game of another table with the same link is refused."""
    tokens = [g.edit_token for g in played]
    query = select(Game.edit_token).where(Game.edit_token.in_(tokens))
    present = set(db.session.scalars(query))
    return [g for g in played if g.edit_token not in present]


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
            raise BackupRefused(msg(message, where=where, reason=error.message.render())) from None
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


def _person(table: CardTable, player: BackupPlayer) -> TablePlayer:
    """A person of the backup, added to the table (a same name is offered for merging later)."""
    person = TablePlayer(uid=player.uid, name=player.name, created_at=player.created_at)
    table.players.append(person)
    return person


def _check_rules(game: Game, facts: BackupGame) -> None:
    """Read the game through the rules engine; a game its own rules refuse is not imported."""
    try:
        ruleset_from_dict(facts.rules, stored=True)
        db.session.flush()
        game_state(game)
    except (RuleError, KeyError, ValueError, TypeError) as error:
        reason = error.message.render() if isinstance(error, RuleError) else str(error)
        message = N_("A game of the backup breaks its rules: %(reason)s")
        raise BackupRefused(msg(message, reason=reason)) from None
