"""The access matrix of the newer half: every table route, saved rule set route and restore,
with every kind of link, answers the right status and never reads or writes across.

Seat links too: a seat's link opens its own seat's page and API view, no game page or game
route of the API, and no other game's seat.

Kinds of link: the right edit link, the view link (where only the edit link may go), a wrong
one, a replaced edit or view link, another table's, a game's and a saved rule set's link.
A refused request changes no stored fact and shows nothing of the table it named.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from scorekeeper import house_rules
from scorekeeper.extensions import db
from scorekeeper.games import actions, seat_links
from scorekeeper.models import (
    CardParty,
    CardTable,
    Game,
    PartyPerson,
    SeatHand,
    SeatLink,
    TablePlayer,
)
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from scorekeeper.tables import table_links
from scorekeeper.tables.party_watch import replace_watch_link
from tests.api.conftest import api_routes, bearer, rule_url
from tests.figures import FIGURES
from tests.tables.backups import backup_of, encoded, stored_facts, upload
from tests.tables.helpers import open_table, start_at
from tests.tables.party_helpers import start_party
from tests.web.test_house_rules import form_of

# What is stored before and after every refusal, and writers taking turns: both databases.
pytestmark = pytest.mark.storage

# Every table route: its path under /t/<id>/<token>, its method, and whether the view link
# may open it (only GETs; never a change).
TABLE_ROUTES: dict[str, tuple[str, str, bool]] = {
    "table.show": ("GET", "", True),
    "table.record": ("GET", "/record", True),
    "table.new_game": ("GET", "/games/new", False),
    "table.start": ("POST", "/games", False),
    "table.share": ("GET", "/share", True),
    "table.replace_link": ("POST", "/links/view", False),
    "table.people.show": ("GET", "/people/{anna}", True),
    "table.people.rename": ("POST", "/people/{anna}/name", False),
    "table.people.preview": ("GET", "/merge?merged={anne}&into={anna}", False),
    "table.people.merge": ("POST", "/merge", False),
    "table.people.unmerge": ("POST", "/people/{anne}/unmerge", False),
    "table.downloads.table_csv": ("GET", "/games.csv", True),
    "table.downloads.table_backup": ("GET", "/backup.json", False),
}
FORMS = {
    "table.start": {
        "ruleset": "may-i",
        "first_dealer": "0",
        "players-0": "Anna",
        "players-1": "Xi",
    },
    "table.people.rename": {"name": "Annabel"},
    "table.people.merge": {"merged": "{anne}", "into": "{anna}"},
}
EVENING = ["Olaf", "Petra", "Quentin", "Ruth"]  # a card party's people, at a table of its own
REFUSED_KINDS = {
    "wrong": 404,
    "another table's edit": 404,
    "a game's edit": 404,
    "a rule set's": 404,
    "replaced edit": 410,
    "replaced view": 410,
}


@dataclass
class World:
    """Two tables with people and games, a game of no table, two saved rule sets."""

    table: int
    edit: str
    view: str
    tokens: dict[str, str]  # every other kind of link, by kind
    anna: int
    anne: int
    other_table: int
    other_person: int
    sets: tuple[tuple[int, str], tuple[int, str]]


def _person(app: Flask, table_id: int, name: str) -> int:
    with app.app_context():
        query = select(TablePlayer.id).where(
            TablePlayer.table_id == table_id, TablePlayer.name == name
        )
        found = db.session.scalar(query)
        db.session.remove()
        assert found is not None
        return found


@pytest.fixture
def world(app: Flask, client: FlaskClient) -> World:
    """The tables, links and sets every request of the matrix names."""
    url = open_table(client, "Club A")
    start_at(client, url, ["Anna", "Ben"])
    start_at(client, url, ["Anne", "Carla"])
    other = open_table(client, "Club B")
    start_at(client, other, ["Zoe", "Yan"])
    table_id, other_id = int(url.split("/")[2]), int(other.split("/")[2])
    with app.app_context():
        table = db.session.get(CardTable, table_id)
        assert table is not None
        old_edit, old_view = table.edit_token, table.view_token
        edit, view = table_links.rotate(table, "edit"), table_links.rotate(table, "view")
        other_edit = db.session.get(CardTable, other_id).edit_token  # type: ignore[union-attr]
        game = actions.create_game(MAY_I, ["Dan", "Eve"], 0).edit_token
        sets = tuple(
            (saved.id, saved.token)
            for saved in (
                house_rules.create("Ours", MAY_I),
                house_rules.create("Theirs", MAY_I),
            )
        )
        db.session.remove()
    tokens = {
        "wrong": "x" * 43,
        "another table's edit": other_edit,
        "a game's edit": game,
        "a rule set's": sets[0][1],
        "replaced edit": old_edit,
        "replaced view": old_view,
    }
    return World(
        table_id,
        edit,
        view,
        tokens,
        _person(app, table_id, "Anna"),
        _person(app, table_id, "Anne"),
        other_id,
        _person(app, other_id, "Zoe"),
        sets,  # type: ignore[arg-type]
    )


def _call(client: FlaskClient, world: World, route: str, token: str, **ids: int) -> TestResponse:
    """One request of a table route through a link, naming the world's people (or `ids`)."""
    method, path, _viewable = TABLE_ROUTES[route]
    names = {"anna": world.anna, "anne": world.anne, **ids}
    url = f"/t/{world.table}/{token}{path.format(**names)}"
    form = {k: v.format(**names) for k, v in FORMS.get(route, {}).items()}
    return client.open(url, method=method, data=form if method == "POST" else None)


