"""The blank sheet to print, from a preset, a saved house set, a shared set and a game."""

from __future__ import annotations

import re
from dataclasses import replace

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import house_rules
from scorekeeper.pages.ruleset_form import encode
from scorekeeper.rules.presets import PRESETS
from scorekeeper.rules.ruleset import BuyRules
from scorekeeper.rules.ruleset_json import ruleset_to_dict

MAY_I = PRESETS["may-i"]


def player_rows(page: str) -> list[str]:
    body = page.split('<tbody class="player-rows">')[1].split("</tbody>")[0]
    return re.findall(r"<tr>.*?</tr>", body, re.S)


def test_a_preset_sheet_for_eight_players(client: FlaskClient) -> None:
    page = client.get("/rules/may-i/sheet?players=8").get_data(as_text=True)
    rows = player_rows(page)
    assert len(rows) == 8
    assert all(row.count('class="buy-box"') == 7 * 3 for row in rows)  # 7 rounds, 3 buys each
    assert "Player 8" in page and "<svg" in page
    assert "selected>8</option>" in page
    assert "The lowest total wins." in page  # the scoring and the tiebreak are printed


def test_the_qr_code_starts_a_game_with_the_preset(client: FlaskClient) -> None:
    page = client.get("/rules/shanghai/sheet").get_data(as_text=True)
    assert "http://localhost/games/new?ruleset=shanghai" in page
    assert len(player_rows(page)) == 4  # the usual table when none is asked for


def test_a_table_size_the_rules_cannot_seat_falls_back(client: FlaskClient) -> None:
    for asked in ["1", "9", "99999999999999999999999", "x", "٣"]:
        answer = client.get(f"/rules/may-i/sheet?players={asked}")
        assert answer.status_code == 200
        assert len(player_rows(answer.get_data(as_text=True))) == 4


def test_an_unknown_preset_is_not_found(client: FlaskClient) -> None:
    assert client.get("/rules/nothing/sheet").status_code == 404


def test_a_set_carried_in_the_link(client: FlaskClient) -> None:
    rules = replace(MAY_I, name="Oma's rules", buys=BuyRules(cap_per_round=3, cap_per_game=2))
    packed = encode(ruleset_to_dict(rules))
    page = client.get(f"/rules/sheet?r={packed}&players=3").get_data(as_text=True)
    assert "Oma&#39;s rules" in page
    rows = player_rows(page)
    assert len(rows) == 3 and all(row.count('class="buy-box"') == 7 * 2 for row in rows)
    assert f"house-rules/shared?r={packed}" in page  # any phone can save it and play


def test_a_broken_link_says_why(client: FlaskClient) -> None:
    answer = client.get("/rules/sheet?r=not-a-rule-set")
    assert answer.status_code == 422
    too_long = encode({**ruleset_to_dict(MAY_I), "rounds": ruleset_to_dict(MAY_I)["rounds"] * 3})
    answer = client.get(f"/rules/sheet?r={too_long}")
    assert answer.status_code == 422
    assert b"rounds" in answer.data


def test_cards_link_to_their_sheet(client: FlaskClient) -> None:
    assert b"/rules/may-i/sheet" in client.get("/rules/may-i").data


def test_a_saved_house_set_and_a_game_link_to_their_sheet(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        saved = house_rules.create("Oma", replace(MAY_I, buys=BuyRules(cap_per_round=1)))
        sheet = f"/house-rules/{saved.id}/{saved.token}/sheet"
    page = client.get(sheet).get_data(as_text=True)
    assert all(row.count('class="buy-box"') == 7 for row in player_rows(page))
    assert client.get(f"/house-rules/{saved.id}/wrong/sheet").status_code == 404
    body = {"ruleset": "may-i", "players": ["Ann", "Bo", "Cy"], "first_dealer": 0}
    game = client.post("/api/v1/games", json=body).get_json()
    card = client.get(f"/g/{game['id']}/{game['links']['edit_token']}/rules")
    link = re.search(r'href="(/rules/sheet\?[^"]+)"', card.get_data(as_text=True))
    assert link is not None
    assert (
        len(player_rows(client.get(link.group(1).replace("&amp;", "&")).get_data(as_text=True)))
        == 3
    )


def test_each_player_row_has_a_line_for_the_name(client: FlaskClient) -> None:
    rows = player_rows(client.get("/rules/may-i/sheet?players=5").get_data(as_text=True))
    assert len(rows) == 5
    assert all(re.search(r'<th scope="row"><span class="name-line"></span>', row) for row in rows)


def test_the_sheet_keeps_the_count_chosen_or_the_games(client: FlaskClient) -> None:
    """A family of five prints five rows: once chosen (or asked by their game's link), a sheet
    opened without a count is theirs, not four (issue 35.10); a count the rules refuse is not."""
    assert len(player_rows(client.get("/rules/may-i/sheet?players=5").get_data(True))) == 5
    for later in ("/rules/shanghai/sheet", "/rules/may-i/sheet?players=x"):
        assert len(player_rows(client.get(later).get_data(as_text=True))) == 5
    body = {"ruleset": "may-i", "players": ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]}
    game = client.post("/api/v1/games", json={**body, "first_dealer": 0}).get_json()
    card = client.get(f"/g/{game['id']}/{game['links']['edit_token']}/rules").get_data(True)
    link = re.search(r'href="(/rules/sheet\?[^"]+)"', card)
    assert link is not None
    game_sheet = client.get(link.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert len(player_rows(game_sheet)) == 6 and "selected>6</option>" in game_sheet
    assert len(player_rows(client.get("/rules/may-i/sheet").get_data(as_text=True))) == 6
