"""Storing a checked backup: under the write lock, only what the database lacks, in bulk.

Everything slow (reading the file, replaying its games, dumping its models and converting each
value by its column's type) is done before the lock: the file's games become rows whose values
are ready for the driver. Here restores take their turn (SQLite's write lock at BEGIN, as a
game's change takes it; on PostgreSQL an advisory lock and the table's row), read what is
already here, refuse a file that clashes with it, and write the rest with one executemany per
kind of row in one short transaction; the ids a later kind needs are read back in one query
(SQLite would run an INSERT … RETURNING one row at a time). On SQLite, 2,000 games (106,000
rows) cost 0.5 s of CPU under the lock instead of 0.9 s through SQLAlchemy's own executemany
(docs/TABLE_RESTORE.md has the figures and the bench). Nothing already stored is changed:
not the table, its links, a person (name, merge) or a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Table, bindparam, func, insert, select, update

from ...database import lock_writes
from ...extensions import db
from ...games import seat_links as games_seat_links
from ...models import (
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
    SeatLink,
    TablePlayer,
)
from ...rules.messages import N_, msg
from .evenings import insert_parties
from .format import Backup, BackupGame, BackupRefused, check_one_person_a_seat, refused_at
from .replay import Replayed
from .rows import found_in, insert_rows

Row = dict[str, Any]


@dataclass(frozen=True)
class GameRows:
    """One game's rows, their values ready for the driver, without the ids they refer to."""

    token: str
    rematch: str | None  # the edit link of the game Play again started after this one
    game: Row
    seats: list[str]
    rounds: list[tuple[Row, list[Row], list[Row]]]  # each round, its hands and its buys
    changes: list[Row]
    retired: list[Row]
    seat_links: list[Row]


def game_rows(game: BackupGame) -> GameRows:
    """A game of the file as the rows that store it."""
    parts = {"rules", "seats", "rounds", "changes", "retired_links", "rematch", "seat_links"}
    row = game.model_dump(exclude=parts)
    rounds = [
        (
            ready(Round, played.model_dump(exclude={"results", "buys"})),
            [ready(RoundResult, result.model_dump()) for result in played.results],
            [ready(Buy, buy.model_dump()) for buy in played.buys],
        )
        for played in game.rounds
    ]
    return GameRows(
        token=game.edit_token,
        rematch=game.rematch,
        game=ready(Game, row | {"rules_json": game.rules}),
        seats=game.seats,
        rounds=rounds,
        changes=[ready(Change, change.model_dump()) for change in game.changes],
        retired=[ready(RetiredLink, link.model_dump()) for link in game.retired_links],
        seat_links=[ready(SeatLink, link.model_dump()) for link in game.seat_links],
    )


def ready(model: Any, row: Row) -> Row:
    """A row's values as the database's driver takes them, each converted by its column's type."""
    converters = _converters(model.__table__, db.engine.dialect.name)
    return {key: _converted(converters[key], value) for key, value in row.items()}


def _converted(convert: Any, value: Any) -> Any:
    return value if convert is None else convert(value)


# Not game data: each column's conversion per table model and database kind, a fixed few.
@lru_cache(maxsize=64)
def _converters(table: Table, _dialect: str) -> dict[str, Any]:
    """Each column's conversion for this database, None where a value goes as it is."""
    dialect = db.engine.dialect
    return {c.key: c.type.dialect_impl(dialect).bind_processor(dialect) for c in table.columns}


def insert_games(games: Sequence[GameRows], table_id: int, people: dict[str, int]) -> None:
    """Write the games of a table with every fact: one executemany per kind of row."""
    if not games:
        return
    write_ready(Game, [game.game | {"table_id": table_id} for game in games])
    ids = _game_ids(table_id, [game.token for game in games])
    seats, rounds, changes, retired, seat_links = [], [], [], [], []
    for game in games:
        game_id = ids[game.token]
        seats += [
            {"game_id": game_id, "position": position, "table_player_id": people[uid]}
            for position, uid in enumerate(game.seats)
        ]
        played = (row for row, _, _ in game.rounds)
        for row in [*played, *game.changes, *game.retired, *game.seat_links]:
            row["game_id"] = game_id  # the rows were made for this: filled in, not copied
        rounds += game.rounds
        changes += game.changes
        retired += game.retired
        seat_links += game.seat_links
    write_ready(Seat, seats)
    write_ready(SeatLink, seat_links)
    # A file from before seat links were kept: each seat gets a new one, as a new game's does.
    games_seat_links.create_missing({ids[game.token]: len(game.seats) for game in games})
    _insert_rounds(rounds, table_id, set(ids.values()))
    write_ready(Change, changes)
    write_ready(RetiredLink, retired)
    _link_rematches(games, table_id, ids)


