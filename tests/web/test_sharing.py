"""Private links: an edit link and a view link per game, rotatable; live version polling."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Buy, Change
from scorekeeper.pages.template_helpers import qr_svg
from tests.conftest import Table, game_links, version_of
from tests.web.test_games import HX, PLAYERS, TIED_GAME, play, text
from tests.web.test_security import html_post_urls


def test_a_new_game_opens_on_its_secret_edit_link(app: Flask, table: Table) -> None:
    url = table.start(PLAYERS)
    edit, view = game_links(app)
    assert url == f"/g/1/{edit}"
    assert edit != view
    assert min(len(edit), len(view)) >= 32  # 24 random bytes: 192 bits


@pytest.mark.parametrize(
    "path", ["", "/sheet", "/standings", "/buys", "/stock", "/header", "/share"]
)
def test_the_view_link_reads_every_page(app: Flask, table: Table, path: str) -> None:
    table.start(PLAYERS)
    _edit, view = game_links(app)
    assert table.client.get(f"/g/1/{view}{path}").status_code == 200


def test_the_view_link_shows_no_controls(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    _edit, view = game_links(app)
    page = table.client.get(f"/g/1/{view}").get_data(as_text=True)
    assert "View only" in page
    for control in (">Buy<", "The stock ran out</button>", "End of round", "Undo last change"):
        assert control not in page
    assert table.client.get(f"/g/1/{view}/rounds/1").status_code == 403


def test_the_view_link_changes_nothing(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME[:1])
    _edit, view = game_links(app)
    before = version_of(app)
    data = {"seat": "1", "went_out": "0", "points_1": "5", "discarder": "0", "seen": "0"}
    urls = html_post_urls(app, view)
    assert len(urls) >= 10
    for url in urls:
        if url.startswith("/g/"):
            assert table.client.post(url, data=data).status_code == 403, url
    assert version_of(app) == before
    assert game_links(app)[1] == view


def test_the_share_page_shows_both_links_with_qr_codes(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    edit, view = game_links(app)
    page = table.page("/share")
    for token in (edit, view):
        url = f"http://localhost/g/1/{token}"
        assert f'value="{url}"' in page
        assert str(qr_svg(url)) in page
    assert 'data-copy="#view-url"' in page


def test_the_edit_link_and_each_seats_link_are_folded_without_script(table: Table) -> None:
    """Five players' links on about two screens: the view link open, the others a tap away."""
    table.start(PLAYERS)
    page = table.page("/share")
    assert '<section class="share-link" id="view-link">' in page
    folded = re.findall(
        r'<details class="share-link" id="([\w-]+)">\s*<summary><h(\d)>([^<]+)<', page
    )
    seats = [(f"seat-{seat}-link", "3", name) for seat, name in enumerate(PLAYERS)]
    assert folded == [("edit-link", "2", "Edit link"), *seats]


