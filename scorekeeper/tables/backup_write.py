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
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update

from ..database import lock_table, lock_writes
from ..extensions import db
from ..models import (
    Buy,
    CardTable,
    Change,
    Game,
    HouseRules,
    RetiredLink,
    RetiredTableLink,
    Round,
    RoundResult,
    Seat,
    TablePlayer,
)
from ..rules.messages import N_, msg
from .backup_format import Backup, BackupGame
from .backup_read import BackupRefused, check_one_person_a_seat, refused_at
from .backup_replay import THIS_GAME

RESTORES = 0x5C0BE  # the PostgreSQL advisory lock restores take turns on
GAME_COLUMNS = ("rules", "first_dealer", "dealer_was_cut", "decks", "version", "edit_token")
GAME_COLUMNS += ("view_token", "created_at", "updated_at")


@dataclass(frozen=True)
class Stored:
    """What a restore wrote: the table (new or found), and what it added to it."""

    table_id: int
    players_added: int
    games_added: int
    table_added: bool
    present: frozenset[str]  # the file's games the table had already, by edit link


def store(backup: Backup, new_sets: Sequence[HouseRules]) -> Stored:
    """Add what the database lacks of the backup in one transaction, or refuse the file."""
    lock_writes()  # SQLite: BEGIN IMMEDIATE; concurrent restores and buys wait their turn
    if db.engine.dialect.name != "sqlite":
        db.session.execute(select(func.pg_advisory_xact_lock(RESTORES)))
    table_id, added = _table(backup)
    people, people_added = _people(backup, table_id)
    here = _games_here(backup.games)
    for number, game in enumerate(backup.games, start=1):
        if game.edit_token in here and here[game.edit_token] != table_id:
            reason = msg(N_("It is already here, at another table."))
            players = tuple(p.name for p in backup.players if p.uid in game.seats)
            named = {"date": game.created_at.date().isoformat(), "players": players}
            raise BackupRefused(msg(THIS_GAME, game=number, reason=reason, **named))
    _check_seats(backup, here, table_id)
    new_games = [game for game in backup.games if game.edit_token not in here]
    _insert_games(new_games, table_id, people)
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
            lock_table(found.id)  # its people's merges and names stay as they are meanwhile
        return found.id, False
    row = head.model_dump(exclude={"retired_links"})
    table_id = _insert(CardTable, [row])[0]
    retired = [{"table_id": table_id, **link.model_dump()} for link in head.retired_links]
    _insert(RetiredTableLink, retired, ids=False)
    return table_id, True


def _people(backup: Backup, table_id: int) -> tuple[dict[str, int], int]:
    """Every person of the file by uid: the table's own as they are, the others added."""
    query = select(TablePlayer.uid, TablePlayer.id).where(TablePlayer.table_id == table_id)
    people: dict[str, int] = dict(db.session.execute(query).tuples().all())
    new = [(number, p) for number, p in enumerate(backup.players) if p.uid not in people]
    elsewhere = set(
        db.session.scalars(
            select(TablePlayer.uid).where(TablePlayer.uid.in_([p.uid for _, p in new]))
        )
    )
    for number, player in new:
        if player.uid in elsewhere:
            reason = msg(N_("This person is already here, at another table."))
            raise refused_at(f"players.{number}", reason)
    rows = [
        {"table_id": table_id, "merged_into_id": None, **p.model_dump(exclude={"merged_into"})}
        for _, p in new
    ]
    people |= dict(zip([p.uid for _, p in new], _insert(TablePlayer, rows), strict=True))
    merges = [
        {"person": people[p.uid], "into": people[p.merged_into]} for _, p in new if p.merged_into
    ]
    if merges:
        merge = update(TablePlayer).where(TablePlayer.id == bindparam("person"))
        db.session.connection().execute(merge.values(merged_into_id=bindparam("into")), merges)
    return people, len(new)


def _games_here(games: list[BackupGame]) -> dict[str, int | None]:
    """The file's games already here (by edit link), with the table each belongs to."""
    tokens = [game.edit_token for game in games]
    query = select(Game.edit_token, Game.table_id).where(Game.edit_token.in_(tokens))
    return dict(db.session.execute(query).tuples().all())


def _check_seats(backup: Backup, here: dict[str, int | None], table_id: int) -> None:
    """No new game seats one person twice, counting the table's merges as they are now."""
    query = select(TablePlayer.uid, TablePlayer.merged_into_id, TablePlayer.id)
    rows = db.session.execute(query.where(TablePlayer.table_id == table_id)).all()
    uid_of = {row.id: row.uid for row in rows}
    into = {row.uid: uid_of.get(row.merged_into_id or 0) for row in rows}
    for number, game in enumerate(backup.games):
        if game.edit_token not in here:
            check_one_person_a_seat(f"games.{number}.seats", game.seats, into)


def _insert_games(games: list[BackupGame], table_id: int, people: dict[str, int]) -> None:
    """The games with every fact, one executemany per kind of row."""
    rows = [
        {"table_id": table_id, "rules_json": g.rules}
        | {c: getattr(g, c) for c in GAME_COLUMNS if c != "rules"}
        for g in games
    ]
    game_ids = _insert(Game, rows)
    seats, rounds, changes, retired = [], [], [], []
    for game_id, game in zip(game_ids, games, strict=True):
        for position, uid in enumerate(game.seats):
            seats.append({"game_id": game_id, "position": position, "player_id": None})
            seats[-1]["table_player_id"] = people[uid]
        rounds += [(game_id, played) for played in game.rounds]
        changes += [{"game_id": game_id, **c.model_dump()} for c in game.changes]
        retired += [{"game_id": game_id, **link.model_dump()} for link in game.retired_links]
    _insert(Seat, seats, ids=False)
    _insert_rounds(rounds)
    _insert(Change, changes, ids=False)
    _insert(RetiredLink, retired, ids=False)


def _insert_rounds(rounds: list[tuple[int, Any]]) -> None:
    """The rounds, then their hands and buys."""
    rows = [
        {"game_id": game_id, **played.model_dump(exclude={"results", "buys"})}
        for game_id, played in rounds
    ]
    round_ids = _insert(Round, rows)
    results, buys = [], []
    for round_id, (_, played) in zip(round_ids, rounds, strict=True):
        results += [{"round_id": round_id, **r.model_dump()} for r in played.results]
        buys += [{"round_id": round_id, **b.model_dump()} for b in played.buys]
    _insert(RoundResult, results, ids=False)
    _insert(Buy, buys, ids=False)


def _insert(model: Any, rows: list[dict[str, Any]], ids: bool = True) -> list[int]:
    """Insert rows of a model with one executemany; their new ids in the rows' order."""
    if not rows:
        return []
    connection = db.session.connection()
    if not ids:
        connection.execute(insert(model), rows)
        return []
    statement = insert(model).returning(model.id, sort_by_parameter_order=True)
    return list(connection.execute(statement, rows).scalars())
