"""The round screen's regions render once per change, not once per phone (issue 37 step 2):
kept per game version, language and link, without the forms' CSRF token and action ids."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper.extensions import db
from scorekeeper.pages.kept_regions import ACTION_MARK, CSRF_MARK
from tests.conftest import Table
from tests.web.test_games import HX, PLAYERS
from tests.web.test_queries import ben_buys, statements
from tests.web.test_security import changes, guarded_app  # noqa: F401  (a fixture)

pytestmark = pytest.mark.storage

POLLER = re.compile(r'id="poller"[^>]*hx-get="([^"]+)"')
ACTION_ID = re.compile(r'name="action_id" value="([^"]*)"')
CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]*)"')
# The unchanged-poll check, the link's check and, on SQLite, BEGIN: the state the change kept
# and the regions it rendered are served as they are.
WATCHER_STATEMENTS = {"sqlite": 3, "postgresql": 2}


@contextmanager
def rendered(app: Flask) -> Iterator[list[str]]:
    """The names of the templates the app renders while the block runs."""
    names: list[str] = []

    def record(_sender: Flask, template: Any, **_extra: object) -> None:
        names.append(template.name)

    with template_rendered.connected_to(record, app):
        yield names


def poll_of(page: str) -> str:
    """The URL a page's poller asks."""
    found = POLLER.search(page)
    assert found is not None
    return html.unescape(found[1])


def test_a_watcher_after_a_change_renders_nothing(app: Flask, table: Table) -> None:
    table.start(PLAYERS, ruleset="unlimited-buys")
    watchers = [app.test_client() for _ in range(2)]
    polls = [poll_of(watcher.get(table.url).get_data(as_text=True)) for watcher in watchers]
    tapped = table.client.post(f"{table.url}/buys", data={"seat": 1}, headers=HX)
    assert tapped.status_code == 200
    for watcher, poll in zip(watchers, polls, strict=True):
        with rendered(app) as names, statements(app) as sent:
            answer = watcher.get(poll, headers=HX)
        assert answer.status_code == 200
        assert names == []
        assert len(sent) == WATCHER_STATEMENTS[db_kind(app)], sent
        body = answer.get_data(as_text=True)
        assert 'hx-swap-oob="true" id="buys"' in body and "1 buy" in body
        assert not body.startswith('<div hx-swap-oob="true" id="poller"')  # the poll's target
        assert CSRF_MARK not in body and ACTION_MARK not in body
    assert ben_buys(table) == "1 buy"


def db_kind(app: Flask) -> str:
    """The database the app runs on: sqlite or postgresql."""
    with app.app_context():
        return db.engine.dialect.name


def test_the_round_screen_at_a_kept_version_renders_none_of_its_regions(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS, ruleset="unlimited-buys")
    first = table.page()
    with rendered(app) as names:
        again = table.page()
    assert not [name for name in names if name.startswith(("games/_buys", "seats/_", "games/_st"))]
    assert strip_tokens(again) == strip_tokens(first)
    assert 'hx-swap-oob="true"' not in again  # each region in place, as it was rendered


def strip_tokens(page: str) -> str:
    """A page without its CSRF token and action ids, which each answer makes anew."""
    page = re.sub(r'("X-CSRFToken": ")[^"]*', r"\1", page)
    return ACTION_ID.sub("", CSRF_FIELD.sub("", page))


def test_each_phone_gets_its_own_action_ids_and_a_double_tap_counts_once(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS, ruleset="unlimited-buys")
    first = table.page()
    other = app.test_client().get(table.url).get_data(as_text=True)  # served as kept
    ours, theirs = ACTION_ID.findall(first), ACTION_ID.findall(other)
    assert len(ours) == len(theirs) >= 3 and len(set(ours + theirs)) == 2 * len(ours)
    buys_form = other.split('id="buys"')[1]
    action_id, version = (
        ACTION_ID.search(buys_form)[1],
        re.search(r'name="version" value="(\d+)"', buys_form)[1],
    )  # type: ignore[index]
    for _ in range(2):  # the answer was lost, and the phone sent it again
        table.client.post(
            f"{table.url}/buys", data={"seat": 1, "action_id": action_id, "version": version}
        )
    assert ben_buys(table) == "1 buy"


def test_a_kept_region_is_the_one_of_its_link(app: Flask, table: Table) -> None:
    table.start(PLAYERS, ruleset="unlimited-buys")
    with app.app_context():
        view = db.session.scalar(text("SELECT view_token FROM game WHERE id = 1"))
    for _ in range(2):  # rendered, then kept: each link keeps its own
        edited = table.page()
        viewed = table.client.get(f"/g/1/{view}").get_data(as_text=True)
        assert 'id="buy-1"' in edited and 'id="buy-1"' not in viewed
        assert "csrf_token" not in viewed.split("<main>")[1].split('<nav class="actions">')[0]


