"""A house rule set made through the API: its card and round screen say every house rule."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.presets import MAY_I, STANDARD_ROUNDS
from scorekeeper.rules.ruleset import BuyRules, DealPasses, MeldRules, ScoringRules
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.web.test_games import text

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]
HOUSE = MAY_I.with_changes(
    key="house",
    name="Our house",
    rounds=(replace(STANDARD_ROUNDS[0], buy_cap=0), *STANDARD_ROUNDS[1:]),
    buys=BuyRules(cap_per_round=None, cap_per_game=5),
    melds=MeldRules(wild_twos=True, max_wilds_per_meld=1),
    scoring=ScoringRules(values={**ScoringRules().values, "2": 20}),
    deal_passes=DealPasses.WINNER,
    shuffle_on_reform=False,
)
# (card sentence, round-screen sentence or None) per language.
SAID: dict[str, list[tuple[str, str | None]]] = {
    "en": [
        ("At most 5 buys per game.", None),
        ("Round 1: no buying.", "No buying this round."),
        ("The deal passes to whoever went out last round", None),
        ("Every 2 is wild as well; a 2 left in hand counts 20.", "2s are wild; a 2 left"),
        ("At most 1 wild card in one meld.", "At most 1 wild card in one meld."),
        ("2: 20 points.", None),
        ("without shuffling", "turn the discards over, unshuffled, once"),
    ],
    "de": [
        ("Höchstens 5 Käufe pro Spiel.", None),
        ("Runde 1: kein Kaufen.", "In dieser Runde wird nicht gekauft."),
        ("Geben darf, wer in der letzten Runde ausgegangen ist", None),
        (
            "Auch jede 2 ist ein Platzhalter; eine 2 auf der Hand zählt 20.",
            "Zweier sind Platzhalter",
        ),
        ("Höchstens 1 Platzhalter in einer Meldung.", "Höchstens 1 Platzhalter"),
        ("2: 20 Punkte.", None),
        ("ungemischt", "Ablagestapel einmal ungemischt umdrehen"),
    ],
    "nl": [
        ("Hoogstens 5 aankopen per spel.", None),
        ("Ronde 1: niet kopen.", "Deze ronde wordt er niet gekocht."),
        ("Wie de vorige ronde uitging, deelt", None),
        ("Ook elke 2 is joker; een 2 in je hand telt 20.", "Tweeën zijn joker"),
        ("Hoogstens 1 joker in één combinatie.", "Hoogstens 1 joker"),
        ("2: 20 punten.", None),
        ("ongeschud", "draai de aflegstapel één keer ongeschud om"),
    ],
    "es": [
        ("Como máximo 5 compras por partida.", None),
        ("Ronda 1: no se compra.", "En esta ronda no se compra."),
        ("Reparte quien salió en la ronda anterior", None),
        ("Cada 2 también es comodín; un 2 en la mano cuenta 20.", "Los 2 son comodines"),
        ("Como máximo 1 comodín en una combinación.", "Como máximo 1 comodín"),
        ("2: 20 puntos.", None),
        ("sin barajar", "da la vuelta a la pila de descarte, sin barajar, una vez"),
    ],
}


def start_house_game(client: FlaskClient, rules: dict[str, Any]) -> str:
    """Start a game under a house rule set through the API; the URL of its pages."""
    body = {"ruleset": rules, "players": PLAYERS, "first_dealer": 0}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    game = response.json
    assert game is not None
    return f"/g/{game['id']}/{game['links']['edit_token']}"


@pytest.mark.parametrize("language", list(SAID))
def test_a_house_rule_set_is_told_on_its_card_and_round_screen(
    client: FlaskClient, language: str
) -> None:
    url = start_house_game(client, ruleset_to_dict(HOUSE))
    headers = {"Accept-Language": language}
    card = text(client.get(f"{url}/rules", headers=headers).get_data(as_text=True))
    screen = text(client.get(url, headers=headers).get_data(as_text=True))
    for on_card, on_screen in SAID[language]:
        assert on_card in card
        if on_screen is not None:
            assert on_screen in screen
    assert "Buys are not limited" not in card


def test_the_exact_laydown_reminder_takes_its_lengths_from_the_rule_set(
    client: FlaskClient,
) -> None:
    rounds = (
        replace(
            STANDARD_ROUNDS[0],
            contract=replace(STANDARD_ROUNDS[0].contract, book_length=4),
            deal=11,
        ),
        *STANDARD_ROUNDS[1:],
    )
    rules = MAY_I.with_changes(key="house", rounds=rounds, melds=MeldRules(exact_laydown=True))
    screen = text(
        client.get(start_house_game(client, ruleset_to_dict(rules))).get_data(as_text=True)
    )
    assert "Lay down exactly the contract: 2 books of 4, no longer." in screen
