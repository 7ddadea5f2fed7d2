"""The house-rule editor through the web forms: start, check, save, edit, copy, share, play."""

from __future__ import annotations

import base64
import json
import re
import zlib
from io import BytesIO
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.models import Game, HouseRules
from scorekeeper.pages.ruleset_form import encode, flatten
from scorekeeper.rules.presets import CONTRACT_RUMMY, MAY_I
from scorekeeper.rules.ruleset_json import ruleset_from_dict, ruleset_to_dict
from tests.conftest import Table
from tests.web.test_games import count, text

HX = {"HX-Request": "true"}


def form_of(data: dict[str, Any], **changes: str) -> dict[str, list[str]]:
    """The editor's form as a browser sends it: every checkbox after its hidden "off"."""
    form: dict[str, list[str]] = {}
    for path, value in flatten(data).items():
        if isinstance(value, bool):
            form[path] = ["off", "on"] if value else ["off"]
        else:
            form[path] = ["" if value is None else str(value)]
    for path, value in changes.items():
        form[path.replace("__", ".")] = [value]
    return form


def may_i_form(**changes: str) -> dict[str, list[str]]:
    return form_of({**ruleset_to_dict(MAY_I), "name": "Our rules"}, **changes)


def saved_rules(app: Flask) -> list[Any]:
    """Every saved set in the database (name, rules), by name: the pages list only their own."""
    with app.app_context():
        every = db.session.scalars(select(HouseRules).order_by(HouseRules.name, HouseRules.id))
        return [(s.name, house_rules.rules_of(s)) for s in every]


def link_of(app: Flask, name: str = "Our rules") -> str:
    """The first saved set of that name's pages: /house-rules/<id>/<token>."""
    with app.app_context():
        named = select(HouseRules).where(HouseRules.name == name).order_by(HouseRules.id)
        saved = db.session.scalars(named).first()
        assert saved is not None
        return f"/house-rules/{saved.id}/{saved.token}"


def test_the_editor_opens_on_a_preset_with_every_setting(client: FlaskClient) -> None:
    page = client.get("/house-rules/new?from=contract-rummy").get_data(as_text=True)
    for path in flatten(ruleset_to_dict(CONTRACT_RUMMY)):
        if path != "key":
            assert f'name="{path}"' in page, path
    assert 'value="high_or_low" selected' in page
    assert "Contract Rummy" in page


def test_a_new_set_is_named_apart_from_the_set_it_starts_from(client: FlaskClient) -> None:
    page = client.get("/house-rules/new?from=may-i").get_data(as_text=True)
    assert 'value="Copy of May I?"' in page  # saved as it is, New game shows no twin "May I?"
    german = client.get("/house-rules/new?from=may-i", headers={"Accept-Language": "de"})
    assert "Kopie von" in german.get_data(as_text=True)


def test_an_unknown_start_is_not_found(client: FlaskClient) -> None:
    assert client.get("/house-rules/new?from=nothing").status_code == 404
    assert client.get("/house-rules/new?from=house-99").status_code == 404


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("rounds.6.deal", "4", "4 cards, one draw and 6 cards from buys cannot make a contract"),
        ("scoring.values.K", "-5", "Must be a whole number from 0 to 100."),
        ("buys.cap_per_game", "many", "Must be a whole number."),
        ("rounds.6.deal", "60", "Deal 1 to 20 cards."),
        ("rounds.6.deal", "18", "need 109 cards with the up-card"),
        ("name", " ", "A rule set needs a name."),
    ],
)
def test_each_change_is_checked_with_the_reason_at_its_field(
    client: FlaskClient, field: str, value: str, reason: str
) -> None:
    response = client.post("/house-rules/check", data=may_i_form(**{field: value}), headers=HX)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    problems = re.search(rf'id="error-{re.escape(field)}">([^<]*)<', html)
    assert problems is not None and reason in problems.group(1)
    assert "The rules card shows again once every field is right." in html


def test_a_valid_change_shows_the_card_as_it_will_be_printed(client: FlaskClient) -> None:
    html = client.post(
        "/house-rules/check", data=may_i_form(**{"rounds.0.contract.runs": "1"}), headers=HX
    ).get_data(as_text=True)
    assert 'class="error"' not in html
    assert "2 books + 1 run" in text(html)


