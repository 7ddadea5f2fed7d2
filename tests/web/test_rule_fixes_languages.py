"""Each rule fix of docs/RULES.md 4, 6, 7 and 8 as the table reads it, in every language."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.config import LANGUAGES
from scorekeeper.models import RoundResult
from tests.conftest import Table
from tests.web.test_games import HX, PLAYERS, TIED_GAME, count, play, text

TWICE = {
    "en": "Ben: Nobody may buy twice in a row.",
    "de": "Ben: Niemand darf zweimal hintereinander kaufen.",
    "nl": "Ben: Niemand mag twee keer achter elkaar kopen.",
    "es": "Ben: Nadie puede comprar dos veces seguidas.",
    "fr": "Ben : Personne ne peut acheter deux fois de suite.",
}
ROUND_SEVEN = {
    "en": "Round 7: all 13 cards go down at once, which 3 runs of exact length cannot hold",
    "de": "Runde 7: Alle 13 Karten werden auf einmal ausgelegt, was 3 Folgen in genauer Länge",
    "nl": "Ronde 7: alle 13 kaarten gaan in één keer neer, wat 3 reeksen van precieze lengte",
    "es": "Ronda 7: las 13 cartas se colocan de una vez, y 3 escaleras de longitud exacta",
    "fr": "Manche 7 : les 13 cartes sont posées d’un coup, ce que 3 suites de longueur exacte",
}
COMMON_LIST = {
    "en": "The ten deals are the common list",
    "de": "Die zehn Runden sind die übliche Liste",
    "nl": "De tien rondes zijn de gangbare lijst",
    "es": "Las diez rondas son la lista habitual",
    "fr": "Les dix manches suivent la liste courante",
}
CUTTER_ONLY = {
    "en": "Only the player who cut this round can earn the cut bonus.",
    "de": "Nur wer in dieser Runde abgehoben hat, kann den Abhebebonus bekommen.",
    "nl": "Alleen wie deze ronde coupeerde, kan de coupurebonus krijgen.",
    "es": "Solo quien cortó en esta ronda puede ganar la bonificación por corte.",
    "fr": "Seul le joueur qui a coupé dans cette manche peut gagner le bonus de coupe.",
}
PROPER = {
    "en": "Contract Rummy proper",
    "de": "Contract Rummy (Original)",
    "nl": "Contract Rummy (origineel)",
    "es": "Contract Rummy original",
    "fr": "Rami Contrat d’origine",
}


def speak(table: Table, language: str) -> None:
    """Every later request of this table asks for the language."""
    table.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_buyer_of_the_card_above_is_refused_in_every_language(
    table: Table, language: str
) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    speak(table, language)
    table.buy("Ben")
    below = {"discarder": "3", "callers": ["1"], "bought_above": "1"}
    ruling = table.client.post(f"{table.url}/arbiter", data=below, headers=HX)
    assert TWICE[language] in text(ruling.get_data(as_text=True))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_plain_buy_after_a_buy_is_recorded_in_every_language(table: Table, language: str) -> None:
    table.start(PLAYERS, ruleset="liverpool")
    speak(table, language)
    assert table.buy("Ben").status_code == 303
    assert table.buy("Ben").status_code == 303


@pytest.mark.parametrize("language", LANGUAGES)
def test_sheet_round_seven_says_its_exact_length_is_lifted(table: Table, language: str) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    play(table, TIED_GAME[:6])
    speak(table, language)
    assert ROUND_SEVEN[language] in text(table.page())


@pytest.mark.parametrize("language", LANGUAGES)
def test_shanghai_card_says_its_list_is_the_common_one(table: Table, language: str) -> None:
    table.start(PLAYERS, ruleset="shanghai")
    speak(table, language)
    assert COMMON_LIST[language] in text(table.page("/rules"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_liverpool_refuses_the_bonus_to_a_non_cutter_in_every_language(
    app: Flask, table: Table, language: str
) -> None:
    table.start(PLAYERS, ruleset="liverpool")
    speak(table, language)
    refused = table.end_round(1, "Anna", {"Ben": 20, "Carla": 30, "Dan": 40}, cut="Ben")
    assert refused.status_code == 422
    assert count(app, RoundResult) == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_contract_rummy_proper_is_offered_in_every_language(table: Table, language: str) -> None:
    speak(table, language)
    form = text(table.client.get("/games/new").get_data(as_text=True))
    assert PROPER[language] in form


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_api_names_the_cutter_rule_in_every_language(
    client: FlaskClient, language: str
) -> None:
    body = {"ruleset": "liverpool", "players": PLAYERS, "first_dealer": 0}
    game = client.post("/api/v1/games", json=body).json
    assert game is not None
    headers = {
        "Authorization": f"Bearer {game['links']['edit_token']}",
        "Accept-Language": language,
    }
    hands = {str(seat): {"points": 10} for seat in (1, 2, 3)}
    result = {"went_out": 0, "hands": hands, "cut_bonus_seat": 1}
    refused = client.put(f"/api/v1/games/{game['id']}/rounds/1", json=result, headers=headers)
    assert refused.status_code == 422
    assert refused.json is not None
    assert refused.json["errors"]["cut_bonus_seat"] == [CUTTER_ONLY[language]]
