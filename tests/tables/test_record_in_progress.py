"""The record reads a table whose game is under way, a round begun with buys or a down mark."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.tables.helpers import BEN_WINS, open_table, play, start_at

pytestmark = pytest.mark.storage


def test_the_record_reads_a_game_whose_round_is_under_way(client: FlaskClient) -> None:
    url = open_table(client)
    game = start_at(client, url, ["Anna", "Ben", "Carla", "Dan"])
    play(game, BEN_WINS[:1])
    assert game.buy("Carla").status_code == 303  # round 2 now has a row of its own
    assert client.post(f"{game.url}/down?down=1", data={"seat": "1"}).status_code == 303
    record = client.get(f"{url}/record")
    assert record.status_code == 200, record.get_data(as_text=True)[:500]
