"""Who is down: the table marks a laid-down contract; buys and joker swaps follow the rules."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.conftest import Table, game_links
from tests.web.test_games import HX, PLAYERS, text
from tests.web.test_house_rules import form_of


def down(table: Table, name: str, mark: bool = True) -> str:
    response = table.client.post(
        f"{table.url}/down",
        data={"seat": table.seat(name), "down": "1" if mark else "0"},
        headers=HX,
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    return text(response.get_data(as_text=True))


def house_rules(client: FlaskClient, **changes: str) -> str:
    """Save May I? with some changes as house rules; their key."""
    rules = ruleset_to_dict(MAY_I) | {"name": "Ours"}
    assert client.post("/house-rules/", data=form_of(rules, **changes)).status_code == 303
    return "house-1"


def test_a_mark_shows_on_the_edit_and_the_view_phone(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    assert "Down: Ben." in down(table, "Ben")
    assert "Down: Ben, Anna." in down(table, "Anna")
    _, view = game_links(app)
    viewer = app.test_client()
    page = text(viewer.get(f"/g/1/{view}").get_data(as_text=True))
    assert "Down: Ben, Anna." in page
    assert viewer.post(f"/g/1/{view}/down", data={"seat": 2, "down": "1"}).status_code == 403


def test_a_mark_is_taken_back_or_undone_and_twice_is_once(table: Table) -> None:
    table.start(PLAYERS)
    down(table, "Ben")
    assert "Down: Ben." in down(table, "Ben")  # a second phone's tap changes nothing
    assert "Down:" not in down(table, "Ben", mark=False)
    down(table, "Carla")
    table.client.post(f"{table.url}/undo")
    assert "Down:" not in text(table.page())
    history = text(table.page("/sheet"))
    assert "Round 1: Carla laid down the contract" in history
    assert "Round 1: Ben is not down after all" in history


def test_marks_belong_to_their_round(table: Table) -> None:
    table.start(PLAYERS)
    down(table, "Ben")
    table.end_round(1, "Ben", {"Anna": 5, "Carla": 5, "Dan": 5})
    assert "Down:" not in text(table.page())


def test_with_no_buying_once_down_a_down_player_is_refused(
    client: FlaskClient, table: Table
) -> None:
    key = house_rules(client, **{"buys__no_buy_after_contract_down": "on"})
    table.start(PLAYERS, ruleset=key)
    assert table.buy("Ben").status_code == 303
    assert "A player whose contract is down may not buy." in down(table, "Ben")
    refused = client.post(f"{table.url}/buys", data={"seat": 1}, headers=HX)
    assert refused.status_code == 422
    assert "Nobody may buy once their contract is down." in refused.get_data(as_text=True)
    assert table.buy("Carla").status_code == 303


def test_without_the_rule_a_down_player_may_buy(table: Table) -> None:
    table.start(PLAYERS)
    down(table, "Ben")
    assert table.buy("Ben").status_code == 303


def test_the_arbiter_passes_over_a_down_player(client: FlaskClient, table: Table) -> None:
    key = house_rules(client, **{"buys__no_buy_after_contract_down": "on"})
    table.start(PLAYERS, ruleset=key)
    down(table, "Ben")
    ruling = client.post(
        f"{table.url}/arbiter", data={"discarder": 0, "callers": [1, 2]}, headers=HX
    ).get_data(as_text=True)
    assert "Nobody may buy once their contract is down." in ruling
    assert "Carla" in text(ruling)


def test_the_round_screen_says_who_may_swap_a_joker(table: Table) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    assert "May swap a joker" not in text(table.page())
    assert "May swap a joker from a later turn than the one they laid down on: Dan." in down(
        table, "Dan"
    )
    table_may_i = Table(table.client)
    table_may_i.start(PLAYERS)
    assert "May swap a joker" not in down(table_may_i, "Dan")
