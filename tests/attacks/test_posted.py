"""Hostile hidden fields, URLs and redirect targets: a 4xx naming the field, nothing stored."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Buy, Change, Game
from tests.conftest import Table

pytestmark = pytest.mark.storage

HUGE = "99999999999999999999"
# (path under the game, form, field the answer names)
HIDDEN = [
    ("/buys", {"seat": "1", "version": HUGE}, "version"),
    ("/buys", {"seat": "1", "version": "2147483648"}, "version"),
    ("/buys", {"seat": "1", "version": "²"}, "version"),
    ("/buys", {"seat": "1", "action_id": "x" * 65}, "action_id"),
    ("/buys", {"seat": "1", "action_id": "a\x00b"}, "action_id"),
    ("/buys", {"seat": HUGE}, "seat"),
    ("/buys/remove", {"seat": "1", "version": "-1"}, "version"),
    ("/run-outs", {"action_id": "a\x00"}, "action_id"),
    ("/run-outs", {"seen": HUGE}, "seen"),
    ("/undo", {"version": HUGE}, "version"),
    ("/undo", {"action_id": "<script>"}, "action_id"),
    ("/arbiter/buys", {"seat": "1", "action_id": "x" * 65}, "action_id"),
]


def stored(client: FlaskClient) -> tuple[int, int]:
    """Buys and history entries stored so far."""
    with client.application.app_context():
        return db.session.query(Buy).count(), db.session.query(Change).count()


@pytest.mark.parametrize(("path", "data", "field"), HIDDEN)
def test_hostile_hidden_fields_answer_422_naming_the_field(
    table: Table, path: str, data: dict[str, str], field: str
) -> None:
    table.start(["Anna", "Ben", "Carla"])
    before = stored(table.client)
    response = table.client.post(table.url + path, data=data)
    assert response.status_code == 422
    assert f"“{field}”" in response.get_data(as_text=True)
    assert stored(table.client) == before


def test_htmx_gets_the_refusal_as_a_message_not_a_page(table: Table) -> None:
    table.start(["Anna", "Ben"])
    data = {"seat": "1", "version": HUGE}
    response = table.client.post(f"{table.url}/buys", data=data, headers={"HX-Request": "true"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert page.strip().startswith('<p class="error" role="alert">') and "“version”" in page


@pytest.mark.parametrize(
    "data",
    [{"action_id": "x" * 65}, {"action_id": "a\x00"}, {"version": HUGE}, {"version": "²"}],
)
def test_the_end_of_round_form_refuses_hostile_hidden_fields(
    table: Table, data: dict[str, str]
) -> None:
    table.start(["Anna", "Ben"])
    before = stored(table.client)
    form = {"went_out": "0", "points_1": "5", **data}
    response = table.client.post(f"{table.url}/rounds/1", data=form)
    assert response.status_code == 422
    assert stored(table.client) == before


@pytest.mark.parametrize("move", ["²", "١", "99999999999999999999", "-1", "8", "\x00"])
def test_a_hostile_move_shows_the_form_again(client: FlaskClient, move: str) -> None:
    response = client.post("/games/", data={"players-0": "Anna", "players-1": "Ben", "move": move})
    assert response.status_code == 200
    with client.application.app_context():
        assert db.session.query(Game).count() == 0


def test_moving_a_player_up_still_works(client: FlaskClient) -> None:
    data = {"players-0": "Anna", "players-1": "Ben", "move": "1"}
    page = client.post("/games/", data=data).get_data(as_text=True)
    assert page.index('value="Ben"') < page.index('value="Anna"')


@pytest.mark.parametrize(
    "path", ["/g/99999999999999999999/x", "/g/2147483648/x", "/g/2147483648/x/sheet"]
)
def test_a_game_id_out_of_range_is_not_found(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404
    assert client.post(path + "/buys", data={"seat": "0"}).status_code == 404


@pytest.mark.parametrize(
    "target",
    [
        "/%09/evil.example",
        "/\t/evil.example",
        "/\r\nSet-Cookie: x=1",
        "/\nevil",
        "//evil.example",
        "/\\evil.example",
        "/%2F/evil.example",
        "/%5Cevil.example",
        "https://evil.example/",
        "\x00/",
    ],
)
def test_a_redirect_never_leaves_the_site(table: Table, target: str) -> None:
    table.start(["Anna", "Ben"])
    for path in ("/language", f"{table.url}/undo"):
        response = table.client.post(path, data={"next": target, "language": "de"})
        location = response.headers["Location"]
        assert response.status_code == 303
        assert location in ("/", table.url), location


def test_a_local_target_is_kept(table: Table) -> None:
    table.start(["Anna", "Ben"])
    response = table.client.post("/language", data={"next": "/rules/may-i?x=1"})
    assert response.headers["Location"] == "/rules/may-i?x=1"
