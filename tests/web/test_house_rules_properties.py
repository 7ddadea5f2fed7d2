"""Editor properties: what it saves validates, round-trips JSON and its form, is on its card."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.models import HouseRules
from scorekeeper.pages.ruleset_form import read_form
from scorekeeper.rules.presets import PRESETS
from scorekeeper.rules.ruleset import AceRule, DealPasses, FirstDealer, ReshufflePolicy
from scorekeeper.rules.ruleset_json import (
    ruleset_from_dict,
    ruleset_from_json,
    ruleset_to_dict,
    ruleset_to_json,
)
from scorekeeper.rules.validation import validate_ruleset
from tests.rules.test_rules_card import expected_phrases

from .test_games import text
from .test_house_rules import form_of


class FormReader(HTMLParser):
    """The inputs a browser would send from the editor page: text, ticked boxes, chosen options."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: MultiDict[str, str] = MultiDict()
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        name = found.get("name")
        if tag == "input" and name and found.get("type") not in ("file", "submit"):
            if found.get("type") != "checkbox" or "checked" in found:
                self.sent.add(name, found.get("value", ""))
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in found:
            self.sent.add(self._select, found.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def editor_form(html: str) -> MultiDict[str, str]:
    reader = FormReader()
    reader.feed(html)
    return reader.sent


blank_or_count = st.one_of(st.none(), st.integers(0, 12))
edits = st.fixed_dictionaries(
    {
        "melds.aces": st.sampled_from([rule.value for rule in AceRule]),
        "melds.wild_twos": st.booleans(),
        "melds.joker_swap": st.booleans(),
        "melds.max_wilds_per_meld": st.one_of(st.none(), st.integers(1, 3)),
        "buys.cap_per_round": blank_or_count,
        "buys.cap_per_game": blank_or_count,
        "buys.penalty_cards": st.integers(0, 3),
        "buys.no_buy_after_contract_down": st.booleans(),
        "scoring.values.2": st.integers(0, 50),
        "scoring.values.JK": st.integers(0, 100),
        "scoring.cut_bonus": st.integers(0, 100),
        "reshuffle": st.sampled_from([policy.value for policy in ReshufflePolicy]),
        "first_dealer": st.sampled_from([way.value for way in FirstDealer]),
        "deal_passes": st.sampled_from([way.value for way in DealPasses]),
        "rounds.0.deal": st.integers(6, 14),
        "rounds.0.contract.runs": st.integers(0, 2),
        "rounds.0.contract.run_length": st.integers(3, 8),
        "rounds.1.buy_cap": blank_or_count,
    }
)


def as_form(preset: str, name: str, changes: dict[str, Any]) -> dict[str, list[str]]:
    """A preset's editor form with the changes typed in, as a browser sends it."""
    form = form_of({**ruleset_to_dict(PRESETS[preset]), "name": name})
    for path, value in changes.items():
        if isinstance(value, bool):
            form[path] = ["off", "on"] if value else ["off"]
        else:
            form[path] = ["" if value is None else str(value)]
    return form


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    name=st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=30).map(
        lambda typed: f"R{typed}"
    ),
    changes=edits,
)
def test_what_the_editor_saves_validates_and_round_trips(
    app: Flask, preset: str, name: str, changes: dict[str, Any]
) -> None:
    client = app.test_client()
    with app.app_context():
        before = {saved.id for saved in db.session.scalars(select(HouseRules))}
    response = client.post("/house-rules/", data=as_form(preset, name, changes))
    with app.app_context():
        added = [s for s in db.session.scalars(select(HouseRules)) if s.id not in before]
        event(f"answered {response.status_code}")
        if response.status_code != 303:
            assert response.status_code == 422 and added == []
            return
        [saved] = added
        rules = house_rules.rules_of(saved)
        stored = saved.rules_json
    assert validate_ruleset(rules) == {}
    assert ruleset_from_dict(stored) == ruleset_from_dict(ruleset_to_dict(rules) | {"key": "house"})
    assert ruleset_from_json(ruleset_to_json(rules)) == rules
    page = client.get(f"/house-rules/{saved.id}/{saved.token}/edit").get_data(as_text=True)
    shown = read_form(editor_form(page)) | {"key": "house"}
    assert shown == stored
    card = text(page.split('id="house-card"', 1)[1])
    for phrase in expected_phrases(rules):  # each setting that differs from the standard
        assert phrase in card, phrase
