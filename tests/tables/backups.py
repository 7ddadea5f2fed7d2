"""Helpers for backup tests: every stored fact by what it names, a played table, an upload."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.models import (
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
from scorekeeper.rules.presets import MAY_I, PRESETS
from tests.databases import close, make_app, sqlite_copy
from tests.tables.helpers import BEN_WINS, TIED_GAME, open_table, play, start_at

Facts = dict[str, list[tuple[Any, ...]]]
MODELS = (
    CardTable,
    RetiredTableLink,
    TablePlayer,
    Game,
    Seat,
    Round,
    RoundResult,
    Buy,
    Change,
    RetiredLink,
    SeatLink,
    HouseRules,
)


def stored_facts(app: Flask) -> Facts:
    """Every stored fact of every table, ids replaced by what they name (uids, links, numbers)."""
    with app.app_context():
        tables = {t.id: t.uid for t in db.session.scalars(select(CardTable))}
        people = {p.id: p.uid for p in db.session.scalars(select(TablePlayer))}
        games = {g.id: g.edit_token for g in db.session.scalars(select(Game))}
        rounds = {r.id: (games[r.game_id], r.number) for r in db.session.scalars(select(Round))}
        names = {
            "table_id": tables.get,
            "merged_into_id": people.get,
            "table_player_id": people.get,
            "game_id": games.get,
            "rematch_id": games.get,
            "round_id": rounds.get,
        }
        facts: Facts = {}
        for model in MODELS:
            rows = []
            for row in db.session.scalars(select(model)):
                values = {c.name: getattr(row, c.key) for c in model.__table__.columns}
                values.pop("id")
                if model is HouseRules:
                    values.pop("token")  # a restored set gets a fresh secret of its own
                named = {k: names[k](v) if k in names else v for k, v in values.items()}
                rows.append(
                    tuple(sorted((k, json.dumps(v, default=str)) for k, v in named.items()))
                )
            facts[model.__tablename__] = sorted(rows)
        db.session.remove()
        return facts


def nothing_stored(app: Flask) -> bool:
    """Whether the installation holds no row at all."""
    return all(rows == [] for rows in stored_facts(app).values())


def empty(app: Flask) -> None:
    """Delete every row: an empty installation on the same database."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
        db.session.remove()


def upload(client: FlaskClient, data: bytes, **headers: str) -> TestResponse:
    """Send a file to the restore form."""
    return client.post(
        "/tables/import",
        data={"backup": (io.BytesIO(data), "backup.json")},
        content_type="multipart/form-data",
        headers=headers,
    )


def encoded(backup: dict[str, Any]) -> bytes:
    """A backup as a file's bytes."""
    return json.dumps(backup).encode()


def backup_of(client: FlaskClient, table_url: str) -> dict[str, Any]:
    """The table's backup, as data."""
    response = client.get(f"{table_url}/backup.json")
    assert response.status_code == 200
    backup: dict[str, Any] = json.loads(response.get_data())
    return backup


def hold_sets(client: FlaskClient, *saved: HouseRules) -> None:
    """Let this browser hold the sets' links, as if it had saved them: a backup holds only those."""
    with client.session_transaction() as session:
        session["house_rules"] = [
            *session.get("house_rules", []),
            *([s.id, s.token] for s in saved),
        ]


def save_house_rules(app: Flask, client: FlaskClient) -> None:
    """Two saved house rule sets, one of them edited since."""
    with app.app_context():
        club = house_rules.create("Club rules", MAY_I)
        other = house_rules.create("Short evenings", MAY_I)
        house_rules.update(other, "Short evenings", PRESETS["liverpool"])
        hold_sets(client, club, other)


def played_table(app: Flask, client: FlaskClient) -> str:
    """A table with a finished game, a tied one, a buy, an undone change, a merge, house rules,
    and a game in play with a player marked down."""
    save_house_rules(app, client)
    url = open_table(client)
    first = start_at(client, url, ["Anna", "Ben", "Carla", "Dan"])
    first.buy("Ben")
    first.buy("Carla")
    client.post(f"{first.url}/undo")
    play(first, BEN_WINS)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), TIED_GAME)
    in_play = start_at(client, url, ["Anne", "Ben"])
    assert client.post(f"{in_play.url}/down", data={"seat": 1, "down": 1}).status_code == 303
    with app.app_context():
        ids = dict(db.session.execute(select(TablePlayer.name, TablePlayer.id)).tuples().all())
    client.post(f"{url}/merge", data={"merged": ids["Anne"], "into": ids["Anna"]})
    return url


@contextmanager
def scratch_client(template: Path, folder: Path) -> Iterator[tuple[Flask, FlaskClient]]:
    """An app and client on a scratch copy of the migrated SQLite template: for a backup a
    module makes once and every test restores a copy of (a played game costs a quarter second)."""
    app = make_app(sqlite_copy(template, folder), str(folder))
    try:
        yield app, app.test_client()
    finally:
        close(app)