# A CSRF token is random text: one holding "Zoe" is no leak (seen twice in a run).
CSRF_TOKENS = re.compile(r'(name="csrf_token" value=|"X-CSRFToken": )"[^"]*"')


def _shows_nothing_of_the_table(response: TestResponse) -> bool:
    page = CSRF_TOKENS.sub("", response.get_data(as_text=True))
    return not any(name in page for name in ("Club A", "Anna", "Carla", "Club B", "Zoe"))


@pytest.mark.parametrize("route", TABLE_ROUTES)
def test_every_table_route_refuses_every_wrong_kind_of_link_and_changes_nothing(
    app: Flask, client: FlaskClient, world: World, route: str
) -> None:
    before = stored_facts(app)
    statuses: Counter[int] = Counter()
    for kind, status in REFUSED_KINDS.items():
        response = _call(client, world, route, world.tokens[kind])
        statuses[response.status_code] += 1
        assert response.status_code == status, (kind, response.status_code)
        assert _shows_nothing_of_the_table(response), kind
    viewable = TABLE_ROUTES[route][2]
    by_view = _call(client, world, route, world.view)
    assert by_view.status_code == (200 if viewable else 403)
    statuses[by_view.status_code] += 1
    assert stored_facts(app) == before
    by_edit = _call(client, world, route, world.edit)
    opened = (
        (200, 303, 422) if route == "table.people.unmerge" else (200, 303)
    )  # Anne is not merged
    assert by_edit.status_code in opened, by_edit.get_data(as_text=True)[:500]
    statuses[by_edit.status_code] += 1
    FIGURES.update({f"access matrix:table routes {code}": n for code, n in statuses.items()})


def _routes_under(app: Flask, door: str, fill: dict[str, str]) -> list[tuple[str, str]]:
    """Every route under a door ("/t/", "/g/"), GET and POST, its placeholders filled in: the
    fixed lists above and whatever nests under the door later (the card party's pages)."""
    urls = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(door):
            url = rule.rule
            for placeholder, value in fill.items():
                url = url.replace(placeholder, value)
            urls += [(method, url) for method in sorted((rule.methods or set()) & {"GET", "POST"})]
    return urls


def _door_urls(app: Flask, world: World, token: str) -> list[tuple[str, str]]:
    """Every route under the table's door, filled in for the world's table and Anna."""
    fill = {"<int:table_id>": str(world.table), "<token>": token, "<role>": "view"}
    return _routes_under(
        app, "/t/", fill | {"<int:player_id>": str(world.anna), "<int:party_id>": "1"}
    )


def test_every_route_under_the_table_door_refuses_every_wrong_kind_of_link(
    app: Flask, client: FlaskClient, world: World
) -> None:
    before = stored_facts(app)
    asked = 0
    for kind, status in REFUSED_KINDS.items():
        for method, url in _door_urls(app, world, world.tokens[kind]):
            response = client.open(url, method=method, data={"name": "Annabel"})
            assert response.status_code == status, (kind, method, url)
            assert _shows_nothing_of_the_table(response), (kind, url)
            asked += 1
    for method, url in _door_urls(app, world, world.view):
        if method == "POST":  # the view link changes nothing
            assert client.post(url, data={"name": "Annabel"}).status_code == 403, url
            asked += 1
    assert stored_facts(app) == before
    FIGURES["access matrix:table door requests"] += asked


