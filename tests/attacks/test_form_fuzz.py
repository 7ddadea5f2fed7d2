"""Hypothesis posts hostile values to every page route of the URL map: never a 5xx, all escaped.

Values: lone surrogates (sent percent-encoded, as a browser cannot), NUL and other control
characters, right-to-left overrides, 10,000 characters, huge and odd numbers, markup.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.routing import Rule

from scorekeeper.extensions import db
from scorekeeper.games import actions, house_rules
from scorekeeper.models import Game
from scorekeeper.rules.presets import MAY_I

from .conftest import FIGURES

EXAMPLES = 20  # per route: about 620 requests per database, under a minute each
MARK = "<x-fuzz>"  # must never come back unescaped
HOSTILE = [
    "\ud800",
    "a\udfffb",
    "\x00",
    "A\x00B",
    "\x1b[31m",
    "\r\n",
    "\u202eevil",
    "\u200b",
    "\ufeff",
    "x" * 10_000,
    "9" * 30,
    "-1",
    "2147483648",
    "99999999999999999999",
    "1e308",
    "NaN",
    "²",
    "١",
    " 1 ",
    "0x10",
    "",
    MARK,
    f"{MARK}<script>alert(1)</script>",
    "/%09/evil.example",
    "//evil.example",
    "' OR 1=1 --",
    "K K JK",
    "stock",
]
FIELDS = [
    "seat", "version", "action_id", "seen", "discarder", "callers", "turn_player_draws",
    "went_out", "points_0", "points_1", "cards_0", "cards_1", "cut_bonus_seat", "tap",
    "next", "language", "theme", "ruleset", "first_dealer", "decks", "move", "v",
    "players-0", "players-1", "players-2", "players-9", "record",
]  # fmt: skip
values = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40), st.integers().map(str))
forms = st.lists(st.tuples(st.sampled_from(FIELDS), values), max_size=8)


def page_routes(app: Flask) -> list[tuple[str, Rule]]:
    """Every (method, rule) of the HTML front door: the API has its own fuzz."""
    routes = [
        (method, rule)
        for rule in app.url_map.iter_rules()
        if not rule.rule.startswith(("/api", "/static"))
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    ]
    return sorted(routes, key=lambda route: (route[1].rule, route[0]))


def encode(pairs: list[tuple[str, str]]) -> bytes:
    """A form body as a hostile client sends it: surrogates too, percent-encoded."""
    return "&".join(
        f"{quote(key)}={quote(value, errors='surrogatepass')}" for key, value in pairs
    ).encode()


def fuzz(app: Flask, game_id: int, backend: str, method: str, rule: Rule) -> Callable[[], None]:
    """A hypothesis test sending hostile forms (or query strings) to one route."""
    client = app.test_client()

    @given(pairs=forms, number=st.sampled_from([1, 2, 0, 2**31, 10**20]))
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    def survives(pairs: list[tuple[str, str]], number: int) -> None:
        with app.app_context():
            token = db.session.get(Game, game_id).edit_token  # a fuzzed call may replace it
            db.session.remove()
        values = {"game_id": game_id, "token": token, "number": number, "role": "view"}
        values["key"] = "may-i"
        values["ruleset_id"] = 1  # the one saved set, opened by the same token
        # Other ids (a table, a person) are fuzzed numbers: mostly no such thing.
        arguments = {name: values.get(name, number) for name in rule.arguments}
        path = rule.build(arguments, append_unknown=False)[1]
        query = encode(pairs).decode() if method == "GET" else ""
        with client.open(
            f"{path}?{query}" if query else path,
            method=method,
            data=encode(pairs) if method != "GET" else None,
            content_type="application/x-www-form-urlencoded",
            headers={"HX-Request": "true"} if len(pairs) % 2 else {},
        ) as response:
            body = response.get_data(as_text=True)
        FIGURES[f"form fuzz {backend}:requests"] += 1
        FIGURES[f"form fuzz {backend}:5xx"] += response.status_code >= 500
        assert response.status_code < 500, (method, path, pairs)
        assert MARK not in body, (method, path, pairs)
        location = response.headers.get("Location", "")
        assert not location.startswith(("//", "/\\", "http")), location

    return survives


def test_every_page_route_survives_hostile_forms(app: Flask, database_url: str) -> None:
    backend = database_url.split(":", 1)[0]
    with app.app_context():
        game = actions.create_game(MAY_I, ["Anna", "Ben", "Carla", "Dev"], 0)
        game_id = game.id
        # A saved set that opens with the game's link, so one filled-in URL reaches its pages.
        house_rules.create("Ours", MAY_I).token = game.edit_token
        db.session.commit()
    routes = page_routes(app)
    assert len(routes) > 25
    for method, rule in routes:
        fuzz(app, game_id, backend, method, rule)()
    assert FIGURES[f"form fuzz {backend}:5xx"] == 0


@pytest.mark.parametrize("path", ["/g/99999999999999999999/x", "/g/2147483648/x/sheet"])
def test_game_ids_beyond_the_column_are_not_found(app: Flask, path: str) -> None:
    assert app.test_client().get(path).status_code == 404
