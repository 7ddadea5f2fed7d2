"""A rule set past its bounds is refused at every door; the largest one allowed renders small.

Issue 18.1: a run of 999,999,999 cards with no buy cap passed validation, and the round screen
drew one element per card (12 GB in two minutes).
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from io import BytesIO
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.models import Game, HouseRules
from scorekeeper.pages.ruleset_form import encode
from scorekeeper.rules.bounds import MAX_DECK_RULES, MAX_ROUNDS
from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.presets import MAY_I, NO_JOKERS
from scorekeeper.rules.ruleset import BuyRules, Contract, DeckRule, MeldRules, RoundSpec
from scorekeeper.rules.ruleset_json import ruleset_from_dict, ruleset_to_dict
from tests.figures import FIGURES
from tests.web.test_house_rules import HX, form_of

pytestmark = pytest.mark.storage

RUN = "rounds.0.contract.run_length"
PLAYERS = ["Bartholomeus", "Concepción", "Marie-Claire", "Guðmundur", "Anna", "Ben", "Carla", "Dev"]
PAGE_LIMIT = 300_000  # bytes: the largest page a phone should ever be sent by these rules


def endless() -> dict[str, Any]:
    """May I? with a run of 999,999,999 cards in round 1 and no buy cap: the attack."""
    data = copy.deepcopy(ruleset_to_dict(MAY_I))
    data["rounds"][0]["contract"] = {"books": 0, "runs": 1, "run_length": 999_999_999}
    data["buys"]["cap_per_round"] = None
    return {**data, "key": "house", "name": "Endless"}


def stored(app: Flask) -> tuple[int, int]:
    """Games and saved sets in the database."""
    with app.app_context():
        return db.session.query(Game).count(), db.session.query(HouseRules).count()


def through_api(client: FlaskClient, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    response = client.post(f"/api/v1{path}", json=body)
    return response.status_code, response.json


def test_a_new_game_with_an_endless_run_is_refused_at_its_field(
    app: Flask, client: FlaskClient
) -> None:
    status, problem = through_api(client, "/games", {"ruleset": endless(), "players": PLAYERS})
    assert status == 422 and f"ruleset.{RUN}" in problem["errors"], problem
    assert problem["errors"][f"ruleset.{RUN}"] == ["A run holds 3 to 13 cards of one suit."]
    assert stored(app) == (0, 0)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/rulesets/saved", {"name": "Endless", "rules": endless()}),
        ("/rulesets/validate", {"rules": endless()}),
    ],
)
def test_a_saved_or_checked_set_with_an_endless_run_is_refused(
    app: Flask, client: FlaskClient, path: str, body: dict[str, Any]
) -> None:
    status, problem = through_api(client, path, body)
    assert status == 422 and f"rules.{RUN}" in problem["errors"], problem
    assert stored(app) == (0, 0)


def test_the_api_refuses_it_in_the_tables_language(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/rulesets/validate", json={"rules": endless()}, headers={"Accept-Language": "de"}
    )
    [told] = response.json["errors"][f"rules.{RUN}"]
    assert response.status_code == 422 and told != "A run holds 3 to 13 cards of one suit."


@pytest.mark.parametrize("url", ["/house-rules/", "/house-rules/check"])
def test_the_editor_refuses_an_endless_run_at_its_input(
    app: Flask, client: FlaskClient, url: str
) -> None:
    response = client.post(url, data=form_of(endless()), headers=HX)
    html = response.get_data(as_text=True)
    assert response.status_code == (422 if url == "/house-rules/" else 200)
    assert f'id="error-{RUN}">A run holds 3 to 13 cards of one suit.<' in html
    assert 'value="999999999"' in html  # what was typed stays in its input
    assert stored(app) == (0, 0)


def test_an_imported_file_or_shared_link_with_an_endless_run_is_refused(
    app: Flask, client: FlaskClient
) -> None:
    upload = {"file": (BytesIO(json.dumps(endless()).encode()), "endless.json")}
    imported = client.post("/house-rules/import", data=upload)
    assert imported.status_code == 422
    assert "A run holds 3 to 13 cards" in imported.get_data(as_text=True)
    shared = client.get("/house-rules/shared", query_string={"r": encode(endless())})
    assert shared.status_code == 422
    saved = client.post("/house-rules/shared", data={"r": encode(endless())})
    assert saved.status_code == 422
    assert stored(app) == (0, 0)


def test_the_checks_a_restore_calls_refuse_an_endless_run(app: Flask) -> None:
    with pytest.raises(RuleError):
        ruleset_from_dict(endless(), stored=True)  # a restored game's rules
    with app.app_context(), pytest.raises(RuleError):
        house_rules.checked_copy("Endless", endless())  # a restored saved set


def largest() -> Any:
    """The largest rule set the bounds allow: every list full, every meld as long as can be."""
    widest = Contract(books=4, runs=2, book_length=48, run_length=13)  # 218 of 224 cards
    deck = DeckRule(min_players=2, max_players=8, decks=4, jokers_base=16)
    return replace(
        MAY_I,
        key="house",
        name="W" * 80,
        buy_call="M" * 30,
        rounds=(RoundSpec(widest, deal=20, final_discard=False),) * MAX_ROUNDS,
        decks=(deck,) * MAX_DECK_RULES,
        buys=BuyRules(cap_per_round=None, cap_per_game=None, penalty_cards=3),
        melds=MeldRules(wild_twos=True),
    )


def test_the_largest_allowed_rule_set_is_allowed() -> None:
    assert ruleset_from_dict(ruleset_to_dict(largest())) == largest()


def test_every_page_of_the_largest_allowed_game_stays_small(
    app: Flask, client: FlaskClient, database_url: str
) -> None:
    with app.app_context():
        game = actions.create_game(largest(), [name * 3 for name in PLAYERS], 0)
        base, view = f"/g/{game.id}/{game.edit_token}", f"/g/{game.id}/{game.view_token}"
    cards = "|".join(["7H 7S 7C 7D JK 2H"] * 6)
    pages = [
        base,
        f"{base}/sheet",
        f"{base}/rules",
        f"{base}/print",
        f"{base}/display",
        f"{base}/check?kind=laydown&op=check&cards={cards}",
        f"{view}/display",
        f"/house-rules/new?rules={encode(ruleset_to_dict(largest()))}",
    ]
    for url in pages:
        response = client.get(url)
        size = len(response.get_data())
        FIGURES[f"largest rules {database_url.split(':')[0]}:largest page bytes"] = max(
            size, FIGURES[f"largest rules {database_url.split(':')[0]}:largest page bytes"]
        )
        assert response.status_code == 200, url
        assert size < PAGE_LIMIT, (url, size)


def test_an_editor_sent_hundreds_of_rounds_stays_small_and_refuses_them(
    client: FlaskClient,
) -> None:
    data = ruleset_to_dict(MAY_I)
    data |= {"rounds": data["rounds"] * 43, "decks": data["decks"] * 30}  # 301 and 60
    linked = client.get("/house-rules/new", query_string={"rules": encode(data)})
    posted = client.post("/house-rules/check", data=form_of({**data, "decks": data["decks"][:2]}))
    for response in (linked, posted):
        html = response.get_data(as_text=True)
        assert response.status_code == 200 and len(response.get_data()) < PAGE_LIMIT
        assert 'id="error-rounds">Play 6 to 12 rounds.<' in html


def no_jokers(**changes: Any) -> dict[str, Any]:
    """May I? without jokers as JSON data, with settings changed by path ("rounds.0.deal")."""
    data = {**ruleset_to_dict(NO_JOKERS), "key": "house", "name": "Ours"}
    for path, value in changes.items():
        *parents, last = path.split("__")
        target: Any = data
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        target[int(last) if isinstance(target, list) else last] = value
    return data


IMPOSSIBLE = [
    pytest.param(no_jokers(rounds__2__contract__run_length=14), "rounds.2.contract.run_length"),
    pytest.param(no_jokers(rounds__0__contract__book_length=9), "rounds.0.contract.book_length"),
    pytest.param(no_jokers(rounds__6__deal=20), "rounds.6.deal", id="8 x 20 + 1 from 156"),
    pytest.param(
        no_jokers(scoring__values=dict.fromkeys(ruleset_to_dict(MAY_I)["scoring"]["values"], 0)),
        "scoring.values",
        id="every card worth 0",
    ),
]


@pytest.mark.parametrize(("data", "field"), IMPOSSIBLE)
def test_an_impossible_rule_set_is_refused_by_the_api_and_the_editor(
    app: Flask, client: FlaskClient, data: dict[str, Any], field: str
) -> None:
    status, problem = through_api(client, "/games", {"ruleset": data, "players": PLAYERS})
    assert status == 422 and f"ruleset.{field}" in problem["errors"], problem
    status, problem = through_api(client, "/rulesets/saved", {"name": "Ours", "rules": data})
    assert status == 422 and f"rules.{field}" in problem["errors"], problem
    response = client.post("/house-rules/", data=form_of(data))
    assert response.status_code == 422
    assert f'id="error-{field}"' in response.get_data(as_text=True)
    assert stored(app) == (0, 0)
