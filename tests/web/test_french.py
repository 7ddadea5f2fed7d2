"""The rules card of every preset and the printed sheets in French, with no English left over."""

from __future__ import annotations

import re
from functools import cache

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.presets import PRESETS
from tests.conftest import Table
from tests.web.test_games import PLAYERS, TIED_GAME, play, text
from tests.web.test_translations import catalog

FRENCH = {"Accept-Language": "fr"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")
SHEET_FAMILY = ["contract-rummy", "contract-rummy-proper", "liverpool", "shanghai", "free-laydown"]


@cache
def english_phrases() -> tuple[str, ...]:
    """Each stretch of an English message, between its values, that French says otherwise.

    Only stretches of two words or more: "Total" or "Joker" may be French too.
    """
    french = catalog("fr")
    phrases = set()
    for entry in french:
        english = entry.id if isinstance(entry.id, str) else (entry.id[0] if entry.id else "")
        said = entry.string if isinstance(entry.string, str) else " ".join(entry.string or ())
        for stretch in PLACEHOLDER.split(english):
            stretch = stretch.strip(" .,:;")
            if " " in stretch and len(stretch) >= 10 and stretch not in said:
                phrases.add(stretch)
    return tuple(sorted(phrases))


def english_left(page: str) -> list[str]:
    """The English phrases a page shows."""
    shown = text(page)
    return [phrase for phrase in english_phrases() if phrase in shown]


def test_english_left_over_is_found(client: FlaskClient) -> None:
    english = client.get("/rules/may-i", headers={"Accept-Language": "en"})
    assert len(english_left(english.get_data(as_text=True))) > 10


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_presets_rules_card_is_french(client: FlaskClient, key: str) -> None:
    page = client.get(f"/rules/{key}", headers=FRENCH).get_data(as_text=True)
    assert 'lang="fr"' in page
    assert not english_left(page)
    card = text(page)
    assert "manche" in card.lower()
    if key in SHEET_FAMILY:
        assert "Puis-je ?" in card  # the call as the sheet's family says it
        assert "May I?" not in card
    else:
        assert "Puis-je" not in card


@pytest.mark.parametrize("key", ["may-i", "contract-rummy"])
def test_both_blank_sheets_are_french(client: FlaskClient, key: str) -> None:
    page = client.get(f"/rules/{key}/sheet?players=8", headers=FRENCH).get_data(as_text=True)
    assert not english_left(page)
    assert "Feuille de marque vierge" in text(page)


def test_a_games_printed_sheet_and_card_are_french(table: Table) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    play(table, TIED_GAME[:2])
    for path in ("/print", "/rules", "/sheet", ""):
        page = table.client.get(f"{table.url}{path}", headers=FRENCH).get_data(as_text=True)
        assert not english_left(page), path
    printed = text(table.client.get(f"{table.url}/print", headers=FRENCH).get_data(as_text=True))
    assert "Joueurs : Anna, Ben, Carla, Dan" in printed
    assert "Rami Contrat" in printed
