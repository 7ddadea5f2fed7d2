"""The OpenAPI document is valid OpenAPI 3.1, covers every route, and every call fits it."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import OpenAPIV31SpecValidator, validate

from scorekeeper.rate_limits import LIMITS, LINK_PATHS
from scorekeeper.rules.bounds import NUMBERS

from .conftest import Api, api_routes, bearer
from .documented import problems

AUTOMATIC = {"HEAD", "OPTIONS"}


def openapi_path(rule: str) -> str:
    """Flask's /games/<int:game_id> as OpenAPI's /games/{game_id}."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def test_the_document_passes_the_openapi_3_1_validator(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").json
    validate(document, cls=OpenAPIV31SpecValidator)  # raises with every problem it finds


def test_every_api_route_is_documented_with_its_methods(app: Flask, client: FlaskClient) -> None:
    paths = client.get("/api/openapi.json").json["paths"]
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            methods = {m.lower() for m in (rule.methods or set()) - AUTOMATIC}
            routes.setdefault(openapi_path(rule.rule), set()).update(methods)
            for method in methods:
                operation = paths[openapi_path(rule.rule)][method]
                assert operation["operationId"] == rule.endpoint.rpartition(".")[2]
    assert {path: set(ops) for path, ops in paths.items()} == routes
    assert any(path.startswith("/api/v1/games/{game_id}") for path in routes)


def test_every_route_a_rate_limit_refuses_documents_its_429(
    app: Flask, client: FlaskClient
) -> None:
    paths = client.get("/api/openapi.json").json["paths"]
    limited = {endpoint for kind in LIMITS.values() for endpoint in kind.endpoints}
    refused = [
        (method, rule)
        for method, rule in api_routes(app)
        if rule.rule.startswith(LINK_PATHS) or rule.endpoint in limited
    ]
    assert len(refused) > 30  # every URL a link opens, and the creations
    for method, rule in refused:
        assert "429" in paths[openapi_path(rule.rule)][method]["responses"], rule.rule