def test_the_share_page_of_the_view_link_hides_the_edit_link(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    edit, view = game_links(app)
    page = table.client.get(f"/g/1/{view}/share").get_data(as_text=True)
    assert view in page
    assert edit not in page
    assert "Replace this link" not in page


@pytest.mark.storage
def test_a_replaced_view_link_stops_working_at_once(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    edit, view = game_links(app)
    response = table.client.post(f"/g/1/{edit}/links/view")
    assert response.status_code == 303
    new_view = game_links(app)[1]
    assert new_view != view
    old = table.client.get(f"/g/1/{view}")
    assert old.status_code == 410
    assert "This link was replaced; ask the table for the new one." in text(
        old.get_data(as_text=True)
    )
    assert table.client.get(f"/g/1/{view}/version?v=0", headers=HX).status_code == 410
    assert table.client.get(f"/g/1/{new_view}").status_code == 200
    assert table.client.get(f"/g/1/{edit}").status_code == 200
    assert "The view link was replaced" in text(table.page("/sheet"))


@pytest.mark.storage
def test_a_replaced_edit_link_moves_the_editor_to_the_new_one(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    edit, _view = game_links(app)
    response = table.client.post(f"/g/1/{edit}/links/edit")
    new_edit = game_links(app)[0]
    assert response.headers["Location"] == f"/g/1/{new_edit}/share"
    assert table.client.post(f"/g/1/{edit}/buys", data={"seat": "0"}).status_code == 410
    assert table.client.get(f"/g/1/{new_edit}").status_code == 200


@pytest.mark.storage
def test_undo_skips_a_link_replacement(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    table.buy("Ben")
    edit, _view = game_links(app)
    table.client.post(f"/g/1/{edit}/links/view")
    table.client.post(f"/g/1/{edit}/undo")
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Buy)) == 0


@pytest.mark.parametrize("token", ["nope", "x" * 32])
def test_a_wrong_link_is_not_found(table: Table, token: str) -> None:
    table.start(PLAYERS)
    assert table.client.get(f"/g/1/{token}").status_code == 404
    assert table.client.get(f"/g/2/{token}").status_code == 404


@pytest.mark.storage
def test_the_version_answers_nothing_to_swap_while_nothing_changed(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    version = version_of(app)
    for on in ("", "&on=round"):  # answered in front of Flask, and by Flask
        response = table.client.get(f"{table.url}/version?v={version}{on}", headers=HX)
        assert response.status_code == 200
        assert response.data == b""
        assert response.headers["Content-Length"] == "0"
        assert response.headers["HX-Reswap"] == "none"


@pytest.mark.storage
def test_the_version_announces_a_change(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    seen = version_of(app)
    table.buy("Ben")
    response = table.client.get(f"{table.url}/version?v={seen}", headers=HX)
    assert response.status_code == 200
    assert response.headers["HX-Trigger"] == "game-changed"
    assert f"v={seen + 1}" in response.get_data(as_text=True)


@pytest.mark.storage
@pytest.mark.parametrize(
    ("page", "regions"),
    [
        ("round", ["round-header", "buys", "stock", "standings"]),
        ("sheet", ["sheet", "running-chart", "history"]),
        ("display", ["display"]),
    ],
)
def test_a_poll_after_a_change_carries_every_region_of_its_page(
    app: Flask, table: Table, page: str, regions: list[str]
) -> None:
    table.start(PLAYERS)
    seen = version_of(app)
    table.buy("Ben")
    response = table.client.get(f"{table.url}/version?v={seen}&on={page}", headers=HX)
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "HX-Trigger" not in response.headers  # one request per change: nothing refetches
    assert body.lstrip().startswith('<div id="poller"')
    assert f"v={seen + 1}&amp;on={page}" in body
    for region in regions:
        assert re.search(rf'<\w+ hx-swap-oob="true"[^>]* id="{region}"', body), region
    if page != "sheet":
        assert "bought a card" not in body  # the history only where it is shown


def test_a_poll_reloads_the_round_screen_when_the_game_ends_or_reopens(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    seen = version_of(app)
    table.buy("Ben")
    response = table.client.get(f"{table.url}/version?v={seen}&on=over", headers=HX)
    assert response.headers["HX-Refresh"] == "true"


@pytest.mark.parametrize("path", ["", "/sheet", "/rounds/1"])
def test_game_pages_poll_for_changes(table: Table, path: str) -> None:
    table.start(PLAYERS)
    assert re.search(r'id="poller"[^>]*hx-trigger="every 2s"', table.page(path))


@pytest.mark.storage
def test_a_buy_on_a_stale_screen_for_the_same_player_is_refused(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    seen = version_of(app)
    table.buy("Ben", version=str(seen))
    response = table.client.post(f"{table.url}/buys", data={"seat": 1, "version": seen}, headers=HX)
    assert response.status_code == 409
    assert "Meanwhile Ben's buys changed: now 1." in text(response.get_data(as_text=True))
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Buy)) == 1


@pytest.mark.storage
def test_buys_for_different_players_on_a_stale_screen_both_land(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    seen = str(version_of(app))
    assert table.buy("Ben", version=seen).status_code == 303
    assert table.buy("Carla", version=seen).status_code == 303


@pytest.mark.storage
def test_a_stale_round_result_is_refused_showing_the_current_one(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    seen = str(version_of(app))
    data = {"went_out": "0", "points_1": "20", "points_2": "5", "points_3": "5", "version": seen}
    assert table.client.post(f"{table.url}/rounds/1", data=data).status_code == 303
    stale = {**data, "points_1": "99"}
    response = table.client.post(f"{table.url}/rounds/1", data=stale)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Round 1 was changed on another phone meanwhile." in page
    assert 'value="20"' in page
    assert 'value="99"' not in page


@pytest.mark.storage
def test_undo_on_a_stale_screen_names_the_newer_change(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    table.buy("Ben")
    seen = str(version_of(app))
    table.buy("Carla")
    response = table.client.post(f"{table.url}/undo", data={"version": seen}, follow_redirects=True)
    assert "Another change came in meanwhile: Round 1: Carla bought a card." in text(
        response.get_data(as_text=True)
    )
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Buy)) == 2
        kinds = db.session.scalars(select(Change.kind)).all()
    assert "undo" not in kinds


@pytest.mark.storage
def test_the_home_page_lists_only_games_this_browser_opened(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    assert "Anna, Ben, Carla, Dan" in text(table.client.get("/").get_data(as_text=True))
    stranger = app.test_client()
    assert "Anna, Ben, Carla, Dan" not in text(stranger.get("/").get_data(as_text=True))


def test_a_page_of_the_newest_link_leaves_the_session_as_it_is(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    table.page()  # the session's CSRF token made
    assert "Set-Cookie" not in table.client.get(table.url).headers  # already the newest link
    first = table.url
    table.start(PLAYERS)
    table.page()
    assert "Set-Cookie" not in table.client.get(table.url).headers
    assert "Set-Cookie" in table.client.get(first).headers  # the first game first again
    assert text(table.client.get("/").get_data(as_text=True)).count("Anna, Ben, Carla, Dan") == 2


@pytest.mark.storage
def test_the_history_shows_a_page_of_changes_with_a_link_to_older_ones(table: Table) -> None:
    table.start(PLAYERS)
    for _ in range(26):  # 52 changes after "Game started"
        table.buy("Ben")
        table.client.post(f"{table.url}/buys/remove", data={"seat": 1})
    page = table.page("/sheet")
    history = page[page.index('id="history"') :]
    assert history.count("<li") == 50
    older = re.search(r'href="([^"]*/sheet\?before=\d+)"', history)
    assert older is not None
    rest = table.page(older.group(1).replace(table.url, "").replace("&amp;", "&"))
    rest = rest[rest.index('id="history"') :]
    assert rest.count("<li") == 3
    assert "Game started" in rest
    assert "before=" not in rest


@pytest.mark.parametrize("role", ["view", "edit"])
def test_replacing_a_link_first_says_what_it_does_and_changes_nothing(
    app: Flask, table: Table, role: str
) -> None:
    table.start(PLAYERS)
    edit, view = game_links(app)
    share = table.client.get(f"/g/1/{edit}/share").get_data(as_text=True)
    assert f'href="/g/1/{edit}/links/{role}"' in share
    confirm = text(table.client.get(f"/g/1/{edit}/links/{role}").get_data(as_text=True))
    assert f"Replace the {role} link?" in confirm
    assert f"The old {role} link stops working at once" in confirm
    assert game_links(app) == (edit, view)
    assert table.client.get(f"/g/1/{view}/links/{role}").status_code == 404
