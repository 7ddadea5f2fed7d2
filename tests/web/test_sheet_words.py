"""A German Contract Rummy game says the sheet's words on every line, a May I? game none of them.

The sheet says "Vorgabe", "Ziehstapel", "Satz", "Folge" and "Darf ich?" where May I? says
"Vertrag", "Talon", "Buch", "Sequenz" and "May I?" (docs/GLOSSARY.md).
"""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.i18n import translate
from scorekeeper.pages.rendering import field_errors
from scorekeeper.rules.deal import deal_for
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.messages import N_, msg
from scorekeeper.rules.presets import CONTRACT_RUMMY, MAY_I
from scorekeeper.rules.round_notes import round_notes
from scorekeeper.rules.sheet_words import SHEET
from tests.conftest import Table
from tests.web.test_languages import text
from tools.glossary import section

PLAYERS = ["Anneliese", "Bartholomäus", "Concepción", "Guðmundur"]
MAY_I_WORDS = [p for term in section("de", SHEET) for p in term.forbidden]
SHEET_WORDS = re.compile(r"\b(Vorgabe|Ziehstapel|Sätze|Folgen|Darf ich\?)")
PAGES = ["", "/rounds/1", "/sheet", "/display", "/rules"]


def german(table: Table, path: str) -> str:
    """A page of the game as a German phone reads it, markup and labels included."""
    response = table.client.get(table.url + path, headers={"Accept-Language": "de"})
    assert response.status_code == 200, path
    html = response.get_data(as_text=True)
    labels = " ".join(re.findall(r'aria-label="([^"]*)"', html))
    return f"{text(html)} {labels}"


def may_i_words_in(page: str) -> list[str]:
    """The May I? words a page holds."""
    return [found[0] for pattern in MAY_I_WORDS for found in pattern.finditer(page)]


@pytest.mark.parametrize("path", PAGES)
def test_a_contract_rummy_screen_says_the_sheets_words_only(table: Table, path: str) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    table.run_out()  # the stock's notes and count show on the round screen
    page = german(table, path)
    assert not may_i_words_in(page), may_i_words_in(page)
    # the end-of-round form of the sheet names no stock ending (its stock never ends a round)
    assert SHEET_WORDS.search(page) or path == "/rounds/1", path


@pytest.mark.parametrize("path", PAGES)
def test_a_may_i_screen_says_none_of_the_sheets_words(table: Table, path: str) -> None:
    table.start(PLAYERS)
    table.run_out()
    page = german(table, path)
    assert not SHEET_WORDS.findall(page), SHEET_WORDS.findall(page)
    assert may_i_words_in(page) or path == "/rounds/1", path


def test_a_refusal_on_a_contract_rummy_screen_says_the_sheets_words(app: Flask) -> None:
    refusal = RuleError(msg(N_("Nobody may buy once their contract is down.")), field="seat")
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert field_errors(refusal, CONTRACT_RUMMY) == {
            "seat": ["Wer seine Vorgabe ausgelegt hat, darf nicht mehr kaufen."]
        }
        assert field_errors(refusal, MAY_I) == {
            "seat": ["Wer seinen Vertrag ausgelegt hat, darf nicht mehr kaufen."]
        }


def test_a_sentence_says_its_parts_in_its_own_wording(app: Flask) -> None:
    # "Lay down exactly the contract: 2 books of 3" names its contract in the sheet's words too.
    notes = round_notes(CONTRACT_RUMMY, deal_for(CONTRACT_RUMMY, 4, 1, 0), 4)
    with app.test_request_context(headers={"Accept-Language": "de"}):
        said = " ".join(translate(note) for note in notes)
    assert "2 Sätze zu 3" in said and not may_i_words_in(said), said