@pytest.mark.parametrize("prefix", ["/p", "/w"])
def test_a_wrong_evening_link_opens_nothing(
    app: Flask, client: FlaskClient, world: World, prefix: str
) -> None:
    start_party(client, EVENING)
    with app.app_context():
        party = db.session.get_one(CardParty, 1)
        table = db.session.get_one(CardTable, party.table_id)
        person = db.session.scalars(select(PartyPerson.token)).first()
        right = {"/p": person, "/w": replace_watch_link(table, party)}[prefix]
        db.session.commit()
    assert client.get(f"{prefix}/1/{right}").status_code == 200  # the link itself opens
    rules = [rule.rule for rule in app.url_map.iter_rules() if rule.rule.startswith(f"{prefix}/")]
    for kind in ("wrong", "another table's edit", "replaced edit"):
        for rule in rules:
            url = rule.replace("<int:party_id>", "1").replace("<token>", world.tokens[kind])
            response = client.get(url)
            assert response.status_code == 404, (kind, url)
            page = CSRF_TOKENS.sub("", response.get_data(as_text=True))
            assert not any(name in page for name in EVENING), (kind, url)


@pytest.mark.parametrize(
    "route", ["table.people.show", "table.people.rename", "table.people.unmerge"]
)
def test_another_tables_person_is_not_found_through_this_tables_link(
    app: Flask, client: FlaskClient, world: World, route: str
) -> None:
    before = stored_facts(app)
    elsewhere = {"anna": world.other_person, "anne": world.other_person}
    response = _call(client, world, route, world.edit, **elsewhere)
    assert response.status_code == 404
    assert "Zoe" not in CSRF_TOKENS.sub("", response.get_data(as_text=True))
    assert stored_facts(app) == before


def test_a_merge_with_another_tables_person_is_refused_and_changes_nothing(
    app: Flask, client: FlaskClient, world: World
) -> None:
    before = stored_facts(app)
    for merged, into in ((world.other_person, world.anna), (world.anne, world.other_person)):
        url = f"/t/{world.table}/{world.edit}/merge"
        preview = client.get(f"{url}?merged={merged}&into={into}")
        done = client.post(url, data={"merged": str(merged), "into": str(into)})
        assert preview.status_code in (404, 422) and done.status_code in (404, 422)
        assert "Zoe" not in done.get_data(as_text=True) + preview.get_data(as_text=True)
    assert stored_facts(app) == before


# Every saved rule set route, with the set's id and a link: page routes carry it in the path,
# the API in a bearer token.
SET_ROUTES = {
    "house_rules.edit": ("GET", "/house-rules/{id}/{token}/edit"),
    "house_rules.update": ("POST", "/house-rules/{id}/{token}"),
    "house_rules.duplicate": ("POST", "/house-rules/{id}/{token}/duplicate"),
    "house_rules.export": ("GET", "/house-rules/{id}/{token}/rules.json"),
    "house_rules.share": ("GET", "/house-rules/{id}/{token}/share"),
    "house_rules.delete": ("POST", "/house-rules/{id}/{token}/delete"),
    "api.rulesets.saved_show": ("GET", "/api/v1/rulesets/saved/{id}"),
    "api.rulesets.saved_update": ("PUT", "/api/v1/rulesets/saved/{id}"),
    "api.rulesets.saved_delete": ("DELETE", "/api/v1/rulesets/saved/{id}"),
}
RULES = {**ruleset_to_dict(MAY_I), "name": "Changed"}


def _set_call(client: FlaskClient, route: str, set_id: int, token: str) -> TestResponse:
    method, path = SET_ROUTES[route]
    url = path.format(id=set_id, token=token)
    if route.startswith("api."):
        body = {"name": "Changed", "rules": RULES} if method == "PUT" else None
        headers = {"Authorization": f"Bearer {token}"}
        return client.open(url, method=method, json=body, headers=headers)
    form = form_of(RULES) if route.endswith("update") else None
    return client.open(url, method=method, data=form)


@pytest.mark.parametrize("route", SET_ROUTES)
def test_every_saved_set_route_opens_only_with_the_sets_own_link(
    app: Flask, client: FlaskClient, world: World, route: str
) -> None:
    (ours, our_token), (theirs, their_token) = world.sets
    before = stored_facts(app)
    kinds = {
        "wrong": "x" * 43,
        "another set's": their_token,
        "a table's edit": world.edit,
        "a game's edit": world.tokens["a game's edit"],
    }
    refused = 401 if route.startswith("api.") else 404  # a bearer token that opens nothing
    for kind, token in kinds.items():
        response = _set_call(client, route, ours, token)
        assert response.status_code == refused, (kind, response.status_code)
        assert "Ours" not in response.get_data(as_text=True), kind
    assert _set_call(client, route, theirs, our_token).status_code == refused  # ours on theirs
    assert stored_facts(app) == before
    done = _set_call(client, route, ours, our_token)
    assert done.status_code in (200, 303), done.get_data(as_text=True)[:300]
    FIGURES["access matrix:saved set requests"] += len(kinds) + 2


