"""Play again leads every phone on the finished game to the next one (issue 35.9): the edit
link to the new edit link, the view link to the new view link, each seat link to its own
player's seat, through the poll they already make, and no link to anyone it is not theirs."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Change, Game
from tests.conftest import Table, game_links, seat_tokens, version_of
from tests.tables.helpers import open_table, start_at
from tests.web.test_games import HX, TIED_GAME, play, text

pytestmark = pytest.mark.storage

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]


def finished_and_replayed(table: Table) -> tuple[int, str]:
    """Play a whole game, note the version its phones saw, and press Play again; that version
    and the new game's edit URL."""
    table.start(PLAYERS)
    play(table, TIED_GAME)
    seen = version_of(table.client.application, 1)
    response = table.client.post(f"{table.url}/again")
    assert response.status_code == 303
    return seen, response.headers["Location"]


def poll(client: FlaskClient, url: str, seen: int, on: str) -> tuple[int, str | None, str]:
    """A page's poll from version `seen`: its status, where it leads, and its body."""
    response = client.get(f"{url}/version?v={seen}&on={on}", headers=HX)
    return response.status_code, response.headers.get("HX-Redirect"), response.get_data(True)


def every_link(app: Flask) -> set[str]:
    """Every link token of both games: edit, view and each seat's."""
    return {
        *game_links(app, 1),
        *game_links(app, 2),
        *seat_tokens(app, 1).values(),
        *seat_tokens(app, 2).values(),
    }


def test_play_again_records_the_next_game_through_the_one_change_path(
    app: Flask, table: Table
) -> None:
    seen, location = finished_and_replayed(table)
    edit, _view = game_links(app, 2)
    assert location.endswith(f"/g/2/{edit}")
    assert version_of(app, 1) == seen + 1
    with app.app_context():
        assert db.session.get_one(Game, 1).rematch_id == 2
        newest = db.session.scalars(
            select(Change).where(Change.game_id == 1).order_by(Change.id)
        ).all()[-1]
        assert (newest.kind, newest.version) == ("rematch", seen + 1)
    assert "The next game was started (Play again)" in text(table.page("/sheet"))


def test_a_second_press_of_play_again_leads_to_the_same_next_game(app: Flask, table: Table) -> None:
    _seen, location = finished_and_replayed(table)
    again = table.client.post(f"{table.url}/again")
    assert again.headers["Location"] == location
    with app.app_context():
        assert len(db.session.scalars(select(Game)).all()) == 2


def test_each_seat_phones_poll_leads_to_its_own_seat_in_the_next_game(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME)
    old = seat_tokens(app, 1)
    seen = version_of(app, 1)
    phone = app.test_client()
    assert poll(phone, f"/s/1/{old[2]}", seen, "over")[:2] == (200, None)  # nothing new yet
    table.client.post(f"{table.url}/again")
    new = seat_tokens(app, 2)
    for seat, token in old.items():
        status, lead, body = poll(phone, f"/s/1/{token}", seen, "over")
        assert (status, lead) == (200, f"/s/2/{new[seat]}")
        assert not any(link in body for link in every_link(app))


def test_the_view_phones_poll_leads_to_the_next_games_view_link_only(
    app: Flask, table: Table
) -> None:
    seen, _location = finished_and_replayed(table)
    _edit, view = game_links(app, 1)
    new_edit, new_view = game_links(app, 2)
    phone = app.test_client()
    assert poll(phone, f"/g/1/{view}", seen, "over")[:2] == (200, f"/g/2/{new_view}")
    assert poll(phone, f"/g/1/{view}", seen, "display")[1] == f"/g/2/{new_view}/display"
    _status, lead, body = poll(phone, f"/g/1/{view}", seen, "over")
    assert new_edit not in f"{lead}{body}"
    # A second scorekeeper's phone, on the edit link, is led to the new edit link.
    assert poll(phone, f"{table.url}", seen, "over")[1] == f"/g/2/{new_edit}"
    # The score sheet stays where it is: someone is reading it.
    assert poll(phone, f"/g/1/{view}", seen, "sheet")[1] is None


def test_a_page_loaded_after_play_again_offers_its_own_way_to_the_next_game(
    app: Flask, table: Table
) -> None:
    finished_and_replayed(table)
    _edit, view = game_links(app, 1)
    _new_edit, new_view = game_links(app, 2)
    phone = app.test_client()
    seat_page = phone.get(f"/s/1/{seat_tokens(app, 1)[1]}").get_data(as_text=True)
    assert "The next game has started. Go to your seat" in text(seat_page)
    assert f'href="/s/2/{seat_tokens(app, 2)[1]}"' in seat_page
    others = every_link(app) - {seat_tokens(app, 1)[1], seat_tokens(app, 2)[1]}
    assert not any(link in seat_page for link in others)
    view_page = phone.get(f"/g/1/{view}").get_data(as_text=True)
    assert "The next game has started. Go to the next game" in text(view_page)
    assert f'href="/g/2/{new_view}"' in view_page
    assert not any(link in view_page for link in every_link(app) - {view, new_view})
    display = phone.get(f"/g/1/{view}/display").get_data(as_text=True)
    assert f'href="/g/2/{new_view}/display"' in display


def test_a_view_link_cannot_press_play_again(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME)
    _edit, view = game_links(app, 1)
    seen = version_of(app, 1)
    assert table.client.post(f"/g/1/{view}/again").status_code == 403
    assert version_of(app, 1) == seen
    with app.app_context():
        assert db.session.get_one(Game, 1).rematch_id is None


def test_a_tables_next_game_seats_each_person_at_their_own_seat(
    app: Flask, client: FlaskClient
) -> None:
    game = start_at(client, open_table(client), PLAYERS)
    play(game, TIED_GAME)
    old = seat_tokens(app, 1)
    seen = version_of(app, 1)
    client.post(f"{game.url}/again")
    new = seat_tokens(app, 2)
    phone = app.test_client()
    leads = [poll(phone, f"/s/1/{old[seat]}", seen, "over")[1] for seat in range(4)]
    assert leads == [f"/s/2/{new[seat]}" for seat in range(4)]
    said = text(phone.get(leads[3] or "").get_data(as_text=True))
    assert "Your seat: Dan" in said and "Round 1 of 7" in said
