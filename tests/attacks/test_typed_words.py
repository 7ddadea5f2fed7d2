"""What a table typed (a rule set's name and buy call) is a parameter, never a template.

Issue 18.2: a house rule set's buy call was the message template of the buy region and the
rules card, so only the parameters were escaped and the call reached the page as HTML: a
<meta http-equiv=refresh> to another site got through the CSP. Issue 20.7: a whole set
posted under a preset's key was kept under it and opened with the preset's description.
"""

from __future__ import annotations

import copy
import io
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import nodes
from sqlalchemy import delete, select

from scorekeeper.extensions import db
from scorekeeper.models import CardTable, Game, HouseRules
from scorekeeper.pages.ruleset_form import encode
from scorekeeper.rules.presets import MAY_I, STANDARD_ROUNDS
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.web.test_house_rules import form_of

CALL = '<meta http-equiv="refresh">'  # 27 characters: within the call's 30
NAME = "100% <b>ours</b> %(x)s"
TEMPLATES = Path(__file__).parents[2] / "templates"
SEVEN_ROUNDS = "The classic family game of seven rounds"


def ours() -> dict[str, Any]:
    return {**ruleset_to_dict(MAY_I), "name": NAME, "buy_call": CALL}


def saved_set(app: Flask, client: FlaskClient) -> tuple[str, str]:
    """Save the hostile set through the editor; its key and its pages' base URL."""
    response = client.post("/house-rules/", data=form_of(ours()))
    assert response.status_code == 303, response.get_data(as_text=True)
    with app.app_context():
        saved = db.session.scalars(select(HouseRules)).one()
        return f"house-{saved.id}", f"/house-rules/{saved.id}/{saved.token}"


