"""Helpers for card party tests: start an evening at a table and finish its tables' games."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.games.facts import read_game
from scorekeeper.models import CardParty, PartyGame, TablePlayer
from tests.conftest import Table
from tests.tables.helpers import open_table

ROUNDS = 7  # May I?'s rounds


def start_party(client: FlaskClient, names: list[str], **fields: str) -> tuple[str, str]:
    """Open a table and start an evening with these new names; the table's and the evening's
    URL."""
    table_url = open_table(client)
    data = {"new_names": "\n".join(names), "ruleset": "may-i", "rotation": "mix"}
    data |= {"rotate_every": "1", "tables": ""} | fields
    response = client.post(f"{table_url}/party", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return table_url, str(response.headers["Location"])


def version_of(app: Flask, party_id: int = 1) -> int:
    """The evening's version now."""
    with app.app_context():
        return db.session.get_one(CardParty, party_id).version


def posted_seating(page: str) -> str:
    """The seating a page's confirm form posts."""
    found = re.search(r'name="seating" value="([^"]*)"', page)
    assert found, page
    return found.group(1)


def confirm(client: FlaskClient, party_url: str) -> None:
    """Press Start (or Start round N) on the evening's page."""
    page = client.get(party_url).get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version
    data = {"version": version.group(1), "seating": posted_seating(page)}
    response = client.post(f"{party_url}/confirm", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)


def games_of(app: Flask, client: FlaskClient, party_round: int, party_id: int = 1) -> list[Table]:
    """The evening round's games as Table helpers on their edit links, table 1 first."""
    with app.app_context():
        query = select(PartyGame.game_id).where(
            PartyGame.party_id == party_id, PartyGame.round == party_round
        )
        games = []
        for game_id in db.session.scalars(query.order_by(PartyGame.table_number)):
            facts = read_game(game_id)
            assert facts is not None
            games.append((game_id, facts.edit_token, [seat.name for seat in facts.seats]))
    tables = []
    for game_id, token, names in games:
        table = Table(client)
        table.url, table.names = f"/g/{game_id}/{token}", names
        tables.append(table)
    return tables


def finish(game: Table, order: list[str]) -> None:
    """Play the game's seven rounds so its people finish in this order (first: lowest total):
    the first goes out every round, the others hold 5, 10, 15, … points."""
    hands: dict[str, int | str] = {name: 5 * place for place, name in enumerate(order) if place}
    for number in range(1, ROUNDS + 1):
        response = game.end_round(number, order[0], hands, anyway=True)
        assert response.status_code == 303, response.get_data(as_text=True)


def person_id(app: Flask, name: str) -> int:
    """A table person's id by name."""
    with app.app_context():
        return int(db.session.scalar(select(TablePlayer.id).where(TablePlayer.name == name)) or 0)