def test_a_restore_never_writes_into_a_table_it_holds_no_links_of(
    app: Flask, client: FlaskClient, world: World
) -> None:
    other_edit = world.tokens["another table's edit"]
    url = f"/t/{world.other_table}/{other_edit}"
    backup = backup_of(client, url)
    with app.app_context():
        ours = db.session.get(CardTable, world.table)
        assert ours is not None
        backup["table"]["uid"] = ours.uid  # B's file claiming to be table A
        db.session.remove()
    before = stored_facts(app)
    refused = upload(client, encoded(backup))
    assert refused.status_code == 422
    assert stored_facts(app) == before


# Seat links (issue 24.1): a seat link opens its own seat's page and API view, nothing else.
GAME_PAGE_FILL = {"<int:number>": "1", "<role>": "view", "<int:table_id>": "1"}
GAME_PAGE_FILL |= {"<int:player_id>": "1", "<int:ruleset_id>": "1", "<int(max=999):seat>": "0"}


@dataclass
class Seated:
    """Two games of no table: each seat's link, the games' own links, a replaced seat link."""

    game: int
    other: int
    seats: dict[int, str]
    others: dict[int, str]
    edit: str
    view: str
    replaced: str


@pytest.fixture
def seated(app: Flask) -> Seated:
    """Two games with their seat links; seat 1's first link of the first game replaced."""
    with app.app_context():
        game = actions.create_game(MAY_I, ["Anna", "Ben", "Carla"], 0)
        other = actions.create_game(MAY_I, ["Zoe", "Yan"], 0)
        old = seat_links.links_of(game.id)[1]
        seat_links.rotate(game.id, 1)
        made = Seated(
            game.id,
            other.id,
            seat_links.links_of(game.id),
            seat_links.links_of(other.id),
            game.edit_token,
            game.view_token,
            old,
        )
        db.session.remove()
    return made


def _seat_facts(app: Flask) -> list[tuple[object, ...]]:
    """Every seat link, hand entered on a phone and game version stored: what a refused
    request must leave."""
    with app.app_context():
        rows = [
            *db.session.execute(select(SeatLink.game_id, SeatLink.seat, SeatLink.token)).all(),
            *db.session.execute(select(SeatHand.game_id, SeatHand.seat, SeatHand.points)).all(),
            *db.session.execute(select(Game.id, Game.version)).all(),
        ]
        db.session.remove()
    return [tuple(row) for row in rows]


def _game_page_urls(app: Flask, game_id: int, token: str) -> list[tuple[str, str]]:
    """Every page route under /g/<id>/<token>, GET and POST, filled in for this game."""
    fill = {"<int:game_id>": str(game_id), "<token>": token}
    return _routes_under(app, "/g/", fill | GAME_PAGE_FILL)


def test_a_seat_link_opens_no_game_page_and_changes_nothing(
    app: Flask, client: FlaskClient, seated: Seated
) -> None:
    before, facts = stored_facts(app), _seat_facts(app)
    asked = 0
    for token in seated.seats.values():
        for method, url in _game_page_urls(app, seated.game, token):
            response = client.open(url, method=method, data={"seat": "0", "points_0": "5"})
            assert response.status_code == 404, (method, url)
            assert "Anna" not in CSRF_TOKENS.sub("", response.get_data(as_text=True))
            asked += 1
    assert stored_facts(app) == before and _seat_facts(app) == facts
    FIGURES["access matrix:seat links on game pages"] += asked


def test_a_seat_link_opens_no_game_route_of_the_api_and_changes_nothing(
    app: Flask, client: FlaskClient, seated: Seated
) -> None:
    before, facts = stored_facts(app), _seat_facts(app)
    asked = 0
    for method, rule in api_routes(app):
        if "game_id" not in rule.arguments or rule.endpoint.startswith("api.seats.seat_"):
            continue
        url = rule_url(rule, seated.game)
        for token in seated.seats.values():
            headers = {"Authorization": f"Bearer {token}"}
            response = client.open(url, method=method.upper(), json={}, headers=headers)
            assert response.status_code == 401, (method, url, response.status_code)
            assert "Anna" not in CSRF_TOKENS.sub("", response.get_data(as_text=True))
            asked += 1
    assert stored_facts(app) == before and _seat_facts(app) == facts
    FIGURES["access matrix:seat links on the API's game routes"] += asked


SEAT_PAGES = ("", "/version?v=0&on=round", "/rules")