def test_the_document_is_openapi_3_1_and_every_reference_resolves(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").json
    assert document["openapi"] == "3.1.0"
    schemas = document["components"]["schemas"]
    refs = re.findall(
        r'"#/components/schemas/([^"]+)"', client.get("/api/openapi.json").get_data(as_text=True)
    )
    assert refs and set(refs) <= set(schemas)
    assert "Problem" in refs


def test_every_route_answers_and_reads_what_the_document_says(app: Flask, api: Api) -> None:
    document = api.client.get("/api/openapi.json").json
    adapter = app.url_map.bind("localhost")
    game = api.start()["id"]
    table = api.ok("post", "/tables", {"name": "Club"}, 201)
    table_token, tables = table["links"]["edit_token"], f"/api/v1/tables/{table['id']}"
    seating = {"ruleset": "may-i", "players": ["Anna", "Ann", "Ben"], "first_dealer": 0}
    assert (
        api.client.post(f"{tables}/games", json=seating, headers=bearer(table_token)).status_code
        == 201
    )
    people = api.client.get(tables, headers=bearer(table_token)).json["people"]
    anna, ann = (next(p["id"] for p in people if p["name"] == name) for name in ("Anna", "Ann"))
    file = api.client.get(f"{tables}/backup", headers=bearer(table_token)).json
    calls: list[tuple[str, str, Any]] = [
        ("get", "/api/openapi.json", None),
        ("get", "/api/v1/rulesets", None),
        ("get", "/api/v1/rulesets/liverpool", None),
        ("get", "/api/v1/rulesets/nope", None),
        (
            "post",
            "/api/v1/games",
            {"ruleset": "liverpool", "players": ["A", "B", "C"], "decks": None},
        ),
        ("post", "/api/v1/games", {"ruleset": "may-i", "players": ["A"]}),
        ("get", f"/api/v1/games/{game}", None),
        ("post", f"/api/v1/games/{game}/buys", {"seat": 1, "action_id": "a1"}),
        ("post", f"/api/v1/games/{game}/buys", {"seat": 1, "action_id": "a1"}),
        ("post", f"/api/v1/games/{game}/buys/remove", {"seat": 1, "version": 1}),
        ("post", f"/api/v1/games/{game}/buys/remove", {"seat": 1, "version": 2}),
        ("post", f"/api/v1/games/{game}/buys/remove", {"seat": 1}),
        ("post", f"/api/v1/games/{game}/arbiter", {"discarder": 0, "callers": [2, 3]}),
        (
            "post",
            f"/api/v1/games/{game}/arbiter",
            {"discarder": 0, "callers": [2], "add_buy": True},
        ),
        ("post", f"/api/v1/games/{game}/arbiter", {"discarder": 0, "callers": [2], "record": True}),
        ("post", f"/api/v1/games/{game}/down", {"seat": 2}),
        ("post", f"/api/v1/games/{game}/down", {"seat": 2, "down": False}),
        ("post", f"/api/v1/games/{game}/run-outs", {"seen": 0}),
        (
            "put",
            f"/api/v1/games/{game}/rounds/1",
            {
                "went_out": 0,
                "hands": {"1": {"points": 0}, "2": {"cards": "KC JK"}, "3": {"counts": {"A": 2}}},
                "cut_bonus_seat": None,
            },
        ),
        ("put", f"/api/v1/games/{game}/rounds/2", {"went_out": 0, "hands": {}}),
        ("put", f"/api/v1/games/{game}/rounds/1", {"went_out": 0, "hands": {}, "version": 1}),
        ("post", f"/api/v1/games/{game}/undo", {"action_id": "u1"}),
        ("post", f"/api/v1/games/{game}/undo", {"version": 1}),
        ("post", f"/api/v1/games/{game}/links/view", {"version": None}),
        ("post", f"/api/v1/games/{game}/seat-links/1", {}),
        ("post", f"/api/v1/games/{game}/seat-links/9", {}),
        ("get", f"/api/v1/games/{game}/seat", None),  # the edit link opens no seat: 401
        ("post", f"/api/v1/games/{game}/seat/calls", {}),  # likewise: 401
        ("put", f"/api/v1/games/{game}/seat/hand", {"round": 1, "points": 5}),  # likewise: 401
        ("get", f"/api/v1/games/{game}/rounds/1/pending", None),
        ("post", f"/api/v1/games/{game}/rounds/1/pending/1/send-back", {"note": "x"}),  # 422
        ("get", f"/api/v1/games/{game}/calls", None),
        ("post", f"/api/v1/games/{game}/calls/dismiss", {}),
        ("post", f"/api/v1/games/{game}/calls/grant", {"seat": 2}),
        ("get", f"/api/v1/games/{game}/history", None),
        ("get", f"/api/v1/games/{game}/version", None),
        ("get", "/api/v1/games/999/version", None),
        ("get", "/api/v1/games/999", None),
        ("post", f"/api/v1/games/{game}/undo", None),
        ("post", "/api/v1/tally", {"cards": "KC 7H JK", "ruleset": "shanghai", "players": 3}),
        ("post", "/api/v1/tally", {"counts": {"K": 1}}),
        ("post", "/api/v1/melds/check", {"round": 1, "melds": [["9S", "9H", "9S"], "KC KD JK"]}),
        ("post", "/api/v1/melds/check", {"meld": "9S 9H", "kind": "book", "round": None}),
        ("post", "/api/v1/rulesets/saved", {"name": "Ours", "rules": "aces-high"}),
        ("post", "/api/v1/rulesets/saved", {"name": "", "rules": "aces-high"}),
        ("get", "/api/v1/rulesets/saved/1", None),
        ("put", "/api/v1/rulesets/saved/1", {"name": "Ours too", "rules": "may-i"}),
        ("get", "/api/v1/rulesets/saved/999", None),
        ("post", "/api/v1/rulesets/validate", {"rules": "may-i"}),
        ("post", "/api/v1/rulesets/validate", {"rules": {"key": "x"}}),
        ("delete", "/api/v1/rulesets/saved/1", None),
        ("post", "/api/v1/tables", {"name": "Friday"}),
        ("post", "/api/v1/tables", {"name": " "}),
        ("get", tables, None),
        ("get", "/api/v1/tables/999", None),
        ("get", f"{tables}/games?before=99", None),
        ("get", f"{tables}/games?before=x", None),
        ("post", f"{tables}/games", {**seating, "players": ["Anna", "Cleo"]}),
        ("post", f"{tables}/games", {**seating, "ruleset": "house-99"}),
        ("get", f"{tables}/record", None),
        ("get", f"{tables}/parties", None),
        ("get", f"{tables}/parties/1", None),  # the table has no evening: 404
        ("post", f"{tables}/parties", {"ruleset": "may-i", "players": ["Zoe"]}),  # 422: too few
        ("post", f"{tables}/parties/1/redraw", {"version": 0}),  # 404 likewise
        ("post", f"{tables}/parties/1/swap", {"version": 0, "first": 1, "second": 2}),
        ("post", f"{tables}/parties/1/confirm", {"version": 0, "seating": [[1, 2, 3]]}),
        ("post", f"{tables}/parties/1/end", {"version": "x"}),  # 422
        ("get", f"{tables}/record?ruleset=may-i&since=2026-01-01&until=2999-12-31", None),
        ("get", f"{tables}/record?since=yesterday", None),
        ("get", f"{tables}/people/{anna}", None),
        ("get", f"{tables}/people/99999", None),
        ("put", f"{tables}/people/{ann}/name", {"name": "Annie"}),
        ("put", f"{tables}/people/{ann}/name", {"name": "anna"}),
        ("post", f"{tables}/merges", {"merged": ann, "into": anna}),
        ("post", f"{tables}/merges", {"merged": ann, "into": ann}),
        ("delete", f"{tables}/merges/{ann}", None),
        ("delete", f"{tables}/merges/{ann}", None),
        ("get", f"{tables}/games.csv", None),
        ("get", f"/api/v1/games/{game}/sheet.csv", None),
        ("get", f"{tables}/backup", None),
        ("post", "/api/v1/tables/restore", file),
        ("post", "/api/v1/tables/restore", {"format": "nope"}),
        ("post", f"{tables}/links/view", {}),
    ]
    statuses, routes = set(), set()
    set_token = ""  # a saved set opens with its own token, answered when it is saved
    for method, url, body in calls:
        headers = {"Authorization": f"Bearer {set_token}"} if "saved/" in url else api.headers
        headers = bearer(table_token) if url.startswith(tables) else headers
        response = getattr(api.client, method)(url, json=body, headers=headers)
        if url.endswith("/rulesets/saved") and response.status_code == 201:
            set_token = response.json["token"]
        statuses.add(response.status_code)
        endpoint, _ = adapter.match(url.split("?")[0], method=method.upper())
        routes.add((endpoint, method))
        rule = next(r for r in app.url_map.iter_rules() if r.endpoint == endpoint)
        operation = document["paths"][openapi_path(rule.rule)][method]
        assert str(response.status_code) in operation["responses"], (method, url, response.json)
        answer = operation["responses"][str(response.status_code)]
        ((media_type, content),) = answer["content"].items()
        assert response.mimetype == media_type, (url, response.status_code)
        schema = content.get("schema", {"type": "object"})
        value = response.json if media_type.endswith("json") else response.get_data(as_text=True)
        assert problems(value, schema, document) == [], (method, url)
        if body is not None:
            request_schema = operation["requestBody"]["content"]["application/json"]["schema"]
            fits = problems(body, request_schema, document) == []
            assert fits or response.status_code == 422, (method, url, body)  # refused alike
            assert fits or response.status_code >= 400, (method, url, body)
    assert {200, 201, 404, 409, 422} <= statuses
    assert routes == {(rule.endpoint, method) for method, rule in api_routes(app)}


def test_a_whole_rule_set_is_documented_with_the_engines_round_count(client: FlaskClient) -> None:
    schemas = client.get("/api/openapi.json").json["components"]["schemas"]
    for request, field in [("NewGame", "ruleset"), ("SavedRuleSetRequest", "rules")]:
        assert "6 to 12 rounds" in schemas[request]["properties"][field]["description"]


def bounds_in(schema: dict[str, Any]) -> tuple[int | None, int | None]:
    """The lowest and highest a property's schema allows: its value, size or entries."""
    for kind in (schema, *schema.get("anyOf", ())):
        if isinstance(kind.get("additionalProperties"), dict):
            kind = kind["additionalProperties"]
        for low, high in (("minimum", "maximum"), ("minItems", "maxItems"), (None, "maxLength")):
            if high in kind:
                return (kind.get(low, 0) if low else 0), kind[high]
    return None, None


def test_a_rule_set_sent_is_documented_with_every_bound_of_the_engine(
    client: FlaskClient,
) -> None:
    """The bounds of docs/RULES.md 9 (rules/bounds.py) are in the schema of what is sent."""
    schemas = client.get("/api/openapi.json").json["components"]["schemas"]
    for (kind, name), bound in NUMBERS.items():
        setting = schemas[f"{kind.__name__}-Input"]["properties"][name]
        low, high = bounds_in(setting)
        assert high == bound.high, (kind.__name__, name, setting)
        assert low == (bound.low if "maxLength" not in str(setting) else 0), (kind.__name__, name)
    answered = schemas["RuleSet-Output"]["properties"]["rounds"]  # a stored copy may hold 3
    assert "maxItems" not in answered
    players = schemas["NewGame"]["properties"]["players"]
    assert players["maxItems"] == 8


def test_the_old_field_name_is_documented_as_a_deprecated_alias(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").json
    fields = document["components"]["schemas"]["Call"]["properties"]
    assert fields["record"]["deprecated"] is True and "`add_buy`" in fields["record"]["description"]
    assert "deprecated" not in fields["add_buy"]
