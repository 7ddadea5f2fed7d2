"""Issue 9's sentences on the pages, in each of the app's languages."""

from __future__ import annotations

from html import unescape

import pytest

from tests.conftest import Table

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]
# (language, a total no hand can make, the stock ending too early, a tap over typed points)
SAID = {
    "en": (
        "No hand is worth 1: the cheapest card counts 2.",
        "The stock ends the round only when it runs out a second time",
        "The tapped cards replace the 20 points typed.",
    ),
    "de": (
        "Keine Hand ist 1 wert: Die billigste Karte zählt 2.",
        "Der Talon beendet die Runde erst, wenn er zum zweiten Mal aufgebraucht ist",
        "Die angetippten Karten ersetzen die eingegebenen 20 Punkte.",
    ),
    "nl": (
        "Geen hand is 1 waard: de goedkoopste kaart telt 2.",
        "De trekstapel beëindigt de ronde pas als hij voor de tweede keer op is",
        "De getikte kaarten vervangen de getypte 20 punten.",
    ),
    "es": (
        "Ninguna mano vale 1: la carta más barata cuenta 2.",
        "El mazo solo termina la ronda cuando se agota por segunda vez",
        "Las cartas tocadas sustituyen los 20 puntos escritos.",
    ),
    "fr": (
        "Aucune main ne vaut 1\u00a0: la carte la plus faible compte 2.",
        "Le talon ne met fin à la manche qu’à son deuxième épuisement\u202f;",
        "Les cartes touchées remplacent les 20 points saisis.",
    ),
}


@pytest.mark.parametrize("language", SAID)
def test_the_end_of_round_form_says_why_in_the_tables_language(table: Table, language: str) -> None:
    impossible, too_early, replaced = SAID[language]
    table.start(PLAYERS)
    headers = {"Accept-Language": language}
    url = f"{table.url}/rounds/1"
    hands = {"points_1": "1", "points_2": "20", "points_3": "30"}
    answer = table.client.post(url, data={"went_out": "0", **hands}, headers=headers)
    assert answer.status_code == 422
    assert impossible in unescape(answer.get_data(as_text=True))
    stock = {"went_out": "stock", "points_0": "5", **hands, "points_1": "20"}
    answer = table.client.post(url, data=stock, headers=headers)
    assert answer.status_code == 422
    assert too_early in unescape(answer.get_data(as_text=True))
    tap = {"points_1": "20", "tap": "1:K"}
    answer = table.client.post(f"{url}/tap", data=tap, headers=headers)
    assert replaced in unescape(answer.get_data(as_text=True))


def test_the_shuffle_instruction_is_on_every_screen_until_the_round_ends(table: Table) -> None:
    table.start(PLAYERS)
    table.run_out(0)
    shuffle = "Shuffle the discard pile, keep its top card, and play on."
    for path in ("", "/stock", "/display"):
        assert shuffle in unescape(table.page(path)), path
    table.end_round(1, "Anna", {"Ben": 20, "Carla": 30, "Dan": 40})
    assert shuffle not in unescape(table.page())
