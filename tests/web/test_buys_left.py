"""Every "buys left" the round screen and the display show is what the next buy is allowed."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.presets import MAY_I
from tests.conftest import Table
from tests.web.test_games import PLAYERS, text
from tests.web.test_house_rules import may_i_form, saved_rules

# The buys a game has stored, counted against its caps: on both databases.
pytestmark = pytest.mark.storage


def buys_shown(table: Table, name: str, path: str = "") -> str:
    """What a player's row of the buys region says, or the display's line for them."""
    page = table.page(path)
    if path == "/display":
        row = re.search(rf'<span class="name"[^>]*>{name}</span>.*?</li>', page, re.S)
    else:
        row = re.search(rf'data-testid="buys-{table.seat(name)}">(.*?)</span>', page, re.S)
    assert row is not None
    return text(row.group(0)).strip()


def start_with(client: FlaskClient, table: Table, app: object, **changes: str) -> None:
    """Save a May I? house set with these changes through the editor, and start a game of it."""
    assert client.post("/house-rules/", data=may_i_form(**changes)).status_code == 303
    [(_, rules)] = saved_rules(app)  # type: ignore[arg-type]
    table.start(PLAYERS, ruleset=rules.key)


def test_after_five_of_five_buys_a_game_none_are_left(
    app: object, client: FlaskClient, table: Table
) -> None:
    start_with(client, table, app, **{"buys.cap_per_game": "5"})
    for _ in range(3):
        assert table.buy("Ben").status_code == 303
    assert "0 buys left (3/3, 3/5 this game)" in buys_shown(table, "Ben")
    assert table.end_round(1, "Anna", {"Ben": 30, "Carla": 5, "Dan": 5}).status_code == 303
    assert "2 buys left (0/3, 3/5 this game)" in buys_shown(table, "Ben")
    assert "3 buys left (0/3, 0/5 this game)" in buys_shown(table, "Carla")
    for _ in range(2):
        assert table.buy("Ben").status_code == 303
    assert "0 buys left (2/3, 5/5 this game)" in buys_shown(table, "Ben")
    assert "0 buys left" in buys_shown(table, "Ben", "/display")
    refused = table.buy("Ben")
    assert refused.status_code == 422
    assert "The limit of 5 buys per game is reached." in text(refused.get_data(as_text=True))


def test_a_game_cap_alone_counts_down_the_game(
    app: object, client: FlaskClient, table: Table
) -> None:
    start_with(client, table, app, **{"buys.cap_per_round": "", "buys.cap_per_game": "2"})
    assert "2 buys left (0/2 this game)" in buys_shown(table, "Carla")
    table.buy("Carla")
    table.buy("Carla")
    assert "0 buys left (2/2 this game)" in buys_shown(table, "Carla")
    assert "0 buys left" in buys_shown(table, "Carla", "/display")


def test_nobody_who_may_not_buy_once_down_has_buys_left(
    app: object, client: FlaskClient, table: Table
) -> None:
    start_with(client, table, app, **{"buys.no_buy_after_contract_down": "on"})
    assert table.client.post(f"{table.url}/down?down=1", data={"seat": "2"}).status_code == 303
    assert "0 buys left (0/3)" in buys_shown(table, "Carla")
    assert "3 buys left (0/3)" in buys_shown(table, "Dan")
    assert table.buy("Carla").status_code == 422


def test_after_the_stock_ended_the_round_no_buy_is_left(table: Table) -> None:
    table.start(PLAYERS)
    table.buy("Ben")
    table.run_out()
    table.run_out()
    assert "0 buys left (1/3)" in buys_shown(table, "Ben")
    assert "0 buys left (0/3)" in buys_shown(table, "Anna")
    assert "0 buys left" in buys_shown(table, "Anna", "/display")
    assert MAY_I.buys.cap_per_game is None
