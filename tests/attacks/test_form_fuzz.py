"""Hypothesis posts hostile values to every page route of the URL map, and to each newer form
field by field (the house-rule editor, saved sets, tables, people, record filters, checker,
display): never a 5xx, all escaped, no redirect off the site.

Values: lone surrogates (sent percent-encoded, as a browser cannot), NUL and other control
characters, right-to-left overrides, 10,000 characters, huge and odd numbers, markup.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from werkzeug.routing import Rule

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.models import Game, TablePlayer
from scorekeeper.pages.ruleset_form import flatten
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.figures import FIGURES

pytestmark = pytest.mark.storage

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
    "players-0", "players-1", "players-2", "players-9", "record", "before", "name",
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


Pairs = list[tuple[str, str]]


def encode(pairs: Pairs) -> bytes:
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
        send(client, f"form fuzz {backend}", method, path, pairs)

    return survives


def send(client: FlaskClient, attack: str, method: str, path: str, pairs: Pairs) -> None:
    """Send hostile pairs as a form (or a query string): never a 5xx, nothing unescaped, no
    redirect off the site."""
    query = encode(pairs).decode() if method == "GET" else ""
    with client.open(
        f"{path}?{query}" if query else path,
        method=method,
        data=encode(pairs) if method != "GET" else None,
        content_type="application/x-www-form-urlencoded",
        headers={"HX-Request": "true"} if len(pairs) % 2 else {},
    ) as response:
        body = response.get_data(as_text=True)
    FIGURES[f"{attack}:requests"] += 1
    FIGURES[f"{attack}:{response.status_code // 100}xx"] += 1
    assert response.status_code < 500, (method, path, pairs)
    assert MARK not in body, (method, path, pairs)
    location = response.headers.get("Location", "")
    assert not location.startswith(("//", "/\\", "http")), location


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


# The newer forms, each with its own fields: the editor (every setting), saved sets, tables,
# people (added by a game, renamed, merged, unmerged), record filters, checker and display.
EDITOR = [*flatten(ruleset_to_dict(MAY_I)), "op", "saved", "saved_token"]
SEATS = ["ruleset", "first_dealer", "decks", "move", "players-0", "players-1", "players-8"]
FILTERS = ["ruleset", "since", "until"]
# A valid form each hostile value replaces a field of, so it reaches the checks behind it.
FULL = {
    "editor": [
        (path, str(value).lower() if isinstance(value, bool) else str(value))
        for path, value in flatten({**ruleset_to_dict(MAY_I), "name": "Ours"}).items()
        if value is not None and not isinstance(value, bool)
    ],
    "seats": [("ruleset", "may-i"), ("players-0", "Anna"), ("players-1", "Eve")],
    "none": [],
}
NEWER = [
    ("POST", "/house-rules/", EDITOR, "editor"),
    ("POST", "/house-rules/check", EDITOR, "editor"),
    ("POST", "{house}", EDITOR, "editor"),
    ("GET", "/house-rules/new", ["from", "rules"], "none"),
    ("GET", "/house-rules/shared", ["r"], "none"),
    ("POST", "/house-rules/shared", ["r"], "none"),
    ("POST", "/tables/", ["name"], "none"),
    ("POST", "{table}/games", SEATS, "seats"),
    ("POST", "{table}/people/{person}/name", ["name"], "none"),
    ("GET", "{table}/merge", ["merged", "into"], "none"),
    ("POST", "{table}/merge", ["merged", "into"], "none"),
    ("POST", "{table}/people/{person}/unmerge", ["player"], "none"),
    ("GET", "{table}", ["before"], "none"),
    ("GET", "{table}/record", FILTERS, "none"),
    ("GET", "{table}/people/{person}", FILTERS, "none"),
    ("GET", "{game}/check", ["kind", "suit", "cards", "add", "op"], "none"),
    ("GET", "{game}/display", ["v"], "none"),
    ("GET", "{game}/sheet", ["before"], "none"),
]
numbers = st.sampled_from(["-1", "0", "1", "2", "3", "13", "999999999", "2147483648", "1e9", "٣"])


def hammer(
    client: FlaskClient, backend: str, target: tuple[str, str, list[str], str]
) -> Callable[[], None]:
    """A hypothesis test sending hostile values in place of a valid form's (or a query's)."""
    method, url, fields, full = target
    hostile = st.lists(st.tuples(st.sampled_from(fields), st.one_of(values, numbers)), max_size=8)

    @given(hostile=hostile)
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    def survives(hostile: list[tuple[str, str]]) -> None:
        replaced = {field for field, _value in hostile}
        pairs = [pair for pair in FULL[full] if pair[0] not in replaced] + hostile
        send(client, f"newer forms fuzz {backend}", method, url, pairs)

    return survives


def newer_urls(app: Flask, client: FlaskClient) -> dict[str, str]:
    """A table with four people, a finished game and one under way, and a saved set."""
    with app.app_context():
        saved = house_rules.create("Ours", MAY_I)
        house = f"/house-rules/{saved.id}/{saved.token}"
    client.get(f"{house}/edit")  # this browser remembers the set
    table = client.post("/tables/", data={"name": "Thursday club"}).headers["Location"]
    names = {f"players-{i}": name for i, name in enumerate(["Anna", "Ben", "Carla", "Dev"])}
    game = client.post(f"{table}/games", data={"ruleset": "may-i", **names}).headers["Location"]
    client.post(f"{game}/buys", data={"seat": "1"})
    client.post(f"{game}/down", data={"seat": "2", "down": "1"})
    with app.app_context():
        person = db.session.scalars(select(TablePlayer.id).order_by(TablePlayer.id)).first()
    return {"house": house, "table": table, "game": game, "person": str(person)}


def test_every_newer_form_survives_hostile_values(app: Flask, database_url: str) -> None:
    backend, client = database_url.split(":", 1)[0], app.test_client()
    urls = newer_urls(app, client)
    for method, url, fields, full in NEWER:
        hammer(client, backend, (method, url.format(**urls), fields, full))()
    assert FIGURES[f"newer forms fuzz {backend}:5xx"] == 0


@given(
    path=st.sampled_from(list(flatten(ruleset_to_dict(MAY_I)))),
    value=st.one_of(values, st.integers()),
)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_an_imported_rule_set_file_with_a_hostile_value_is_refused_or_saved(
    app: Flask, path: str, value: object
) -> None:
    data = ruleset_to_dict(MAY_I)
    *parents, last = path.split(".")
    target: Any = data
    for part in parents:
        target = target[int(part)] if isinstance(target, list) else target[part]
    target[int(last) if isinstance(target, list) else last] = value
    text = json.dumps(data).encode("utf-8", "surrogatepass")
    with app.test_client() as client:
        response = client.post("/house-rules/import", data={"file": (io.BytesIO(text), "x.json")})
        assert response.status_code in (303, 422), response.status_code
        assert MARK not in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/g/99999999999999999999/x", "/g/2147483648/x/sheet"])
def test_game_ids_beyond_the_column_are_not_found(app: Flask, path: str) -> None:
    assert app.test_client().get(path).status_code == 404
