"""A checked backup's games as rows, made before the write lock; written in bulk under it.

Most of an insert's cost is in Python, not in the database: dumping the file's models and
converting each value by its column's type (JSON to text, times to what the driver takes).
Both are done here while nothing is locked. Under the lock only the ids are filled in and
each kind of row is written with one executemany of the ready values; the ids a later kind
needs are read back in one query (SQLite would run an INSERT … RETURNING one row at a time).
On SQLite, 2,000 games (106,000 rows) cost 0.5 s of CPU under the lock instead of 0.9 s
through SQLAlchemy's own executemany (bench/restore.py; docs/TABLE_RESTORE.md has the figures).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Table, bindparam, insert, select, update

from ..extensions import db
from ..games import seat_links as games_seat_links
from ..models import Buy, Change, Game, RetiredLink, Round, RoundResult, Seat, SeatLink
from .backup_format import BackupGame

Row = dict[str, Any]
CHUNK = 1000  # values per IN (…): well inside every database's limit on parameters


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
    ids: dict[str, int] = {}
    for chunk in chunks([game.token for game in games]):
        query = select(Game.edit_token, Game.id).where(Game.table_id == table_id)
        ids |= dict(db.session.execute(query.where(Game.edit_token.in_(chunk))).tuples().all())
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
    for chunk in chunks(sorted(wanted - ids.keys())):
        query = select(Game.edit_token, Game.id).where(Game.table_id == table_id)
        ids |= dict(db.session.execute(query.where(Game.edit_token.in_(chunk))).tuples().all())
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


def insert_rows(model: Any, rows: list[Row]) -> None:
    """Insert a few rows of a model through its columns' own conversions."""
    if rows:
        db.session.connection().execute(insert(model), rows)


def chunks(values: Sequence[Any]) -> Iterator[Sequence[Any]]:
    """The values a thousand at a time, for queries naming each in IN (…)."""
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]