@pytest.mark.parametrize(
    ("op", "first_three"),
    [
        ("round-up:1", ["1 book + 1 run", "2 books", "2 runs"]),
        ("round-down:0", ["1 book + 1 run", "2 books", "2 runs"]),
        ("round-remove:0", ["1 book + 1 run", "2 runs", "3 books"]),
    ],
)
def test_rounds_move_and_go(client: FlaskClient, op: str, first_three: list[str]) -> None:
    html = client.post("/house-rules/check", data={**may_i_form(), "op": op}, headers=HX).get_data(
        as_text=True
    )
    rows = re.findall(r'<th scope="row">\d+</th>\s*<td>(.*?)\s*(?:<br>|</td>)', html, re.S)
    assert [text(row).strip() for row in rows[:3]] == first_three


def test_rounds_stay_between_six_and_twelve(client: FlaskClient) -> None:
    data = {**ruleset_to_dict(MAY_I), "name": "x"}
    for _ in range(8):
        html = client.post(
            "/house-rules/check", data={**form_of(data), "op": "round-add"}, headers=HX
        ).get_data(as_text=True)
        data["rounds"] = data["rounds"][: len(re.findall(r'<th scope="row">', html))]
        data["rounds"] += [data["rounds"][-1]] * (
            len(re.findall(r'<th scope="row">', html)) - len(data["rounds"])
        )
    assert len(data["rounds"]) == 12 and "Add a round" not in html
    six = {**ruleset_to_dict(MAY_I), "rounds": ruleset_to_dict(MAY_I)["rounds"][:6], "name": "x"}
    html = client.post(
        "/house-rules/check", data={**form_of(six), "op": "round-remove:0"}, headers=HX
    ).get_data(as_text=True)
    assert len(re.findall(r'<th scope="row">', html)) == 6 and "Remove round" not in html


def test_save_offers_the_set_beside_the_presets_and_plays_it(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    form = may_i_form(**{"melds.aces": "high_or_low", "buys.cap_per_game": "5"})
    response = client.post("/house-rules/", data=form)
    assert response.status_code == 303
    assert "Saved “Our rules”." in client.get(response.headers["Location"]).get_data(as_text=True)
    [(name, rules)] = saved_rules(app)
    assert name == "Our rules" and rules.buys.cap_per_game == 5
    key = rules.key
    assert "Our rules" in client.get("/").get_data(as_text=True)
    assert f'value="{key}"' in client.get("/games/new").get_data(as_text=True)
    table.start(["Anna", "Ben", "Carla"], ruleset=key)
    assert "Our rules" in text(table.page("/rules"))


def test_a_game_keeps_the_rules_it_started_with(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    client.post("/house-rules/", data=may_i_form(**{"buys.penalty_cards": "2"}))
    link = link_of(app)
    table.start(["Anna", "Ben"], ruleset=f"house-{link.split('/')[2]}")
    client.post(link, data=may_i_form(**{"buys.penalty_cards": "0"}))
    client.post(f"{link}/delete")
    with app.app_context():
        game = db.session.query(Game).one()
        assert ruleset_from_dict(game.rules_json).buys.penalty_cards == 2
        assert db.session.query(HouseRules).count() == 0
    assert table.client.get(table.url).status_code == 200


def test_an_invalid_save_changes_nothing(app: Flask, client: FlaskClient) -> None:
    response = client.post("/house-rules/", data=may_i_form(**{"rounds.0.deal": "0"}))
    assert response.status_code == 422
    assert "Deal 1 to 20 cards." in response.get_data(as_text=True)
    assert count(app, HouseRules) == 0


def test_edit_duplicate_and_delete(app: Flask, client: FlaskClient) -> None:
    client.post("/house-rules/", data=may_i_form())
    link = link_of(app)
    assert 'value="Our rules"' in client.get(f"{link}/edit").get_data(as_text=True)
    client.post(link, data=may_i_form(name="Friday rules"))
    copy = client.post(f"{link}/duplicate").headers["Location"]
    assert copy == f"{link_of(app, 'Copy of Friday rules')}/edit"
    assert sorted(name for name, _ in saved_rules(app)) == ["Copy of Friday rules", "Friday rules"]
    assert "Copy of Friday rules" in client.get("/house-rules/").get_data(as_text=True)
    client.post(f"{link}/delete")
    assert [name for name, _ in saved_rules(app)] == ["Copy of Friday rules"]
    assert client.post(f"{link}/delete").status_code == 404
    assert client.post("/house-rules/999/x/delete").status_code == 404


def test_export_then_import_round_trips(app: Flask, client: FlaskClient) -> None:
    client.post(
        "/house-rules/", data=may_i_form(**{"scoring.values.2": "20", "melds.wild_twos": "on"})
    )
    exported = client.get(f"{link_of(app)}/rules.json")
    assert "attachment" in exported.headers["Content-Disposition"]
    upload = {"file": (BytesIO(exported.data), "rules.json")}
    assert client.post("/house-rules/import", data=upload).status_code == 303
    (_, first), (_, second) = saved_rules(app)
    assert ruleset_to_dict(first) | {"key": ""} == ruleset_to_dict(second) | {"key": ""}
    assert client.get("/house-rules/").get_data(as_text=True).count("/rules.json") == 2


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"not json", "Not valid JSON"),
        (b"\xff\xfe", "This file is not a rule set."),
        (json.dumps({"key": "x"}).encode(), "Required."),
    ],
)
def test_a_bad_file_is_refused_with_the_reason(
    app: Flask, client: FlaskClient, content: bytes, reason: str
) -> None:
    response = client.post("/house-rules/import", data={"file": (BytesIO(content), "r.json")})
    assert response.status_code == 422 and reason in response.get_data(as_text=True)
    assert count(app, HouseRules) == 0