def start(app: Flask, client: FlaskClient, key: str) -> tuple[str, str]:
    """Start a game with the set through the new-game form; its edit and view URLs."""
    data = {"ruleset": key, "players-0": "Anna", "players-1": "%(x)s", "players-2": "Ben"}
    response = client.post("/games/", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    with app.app_context():
        game = db.session.scalars(select(Game)).one()
        return f"/g/{game.id}/{game.edit_token}", f"/g/{game.id}/{game.view_token}"


def assert_as_text(html: str) -> None:
    """The typed words are on the page as text, never as markup."""
    assert "<meta http-equiv" not in html and "<b>ours" not in html
    assert "&lt;meta http-equiv=&#34;refresh&#34;&gt;" in html or "&lt;meta http-equiv" in html


def test_a_hostile_buy_call_and_name_reach_every_page_as_text(
    app: Flask, client: FlaskClient
) -> None:
    key, house = saved_set(app, client)
    edit, view = start(app, client, key)
    pages = [
        edit,
        view,
        f"{view}/display",
        f"{view}/rules",
        f"{edit}/print",
        f"{edit}/sheet",
        f"{house}/edit",
        f"/house-rules/shared?r={encode(ours())}",
        f"/house-rules/new?rules={encode(ours())}",
    ]
    for url in pages:
        response = client.get(url)
        html = response.get_data(as_text=True)
        assert response.status_code == 200, (url, html[-500:])
        assert "<meta http-equiv" not in html and "<b>ours" not in html, url
    for url in (view, f"{view}/rules", f"/house-rules/shared?r={encode(ours())}", f"{house}/edit"):
        assert "&lt;meta http-equiv" in client.get(url).get_data(as_text=True), url
    for url in (f"{view}/rules", f"{edit}/print", "/", f"{house}/edit", "/games/new"):
        assert "100% &lt;b&gt;ours&lt;/b&gt; %(x)s" in client.get(url).get_data(as_text=True), url


@pytest.mark.parametrize("language", ["de", "nl", "es"])
def test_a_tables_own_call_is_shown_as_typed_in_every_language(
    app: Flask, client: FlaskClient, language: str
) -> None:
    key, _house = saved_set(app, client)
    _edit, view = start(app, client, key)
    headers = {"Accept-Language": language}
    html = client.get(view, headers=headers).get_data(as_text=True)
    assert "&lt;meta http-equiv" in html and "<meta http-equiv" not in html


def test_the_standard_call_and_a_presets_name_are_still_translated(client: FlaskClient) -> None:
    players = {"players-0": "Anna", "players-1": "Ben", "players-2": "Carla"}
    response = client.post("/games/", data={"ruleset": "contract-rummy", **players})
    german = {"Accept-Language": "de"}
    html = client.get(response.headers["Location"], headers=german).get_data(as_text=True)
    assert "Darf ich?" in html
    card = client.get(f"{response.headers['Location']}/rules", headers=german)
    assert "Das deutsche Regelblatt" in card.get_data(as_text=True)  # the preset's summary


def test_no_template_translates_a_value_it_was_given() -> None:
    """Every _() and ngettext() in the templates translates words of ours, never a value."""
    from scorekeeper import create_app

    env = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"}).jinja_env
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        tree = env.parse(path.read_text())
        for call in tree.find_all(nodes.Call):
            named = isinstance(call.node, nodes.Name) and call.node.name in {"_", "ngettext"}
            if named and not (call.args and isinstance(call.args[0], nodes.Const)):
                found.append(f"{path.relative_to(TEMPLATES)}:{call.lineno}")
    assert found == []


def test_a_custom_set_posted_under_a_presets_key_is_the_tables_own(client: FlaskClient) -> None:
    six = {**ruleset_to_dict(MAY_I), "rounds": ruleset_to_dict(MAY_I)["rounds"][:6]}
    response = client.post(
        "/api/v1/games", json={"ruleset": six, "players": ["Anna", "Ben", "Carla"]}
    )
    assert response.status_code == 201, response.get_data(as_text=True)
    game = response.json
    edit = f"/g/{game['id']}/{game['links']['edit_token']}"
    card = client.get(f"{edit}/rules").get_data(as_text=True)
    assert SEVEN_ROUNDS not in card
    checked = client.post("/api/v1/rulesets/validate", json={"rules": six}).json
    assert checked["rules"]["key"] == "house"


def test_a_six_round_set_sent_as_may_i_is_stored_and_described_as_its_own(
    app: Flask, client: FlaskClient
) -> None:
    six = {**ruleset_to_dict(MAY_I), "rounds": ruleset_to_dict(MAY_I)["rounds"][:6]}
    assert six["key"] == "may-i"
    game = client.post(
        "/api/v1/games", json={"ruleset": six, "players": ["Anna", "Ben", "Carla"]}
    ).json
    assert (game["rules"]["key"], len(game["rules"]["rounds"])) == ("house", 6)
    with app.app_context():
        stored = db.session.get(Game, game["id"])
        assert stored is not None
        assert (stored.rules_json["key"], len(stored.rules_json["rounds"])) == ("house", 6)
    card = client.get(f"/g/{game['id']}/{game['links']['edit_token']}/rules")
    rows = re.findall(r"<tr>\s*<t[dh][^>]*>(\d+)</t[dh]>", card.get_data(as_text=True))
    assert rows == ["1", "2", "3", "4", "5", "6"]
    assert SEVEN_ROUNDS not in card.get_data(as_text=True)
    saved = client.post("/api/v1/rulesets/saved", json={"name": "Six", "rules": six}).json
    assert saved["key"] == f"house-{saved['id']}" and len(saved["rules"]["rounds"]) == 6


def test_a_preset_sent_whole_keeps_its_identity(client: FlaskClient) -> None:
    whole = ruleset_to_dict(MAY_I)
    response = client.post(
        "/api/v1/games", json={"ruleset": whole, "players": ["Anna", "Ben", "Carla"]}
    )
    game = response.json
    card = client.get(f"/g/{game['id']}/{game['links']['edit_token']}/rules")
    assert SEVEN_ROUNDS in card.get_data(as_text=True)
    assert (
        client.post("/api/v1/rulesets/validate", json={"rules": whole}).json["rules"]["key"]
        == "may-i"
    )


def test_a_renamed_preset_is_no_longer_that_preset(client: FlaskClient) -> None:
    renamed = {**ruleset_to_dict(MAY_I), "name": "May I?", "buy_call": "May I?"}
    renamed["rounds"] = [*copy.deepcopy(renamed["rounds"]), renamed["rounds"][0]]
    answer = client.post("/api/v1/rulesets/validate", json={"rules": renamed}).json
    assert answer["rules"]["key"] == "house"
    assert len(STANDARD_ROUNDS) + 1 == len(answer["rules"]["rounds"])


def test_a_buy_call_too_long_is_refused_at_its_field(client: FlaskClient) -> None:
    long_call = '<meta http-equiv=refresh content="0;url=https://evil.example">'
    response = client.post("/house-rules/check", data=form_of({**ours(), "buy_call": long_call}))
    html = response.get_data(as_text=True)
    assert re.search(r'id="error-buy_call">Use at most 30 characters.<', html)
    assert "<meta http-equiv=refresh" not in html


def test_a_restored_game_shows_the_hostile_words_as_text(app: Flask, client: FlaskClient) -> None:
    key, _house = saved_set(app, client)
    table = client.post("/tables/", data={"name": "%(x)s <i>club</i>"}).headers["Location"]
    players = {"players-0": "Anna", "players-1": "%(x)s", "players-2": "Ben"}
    started = client.post(f"{table}/games", data={"ruleset": key, **players})
    assert started.status_code == 303, started.get_data(as_text=True)
    backup = client.get(f"{table}/backup.json").get_data()
    with app.app_context():  # the table is gone: only its backup is left
        db.session.execute(delete(Game))
        db.session.execute(delete(CardTable))
        db.session.execute(delete(HouseRules))
        db.session.commit()
    restored = app.test_client().post(
        "/tables/import", data={"backup": (io.BytesIO(backup), "backup.json")}
    )
    assert restored.status_code == 303, restored.get_data(as_text=True)
    with app.app_context():
        game = db.session.scalars(select(Game)).one()
        view = f"/g/{game.id}/{game.view_token}"
    for url in (view, f"{view}/rules", restored.headers["Location"]):
        response = client.get(url)
        html = response.get_data(as_text=True)
        assert response.status_code == 200, url
        assert "<meta http-equiv" not in html and "<i>club" not in html and "<b>ours" not in html
    assert "&lt;meta http-equiv" in client.get(view).get_data(as_text=True)
