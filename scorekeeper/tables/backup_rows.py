"""A checked backup's games as rows, made before the write lock; written in bulk under it.

Making the rows (every model_dump) costs more than writing them, so it is done while nothing
is locked. Under the lock only the ids are filled in: each kind of row is written with one
executemany, and the ids a later kind needs are read back in one query (SQLite would run an
INSERT … RETURNING one row at a time).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select

from ..extensions import db
from ..models import Buy, Change, Game, RetiredLink, Round, RoundResult, Seat
from .backup_format import BackupGame

Row = dict[str, Any]
CHUNK = 1000  # values per IN (…): well inside every database's limit on parameters


@dataclass(frozen=True)
class GameRows:
    """One game's rows without their ids: the game, its seats (by person), rounds, history."""

    token: str
    game: Row
    seats: list[str]
    rounds: list[tuple[Row, list[Row], list[Row]]]  # each round, its hands and its buys
    changes: list[Row]
    retired: list[Row]


def game_rows(game: BackupGame) -> GameRows:
    """A game of the file as the rows that store it."""
    row = game.model_dump(exclude={"rules", "seats", "rounds", "changes", "retired_links"})
    rounds = [
        (
            played.model_dump(exclude={"results", "buys"}),
            [result.model_dump() for result in played.results],
            [buy.model_dump() for buy in played.buys],
        )
        for played in game.rounds
    ]
    return GameRows(
        token=game.edit_token,
        game=row | {"rules_json": game.rules},
        seats=game.seats,
        rounds=rounds,
        changes=[change.model_dump() for change in game.changes],
        retired=[link.model_dump() for link in game.retired_links],
    )


def insert_games(games: Sequence[GameRows], table_id: int, people: dict[str, int]) -> None:
    """Write the games of a table with every fact: one executemany per kind of row."""
    if not games:
        return
    insert_rows(Game, [game.game | {"table_id": table_id} for game in games])
    tokens = [game.token for game in games]
    ids: dict[str, int] = {}
    for chunk in chunks(tokens):
        query = select(Game.edit_token, Game.id).where(Game.table_id == table_id)
        ids |= dict(db.session.execute(query.where(Game.edit_token.in_(chunk))).tuples().all())
    seats, rounds, changes, retired = [], [], [], []
    for game in games:
        game_id = ids[game.token]
        seats += [
            {"game_id": game_id, "position": position, "table_player_id": people[uid]}
            for position, uid in enumerate(game.seats)
        ]
        for row in [*(played for played, _, _ in game.rounds), *game.changes, *game.retired]:
            row["game_id"] = game_id  # the rows were made for this: filled in, not copied
        rounds += game.rounds
        changes += game.changes
        retired += game.retired
    insert_rows(Seat, seats)
    _insert_rounds(rounds, table_id, set(ids.values()))
    insert_rows(Change, changes)
    insert_rows(RetiredLink, retired)


def _insert_rounds(
    rounds: list[tuple[Row, list[Row], list[Row]]], table_id: int, game_ids: set[int]
) -> None:
    """The rounds, then their hands and buys, under the ids the rounds were given."""
    insert_rows(Round, [row for row, _, _ in rounds], ordered=False)
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
    insert_rows(RoundResult, results, ordered=False)
    insert_rows(Buy, buys)


def insert_rows(model: Any, rows: list[Row], ordered: bool = True) -> None:
    """Insert rows of a model with one executemany, in their order (their ids keep it).

    Rows whose order means nothing (rounds by number, hands by seat) are written in groups
    by the columns they give: a None left out is SQL NULL, as the ORM writes a column it was
    not given, and the many rounds and hands without tapped cards serialise no JSON null.
    """
    groups: dict[tuple[str, ...], list[Row]] = {(): rows}
    if not ordered:
        groups = {}
        for row in rows:
            given = {key: value for key, value in row.items() if value is not None}
            groups.setdefault(tuple(sorted(given)), []).append(given)
    connection = db.session.connection()
    for group in groups.values():
        if group:
            connection.execute(insert(model), group)


def chunks(values: Sequence[Any]) -> Iterator[Sequence[Any]]:
    """The values a thousand at a time, for queries naming each in IN (…)."""
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]
