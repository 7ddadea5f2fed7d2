"""Storing a checked backup: under the write lock, only what the database lacks, in bulk.

Everything slow (reading the file, replaying its games through the rules) is done before
the lock. Here restores take their turn (SQLite's write lock at BEGIN, as a game's change
takes it; on PostgreSQL an advisory lock and the table's row), read what is already here,
refuse a file that clashes with it, and write the rest with one executemany per kind of row
in one short transaction. Nothing already stored is changed: not the table, its links, a
person (name, merge) or a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, func, insert, select, update

from ..database import lock_writes
from ..extensions import db
from ..models import CardTable, Game, HouseRules, RetiredTableLink, TablePlayer
from ..rules.messages import N_, msg
from .backup_format import Backup, BackupGame
from .backup_read import BackupRefused, check_one_person_a_seat, refused_at
from .backup_replay import Replayed
from .backup_rows import GameRows, chunks, insert_games, insert_rows

RESTORES = 0x5C0BE  # the PostgreSQL advisory lock restores take turns on


@dataclass(frozen=True)
class Stored:
    """What a restore wrote: the table (new or found), and what it added to it."""

    table_id: int
    players_added: int
    games_added: int
    table_added: bool
    present: frozenset[str]  # the file's games the table had already, by edit link


def store(backup: Backup, rows: Sequence[GameRows], new_sets: Sequence[HouseRules]) -> Stored:
    """Add what the database lacks of the backup in one transaction, or refuse the file.

    `rows` are the file's games as rows (backup_rows.game_rows), made before the lock.
    """
    lock_writes()  # SQLite: BEGIN IMMEDIATE; concurrent restores and buys wait their turn
    if db.engine.dialect.name != "sqlite":
        db.session.execute(select(func.pg_advisory_xact_lock(RESTORES)))
    table_id, added = _table(backup)
    people, people_added = _people(backup, table_id)
    here = _games_here(backup.games)
    names = {player.uid: player.name for player in backup.players}
    for number, game in enumerate(backup.games, start=1):
        if game.edit_token in here and here[game.edit_token] != table_id:
            seated = tuple(names[uid] for uid in game.seats)
            reason = msg(N_("It is already here, at another table."))
            raise Replayed(number, game, seated).refused(reason)
    _check_seats(backup, here, table_id)
    new_games = [game for game in rows if game.token not in here]
    insert_games(new_games, table_id, people)
    db.session.add_all(new_sets)
    db.session.commit()
    present = frozenset(token for token, owner in here.items() if owner == table_id)
    return Stored(table_id, people_added, len(new_games), added, present)


def _table(backup: Backup) -> tuple[int, bool]:
    """The table's id, found by its uid (its links must be the file's) or added with its links."""
    head = backup.table
    query = select(CardTable.id, CardTable.edit_token).where(CardTable.uid == head.uid)
    found = db.session.execute(query).one_or_none()
    if found is not None:
        if found.edit_token != head.edit_token:
            taken = N_("This table is already here, with other links: ask its scorekeeper.")
            raise BackupRefused(msg(taken))
        if db.engine.dialect.name != "sqlite":  # SQLite's write lock holds the table already
            # Its people's merges and names (which lock the row FOR UPDATE) wait for the
            # restore; a game started at the table meanwhile (KEY SHARE, its foreign key) does not.
            row = select(CardTable.id).where(CardTable.id == found.id)
            db.session.execute(row.with_for_update(key_share=True))
        return found.id, False
    row = head.model_dump(exclude={"retired_links"})
    table_id = db.session.execute(insert(CardTable).returning(CardTable.id), row).scalar_one()
    retired = [{"table_id": table_id, **link.model_dump()} for link in head.retired_links]
    insert_rows(RetiredTableLink, retired)
    return table_id, True


def _people(backup: Backup, table_id: int) -> tuple[dict[str, int], int]:
    """Every person of the file by uid: the table's own as they are, the others added."""
    query = select(TablePlayer.uid, TablePlayer.id).where(TablePlayer.table_id == table_id)
    people: dict[str, int] = dict(db.session.execute(query).tuples().all())
    new = [(number, p) for number, p in enumerate(backup.players) if p.uid not in people]
    elsewhere: set[str] = set()
    for chunk in chunks([p.uid for _, p in new]):
        elsewhere |= set(
            db.session.scalars(select(TablePlayer.uid).where(TablePlayer.uid.in_(chunk)))
        )
    for number, player in new:
        if player.uid in elsewhere:
            reason = msg(N_("This person is already here, at another table."))
            raise refused_at(f"players.{number}", reason)
    rows = [
        {"table_id": table_id, "merged_into_id": None, **p.model_dump(exclude={"merged_into"})}
        for _, p in new
    ]
    insert_rows(TablePlayer, rows)
    query = select(TablePlayer.uid, TablePlayer.id).where(TablePlayer.table_id == table_id)
    people = dict(db.session.execute(query).tuples().all())
    merges = [
        {"person": people[p.uid], "into": people[p.merged_into]} for _, p in new if p.merged_into
    ]
    if merges:
        merge = update(TablePlayer).where(TablePlayer.id == bindparam("person"))
        db.session.connection().execute(merge.values(merged_into_id=bindparam("into")), merges)
    return people, len(new)


def _games_here(games: list[BackupGame]) -> dict[str, int | None]:
    """The file's games already here (by edit link), with the table each belongs to."""
    found: dict[str, int | None] = {}
    for chunk in chunks([game.edit_token for game in games]):
        query = select(Game.edit_token, Game.table_id).where(Game.edit_token.in_(chunk))
        found |= dict(db.session.execute(query).tuples().all())
    return found


def _check_seats(backup: Backup, here: dict[str, int | None], table_id: int) -> None:
    """No new game seats one person twice, counting the table's merges as they are now."""
    query = select(TablePlayer.uid, TablePlayer.merged_into_id, TablePlayer.id)
    rows = db.session.execute(query.where(TablePlayer.table_id == table_id)).all()
    uid_of = {row.id: row.uid for row in rows}
    into = {row.uid: uid_of.get(row.merged_into_id or 0) for row in rows}
    for number, game in enumerate(backup.games):
        if game.edit_token not in here:
            check_one_person_a_seat(f"games.{number}.seats", game.seats, into)