def test_a_kept_regions_forms_post_without_javascript_and_not_without_the_token(
    guarded_app: Flask,  # noqa: F811
) -> None:
    game = f"/g/1/{guarded_app.config['TEST_TOKEN']}"
    guarded_app.test_client().get(game)  # another phone's load keeps the regions
    phone: FlaskClient = guarded_app.test_client()
    page = phone.get(game).get_data(as_text=True)
    header_token = page.split('"X-CSRFToken": "')[1].split('"')[0]
    buys_form = page.split('id="buys"')[1].split("</form>")[0]
    fields = dict(re.findall(r'name="(csrf_token|action_id|version)" value="([^"]*)"', buys_form))
    assert fields["csrf_token"] == header_token  # this phone's session's, not the other's
    assert phone.post(f"{game}/buys", data={**fields, "seat": "1"}).status_code == 303
    without = {name: value for name, value in fields.items() if name != "csrf_token"}
    assert phone.post(f"{game}/buys", data={**without, "seat": "2"}).status_code == 400
    assert changes(guarded_app) == 2  # the game's start and the one buy


# The parts of the round screen kept like its live regions, though none is one (page_part).
PAGE_PARTS = ("games/_arbiter.html", "games/_checker.html", "games/_keeper_seat.html")


@contextmanager
def drawn(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The templates the app draws while the block runs, included ones too."""
    names: list[str] = []
    get_template = app.jinja_env.get_template

    def record(name: Any, *args: Any, **kwargs: Any) -> Any:
        names.append(str(name))
        return get_template(name, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(app.jinja_env, "get_template", record)
        yield names


def test_the_round_screen_at_a_kept_version_draws_none_of_its_parts(
    app: Flask, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.start(PLAYERS, ruleset="unlimited-buys")
    with drawn(app, monkeypatch) as first_names:
        first = table.page()
    with drawn(app, monkeypatch) as names:
        again = table.page()
    assert set(PAGE_PARTS) <= set(first_names)
    assert not set(PAGE_PARTS) & set(names), names  # served as kept
    assert strip_tokens(again) == strip_tokens(first)
    assert 'id="arbiter"' in again and 'id="checker"' in again and 'id="keeper-seat"' in again


def test_the_keepers_own_seat_is_no_other_phones(app: Flask, table: Table) -> None:
    table.start(PLAYERS, ruleset="unlimited-buys")
    other = app.test_client()
    other.get(table.url)  # keeps the seat choice, as every phone of the link sees it
    table.client.post(f"{table.url}/keeper-seat", data={"seat": "1"})
    for _ in range(2):
        ours, theirs = table.page(), other.get(table.url).get_data(as_text=True)
        assert 'data-testid="not-playing"' in ours and 'data-testid="i-am-1"' not in ours
        assert 'data-testid="not-playing"' not in theirs and 'data-testid="i-am-1"' in theirs


def test_every_form_of_a_kept_page_carries_its_own_sessions_token(
    guarded_app: Flask,  # noqa: F811
) -> None:
    game = f"/g/1/{guarded_app.config['TEST_TOKEN']}"
    first = guarded_app.test_client().get(game).get_data(as_text=True)
    page = guarded_app.test_client().get(game).get_data(as_text=True)  # served as kept
    for body in (first, page):
        header_token = body.split('"X-CSRFToken": "')[1].split('"')[0]
        fields = CSRF_FIELD.findall(body)
        assert len(fields) >= 6 and set(fields) == {header_token}  # arbiter, seat choice, …
    assert CSRF_FIELD.search(first)[1] != CSRF_FIELD.search(page)[1]  # type: ignore[index]


@pytest.mark.parametrize("root", ["/scores", ""])
def test_a_kept_page_is_its_script_roots(app: Flask, table: Table, root: str) -> None:
    table.start(PLAYERS, ruleset="unlimited-buys")
    other = "" if root else "/scores"
    pages = [
        table.client.get(table.url, base_url=f"http://localhost{prefix}/").get_data(as_text=True)
        for prefix in (other, root, root)  # the other root's kept first, then ours, kept
    ]
    assert strip_tokens(pages[1]) == strip_tokens(pages[2])
    forms = re.findall(r'(?:action|hx-get|hx-post|href)="([^"]*/g/1/[^"]*)"', pages[2])
    assert len(forms) >= 10 and all(url.startswith(f"{root}/g/1/") for url in forms), forms


def test_the_frames_switches_are_kept_per_language_theme_and_root(app: Flask, table: Table) -> None:
    table.start(PLAYERS, ruleset="unlimited-buys")
    for language, theme, root in [("fr", "dark", ""), ("en", "light", "/scores")] * 2:
        phone = app.test_client()
        phone.set_cookie("lang", language)
        phone.set_cookie("theme", theme)
        base = f"http://localhost{root}/"
        page = phone.get(f"{table.url}/sheet?before=1", base_url=base).get_data(as_text=True)
        tools = page.split('<div class="topbar-tools">')[1].split("</div>")[0]
        current = re.findall(r'name="(language|theme)" value="(\w+)"[^>]*aria-current', tools)
        assert current == [("language", language), ("theme", theme)]
        assert f'action="{root}/language"' in tools
        assert tools.count(f'name="next" value="{table.url}/sheet?before=1"') == 2
        header_token = page.split('"X-CSRFToken": "')[1].split('"')[0]
        assert set(CSRF_FIELD.findall(tools)) == {header_token}