def test_a_shared_link_carries_the_rules_to_another_phone(app: Flask, client: FlaskClient) -> None:
    client.post("/house-rules/", data=may_i_form(**{"buys.cap_per_round": "1"}))
    page = client.get(f"{link_of(app)}/share").get_data(as_text=True)
    assert "<svg" in page
    link = re.search(r'href="(http://localhost/house-rules/shared\?r=[^"]+)"', page)
    assert link is not None
    packed = link.group(1).split("r=")[1]
    other = app.test_client()
    assert "Our rules" in other.get(f"/house-rules/shared?r={packed}").get_data(as_text=True)
    assert other.post("/house-rules/shared", data={"r": packed}).status_code == 303
    assert [rules.buys.cap_per_round for _, rules in saved_rules(app)] == [1, 1]
    # The imported copy is the other phone's own: a second set with its own token.
    assert other.get("/house-rules/").get_data(as_text=True).count("/rules.json") == 1
    assert link_of(app) not in other.get("/house-rules/").get_data(as_text=True)


def test_a_broken_shared_link_is_refused(client: FlaskClient) -> None:
    assert client.get("/house-rules/shared?r=garbage").status_code == 422
    assert client.post("/house-rules/shared", data={"r": "garbage"}).status_code == 422


def test_a_games_rules_open_in_the_editor(client: FlaskClient) -> None:
    packed = encode(ruleset_to_dict(CONTRACT_RUMMY))
    page = client.get(f"/house-rules/new?rules={packed}").get_data(as_text=True)
    assert 'value="high_or_low" selected' in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "New house rules"),
        ("de", "Neue Hausregeln"),
        ("nl", "Nieuwe huisregels"),
        ("es", "Nuevas reglas de la casa"),
    ],
)
def test_the_editor_and_its_reasons_speak_the_tables_language(
    client: FlaskClient, language: str, words: str
) -> None:
    headers = {"Accept-Language": language}
    assert words in client.get("/house-rules/new", headers=headers).get_data(as_text=True)
    html = client.post(
        "/house-rules/check", data=may_i_form(**{"rounds.0.deal": "0"}), headers=headers | HX
    ).get_data(as_text=True)
    reason = re.search(r'id="error-rounds.0.deal">([^<]*)<', html)
    assert reason is not None
    assert (reason.group(1) == "Deal 1 to 20 cards.") == (language == "en")