def test_a_seat_page_opens_only_with_its_own_games_current_seat_link(
    app: Flask, client: FlaskClient, seated: Seated
) -> None:
    facts = _seat_facts(app)
    refused = {
        "the game's edit": (seated.edit, 404),
        "the game's view": (seated.view, 404),
        "another game's seat": (seated.others[0], 404),
        "wrong": ("x" * 32, 404),
        "replaced seat": (seated.replaced, 410),
    }
    for path in SEAT_PAGES:
        for kind, (token, status) in refused.items():
            response = client.get(f"/s/{seated.game}/{token}{path}")
            assert response.status_code == status, (kind, path)
            assert "Anna" not in response.get_data(as_text=True), kind
        assert client.get(f"/s/{seated.other}/{seated.seats[0]}{path}").status_code == 404
        for token in seated.seats.values():
            assert client.get(f"/s/{seated.game}/{token}{path}").status_code == 200
    api = f"/api/v1/games/{seated.game}/seat"
    for kind, (token, status) in refused.items():
        response = client.get(api, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == (401 if status == 404 else status), kind
    for seat, token in seated.seats.items():
        answer = client.get(api, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200 and answer.json["seat"] == seat
    assert _seat_facts(app) == facts
    FIGURES["access matrix:seat page requests"] += len(SEAT_PAGES) * (len(refused) + 4) + 8


# A seat's own changes (issue 24.2, 24.3): its hand, a tap on its pad, its "May I?".
SEAT_CHANGES = ("/hand", "/hand/tap", "/calls")
EVERY_HAND = {"number": "1", "tap": "0:K"} | {f"points_{seat}": str(5 + seat) for seat in range(3)}


def test_a_seat_changes_only_its_own_facts_and_only_through_its_own_link(
    app: Flask, client: FlaskClient, seated: Seated
) -> None:
    facts = _seat_facts(app)
    refused = {
        "the game's edit": (seated.edit, 404, 401),
        "the game's view": (seated.view, 404, 401),
        "another game's seat": (seated.others[0], 404, 401),
        "wrong": ("x" * 32, 404, 401),
        "replaced seat": (seated.replaced, 410, 410),
    }
    api = f"/api/v1/games/{seated.game}/seat/hand"
    for kind, (token, status, api_status) in refused.items():
        for path in SEAT_CHANGES:
            response = client.post(f"/s/{seated.game}/{token}{path}", data=EVERY_HAND)
            assert response.status_code == status, (kind, path)
            assert "Anna" not in response.get_data(as_text=True), kind
        answer = client.put(api, json={"round": 1, "points": 5}, headers=bearer(token))
        assert answer.status_code == api_status, kind
    assert _seat_facts(app) == facts
    # Each seat's own link: the hand it enters is its own, whatever else the form posts.
    for seat, token in seated.seats.items():
        entered = client.post(f"/s/{seated.game}/{token}/hand", data=EVERY_HAND)
        assert entered.status_code == 303, seat
        assert client.post(f"/s/{seated.other}/{token}/hand", data=EVERY_HAND).status_code == 404
    with app.app_context():
        stored = db.session.execute(select(SeatHand.game_id, SeatHand.seat, SeatHand.points))
        assert sorted(tuple(row) for row in stored) == [(seated.game, s, 5 + s) for s in range(3)]
        db.session.remove()
    FIGURES["access matrix:seat change requests"] += len(refused) * (len(SEAT_CHANGES) + 1) + 6


def test_only_the_edit_link_reads_or_replaces_seat_links(
    app: Flask, client: FlaskClient, seated: Seated
) -> None:
    facts = _seat_facts(app)
    url = f"/api/v1/games/{seated.game}"
    for token in (seated.view, *seated.seats.values()):
        shown = client.get(url, headers={"Authorization": f"Bearer {token}"})
        assert shown.status_code in (200, 401) and not (shown.json or {}).get("seat_links")
        page = client.get(f"/g/{seated.game}/{token}/share").get_data(as_text=True)
        others = [seat for seat in seated.seats.values() if seat != token]
        assert not any(seat in page for seat in others), token == seated.view
        replaced = client.post(
            f"{url}/seat-links/0", json={}, headers={"Authorization": f"Bearer {token}"}
        )
        assert replaced.status_code in (401, 403)
        assert client.post(f"/g/{seated.game}/{token}/seat-links?seat=0").status_code in (403, 404)
    assert _seat_facts(app) == facts
    by_edit = client.get(url, headers={"Authorization": f"Bearer {seated.edit}"}).json
    assert {link["seat"]: link["token"] for link in by_edit["seat_links"]} == seated.seats
