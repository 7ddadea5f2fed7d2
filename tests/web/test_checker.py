"""The meld and contract checker on the round screen, under the game's own rules."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.conftest import Table, game_links
from tests.web.test_games import HX, PLAYERS, text
from tests.web.test_house_rules import form_of


def check(table: Table, cards: str, kind: str = "laydown", **extra: str) -> str:
    """Ask the checker; the verdict it shows."""
    response = table.client.get(
        f"{table.url}/check",
        query_string={"cards": cards, "kind": kind, "op": "check", **extra},
        headers=HX,
    )
    assert response.status_code == 200
    verdict = re.search(r'data-testid="verdict">([^<]*)<', response.get_data(as_text=True))
    assert verdict is not None
    return verdict.group(1)


def test_round_ones_contract_is_checked(table: Table) -> None:
    table.start(PLAYERS)
    assert check(table, "7H 7S 7D | 9C 9D JK") == "Valid under this game's rules."
    assert check(table, "7H 7S 7D") == "This contract is 2 melds, not 1."


@pytest.mark.parametrize(
    ("ruleset", "meld", "valid"),
    [("may-i", "QH KH AH JK", False), ("aces-high", "QH KH AH JK", True)],
)
def test_a_run_follows_the_games_aces(table: Table, ruleset: str, meld: str, valid: bool) -> None:
    table.start(PLAYERS, ruleset=ruleset)
    verdict = check(table, meld, kind="run")
    assert (verdict == "Valid under this game's rules.") == valid, verdict


def test_a_bad_card_is_named(table: Table) -> None:
    table.start(PLAYERS)
    assert "XX" in check(table, "7H XX 7D", kind="book")


def test_taps_build_the_melds_in_the_chosen_suit(table: Table) -> None:
    table.start(PLAYERS)
    url = f"{table.url}/check"
    page = table.client.get(url, query_string={"cards": "7H", "add": "7", "suit": "S"}, headers=HX)
    assert 'value="7H 7S"' in page.get_data(as_text=True)
    page = table.client.get(url, query_string={"cards": "7H 7S", "op": "next"}, headers=HX)
    assert 'value="7H 7S |"' in page.get_data(as_text=True)
    page = table.client.get(url, query_string={"cards": "7H 7S |", "add": "JK"}, headers=HX)
    assert 'value="7H 7S | JK"' in page.get_data(as_text=True)
    page = table.client.get(url, query_string={"cards": "7H 7S | JK", "op": "back"}, headers=HX)
    assert 'value="7H 7S |"' in page.get_data(as_text=True)


def test_the_view_phone_may_check_too(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    _, view = game_links(app)
    response = app.test_client().get(
        f"/g/1/{view}/check", query_string={"cards": "7H 7S 7D", "kind": "book", "op": "check"}
    )
    assert "Valid under this game's rules." in response.get_data(as_text=True)


def test_wild_twos_of_a_house_set_are_wild_in_the_checker(
    client: FlaskClient, table: Table
) -> None:
    rules = ruleset_to_dict(MAY_I) | {"name": "Ours"}
    client.post("/house-rules/", data=form_of(rules, melds__wild_twos="on"))
    table.start(PLAYERS, ruleset="house-1")
    assert check(table, "7H 7S 2C", kind="book") == "Valid under this game's rules."
    table_may_i = Table(table.client)
    table_may_i.start(PLAYERS)
    assert check(table_may_i, "7H 7S 2C", kind="book") != "Valid under this game's rules."


@pytest.mark.parametrize("language", ["de", "nl", "es"])
def test_the_verdict_speaks_the_tables_language(table: Table, language: str) -> None:
    table.start(PLAYERS)
    verdict = check(table, "7H 7S 7D", kind="book", **{})
    translated = table.client.get(
        f"{table.url}/check",
        query_string={"cards": "7H 7S 7D", "kind": "book", "op": "check"},
        headers=HX | {"Accept-Language": language},
    ).get_data(as_text=True)
    assert verdict not in text(translated)


def test_three_of_one_card_are_refused_with_two_decks_as_the_tally_counts(table: Table) -> None:
    table.start(PLAYERS)
    assert check(table, "7H 7H 7H", kind="book") == "Only 2 copies of 7♥ are in play."
    assert check(table, "7H 7H 7S", kind="book") == "Valid under this game's rules."
    refused = check(table, "7H 7S 7D | 7H 7C 7H")  # the laydown's melds count together
    assert refused == "Only 2 copies of 7♥ are in play."
    assert check(table, "JK JK JK JK JK 9C 9D", kind="book") == "Only 4 jokers are in play."


def test_three_decks_hold_three_of_one_card(table: Table) -> None:
    table.start(["Anna", "Ben", "Carla", "Dan", "Eve", "Finn", "Gus"])  # 7 players: 3 decks
    assert check(table, "7H 7H 7H", kind="book") == "Valid under this game's rules."
    assert check(table, "7H 7H 7H 7H", kind="book") == "Only 3 copies of 7♥ are in play."