def test_a_played_games_card_opens_its_rules_in_the_editor(
    client: FlaskClient, table: Table
) -> None:
    table.start(["Anna", "Ben", "Carla"], ruleset="liverpool")
    card = table.page("/rules")
    link = re.search(
        r'href="(/house-rules/new\?rules=[^"]+)"[^>]*>Make house rules from these', card
    )
    assert link is not None
    page = client.get(link.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert 'name="scoring.cut_bonus"' in page and 'value="50"' in page


def test_a_presets_card_opens_it_in_the_editor(client: FlaskClient) -> None:
    card = client.get("/rules/shanghai").get_data(as_text=True)
    assert 'href="/house-rules/new?from=shanghai"' in card


def test_deeply_nested_json_is_no_rule_set(app: Flask, client: FlaskClient) -> None:
    nested = b"[" * 50_000
    response = client.post("/house-rules/import", data={"file": (BytesIO(nested), "r.json")})
    assert response.status_code == 422
    deep = base64.urlsafe_b64encode(zlib.compress(nested)).decode()
    assert client.get(f"/house-rules/shared?r={deep}").status_code == 422
    assert count(app, HouseRules) == 0


@pytest.mark.parametrize("odd", ["²", "9" * 5000, "-1", "0"])
def test_odd_numbers_in_keys_and_indices_are_no_server_error(client: FlaskClient, odd: str) -> None:
    assert client.get(f"/games/new?ruleset=house-{odd}").status_code == 200
    assert client.get(f"/house-rules/new?from=house-{odd}").status_code == 404
    form = {**may_i_form(), "saved": [odd], "op": [f"round-up:{odd}"], f"rounds.{odd}.deal": ["9"]}
    answered = client.post("/house-rules/check", data=form, headers=HX).status_code
    assert answered == (404 if odd == "0" else 200)  # saved set 0 does not exist


def test_another_browser_neither_lists_nor_opens_a_set_without_its_token(
    app: Flask, client: FlaskClient
) -> None:
    client.post("/house-rules/", data=may_i_form(name="Secret rules"))
    link = link_of(app, "Secret rules")
    ruleset_id, token = link.split("/")[2:4]
    other = app.test_client()
    for page in ("/", "/house-rules/", "/games/new"):
        assert "Secret rules" not in other.get(page).get_data(as_text=True), page
        assert "Secret rules" in client.get(page).get_data(as_text=True), page
    guessed = f"/house-rules/{ruleset_id}/{'x' * len(token)}"
    for method, path in [
        ("get", "/edit"),
        ("get", "/share"),
        ("get", "/rules.json"),
        ("post", ""),
        ("post", "/duplicate"),
        ("post", "/delete"),
    ]:
        for url in (f"{guessed}{path}", f"/house-rules/{ruleset_id}{path}"):
            response = getattr(other, method)(url, data=may_i_form(name="Stolen"))
            assert response.status_code in (404, 405), (method, url)
            assert "Secret rules" not in response.get_data(as_text=True)
    checked = other.post(
        "/house-rules/check", data={**may_i_form(), "saved": ruleset_id, "saved_token": "x"}
    )
    assert checked.status_code == 404
    # Nor can a game be started with it by guessing its key.
    new = other.get(f"/games/new?ruleset=house-{ruleset_id}").get_data(as_text=True)
    assert f'value="house-{ruleset_id}" selected' not in new
    started = other.post(
        "/games/", data={"ruleset": f"house-{ruleset_id}", "players-0": "A", "players-1": "B"}
    )
    assert started.status_code == 422
    assert saved_rules(app)[0][0] == "Secret rules" and len(saved_rules(app)) == 1
    assert count(app, Game) == 0


def test_the_set_link_opens_it_in_any_browser_that_is_given_it(
    app: Flask, client: FlaskClient
) -> None:
    client.post("/house-rules/", data=may_i_form(name="Shared rules"))
    link = link_of(app, "Shared rules")
    other = app.test_client()
    assert 'value="Shared rules"' in other.get(f"{link}/edit").get_data(as_text=True)
    assert "Shared rules" in other.get("/house-rules/").get_data(as_text=True)