def _link_rematches(games: Sequence[GameRows], table_id: int, ids: dict[str, int]) -> None:
    """Record each written game's rematch, a game of the file written now or the table's."""
    wanted = {game.rematch for game in games if game.rematch is not None}
    ids |= _game_ids(table_id, sorted(wanted - ids.keys()))
    rows = [
        {"game": ids[game.token], "next": ids[game.rematch]}
        for game in games
        if game.rematch is not None and game.rematch in ids
    ]
    if rows:
        statement = update(Game).where(Game.id == bindparam("game"))
        db.session.connection().execute(statement.values(rematch_id=bindparam("next")), rows)


def _insert_rounds(
    rounds: list[tuple[Row, list[Row], list[Row]]], table_id: int, game_ids: set[int]
) -> None:
    """The rounds, then their hands and buys, under the ids the rounds were given."""
    write_ready(Round, [row for row, _, _ in rounds])
    tables_games = select(Game.id).where(Game.table_id == table_id)
    query = select(Round.id, Round.game_id, Round.number).where(Round.game_id.in_(tables_games))
    ids = {(g, n): i for i, g, n in db.session.execute(query).tuples() if g in game_ids}
    results, buys = [], []
    for row, hands, bought in rounds:
        round_id = ids[row["game_id"], row["number"]]
        for fact in [*hands, *bought]:
            fact["round_id"] = round_id
        results += hands
        buys += bought
    write_ready(RoundResult, results)
    write_ready(Buy, buys)


def write_ready(model: Any, rows: list[Row]) -> None:
    """Insert rows whose values are ready (`ready`; ids are plain numbers) with one
    executemany, in their order: their ids keep it."""
    if not rows:
        return
    connection = db.session.connection()
    # inline: no RETURNING of the new ids, which an executemany cannot use.
    statement = insert(model).inline().compile(dialect=connection.dialect, column_keys=[*rows[0]])
    names = statement.positiontup  # a positional paramstyle (SQLite's ?) wants them in order
    values = rows if names is None else [tuple(row[name] for name in names) for row in rows]
    connection.exec_driver_sql(statement.string, values)


def _game_ids(table_id: int, tokens: Sequence[str]) -> dict[str, int]:
    """The ids of the table's games with these edit links."""
    query = select(Game.edit_token, Game.id).where(Game.table_id == table_id)
    return found_in(query, Game.edit_token, tokens)


RESTORES = 0x5C0BE  # the PostgreSQL advisory lock restores take turns on


@dataclass(frozen=True)
class Stored:
    """What a restore wrote: the table (new or found), and what it added to it."""

    table_id: int
    players_added: int
    games_added: int
    table_added: bool
    present: frozenset[str]  # the file's games the table had already, by edit link
    evenings_added: int = 0


def store(backup: Backup, rows: Sequence[GameRows], new_sets: Sequence[HouseRules]) -> Stored:
    """Add what the database lacks of the backup in one transaction, or refuse the file.

    `rows` are the file's games as rows (game_rows), made before the lock.
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
    evenings = insert_parties(backup, table_id, people)
    db.session.add_all(new_sets)
    db.session.commit()
    present = frozenset(token for token, owner in here.items() if owner == table_id)
    return Stored(table_id, people_added, len(new_games), added, present, evenings)


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
    query = select(TablePlayer.uid, TablePlayer.id)
    elsewhere = found_in(query, TablePlayer.uid, [p.uid for _, p in new])
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
    query = select(Game.edit_token, Game.table_id)
    return found_in(query, Game.edit_token, [game.edit_token for game in games])


def _check_seats(backup: Backup, here: dict[str, int | None], table_id: int) -> None:
    """No new game seats one person twice, counting the table's merges as they are now."""
    query = select(TablePlayer.uid, TablePlayer.merged_into_id, TablePlayer.id)
    rows = db.session.execute(query.where(TablePlayer.table_id == table_id)).all()
    uid_of = {row.id: row.uid for row in rows}
    into = {row.uid: uid_of.get(row.merged_into_id or 0) for row in rows}
    for number, game in enumerate(backup.games):
        if game.edit_token not in here:
            check_one_person_a_seat(f"games.{number}.seats", game.seats, into)
