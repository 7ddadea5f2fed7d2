""" "May I?" from a seat's phone (issue 24.3): a call shows on the scorekeeper's round screen at
once, the arbiter decides among several, one tap records the buy, a refused call says why at the
caller's phone, calls close when recorded or dismissed, and nothing is bought without the
scorekeeper. On both databases, and two seats calling at once both land."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper import kept
from scorekeeper.extensions import db
from scorekeeper.games.facts import read_game
from scorekeeper.models import Buy, Game, SeatCall
from tests.conftest import (
    OPENER,
    LiveGame,
    Table,
    at_once,
    count,
    seat_tokens,
    status_of,
    version_of,
)
from tests.web.test_games import HX, text
from tests.web.test_queries import statements

pytestmark = pytest.mark.storage

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]  # Anna deals round 1: Ben plays first


def call(table: Table, app: Flask, seat: int) -> str:
    """Tap "May I?" on a seat's page (htmx); the seat region answered."""
    response = table.client.post(f"/s/1/{seat_tokens(app)[seat]}/calls", headers=HX)
    assert response.status_code == 200, response.get_data(as_text=True)
    return text(response.get_data(as_text=True))


def seat_page(table: Table, app: Flask, seat: int, language: str = "en") -> str:
    page = table.client.get(f"/s/1/{seat_tokens(app)[seat]}", headers={"Accept-Language": language})
    return text(page.get_data(as_text=True))


def test_a_call_shows_on_the_round_screen_at_once_and_buys_nothing(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    before = version_of(app)
    said = call(table, app, 2)
    assert "You called “May I?”: the scorekeeper decides." in said
    assert count(app, Buy) == 0 and count(app, SeatCall) == 1
    assert version_of(app) == before + 1  # every phone's poll sees it within 2 s
    poll = table.client.get(f"{table.url}/version?v={before}&on=round", headers=HX)
    polled = poll.get_data(as_text=True)
    assert 'id="calls"' in polled and "Record the buy for Carla" in polled
    round_screen = table.client.get(table.url).get_data(as_text=True)
    assert "Calls from the phones" in round_screen
    assert "Carla: “May I?”" in text(round_screen) and 'data-testid="call-2"' in round_screen
    with app.app_context():
        view = db.session.get(Game, 1).view_token  # type: ignore[union-attr]
    by_view = table.client.get(f"/g/1/{view}").get_data(as_text=True)
    assert "Record the buy" not in by_view and "Calls from the phones" not in by_view


def test_a_double_tap_calls_once(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    call(table, app, 2)
    call(table, app, 2)
    assert count(app, SeatCall) == 1


def test_one_tap_adds_the_buy_of_the_one_who_called(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    call(table, app, 3)
    recorded = table.client.post(
        f"{table.url}/calls/grant", data={"seat": "3", "action_id": "r1"}, headers=HX
    )
    assert recorded.status_code == 200
    assert "Buy recorded for Dan." in text(recorded.get_data(as_text=True))
    assert count(app, Buy, Buy.seat == 3) == 1
    assert count(app, SeatCall, SeatCall.closed_at.is_(None)) == 0
    again = table.client.post(f"{table.url}/calls/grant", data={"seat": "3", "action_id": "r1"})
    assert again.status_code == 303 and count(app, Buy) == 1  # the same tap records once
    assert "Your buy is recorded." in seat_page(table, app, 3)
    assert "1 buy this round · 2 buys left" in seat_page(table, app, 3)


def test_the_arbiter_decides_among_several_callers(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    for seat in (1, 3):
        call(table, app, seat)
    page = text(table.client.get(table.url).get_data(as_text=True))
    assert "Ben: “May I?”" in page and "Dan: “May I?”" in page
    # One tap per winner, by who discarded: after Anna or Dan, Ben is nearest; after Ben or
    # Carla, Dan is (nobody buys back their own discard).
    assert "Record the buy for Ben if Anna, Dan discarded" in page
    assert "Record the buy for Dan if Ben, Carla discarded" in page
    table.client.post(f"{table.url}/calls/grant", data={"discarder": "2"})
    assert count(app, Buy, Buy.seat == 3) == 1 and count(app, Buy) == 1
    assert "Another player got the card." in seat_page(table, app, 1)
    assert "Your buy is recorded." in seat_page(table, app, 3)


def test_a_buy_is_granted_only_to_a_seat_that_called(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    call(table, app, 1)
    refused = table.client.post(f"{table.url}/calls/grant", data={"seat": "2"}, headers=HX)
    assert refused.status_code == 422
    assert "Carla has not called." in text(refused.get_data(as_text=True))
    assert count(app, Buy) == 0


def test_dismissing_closes_the_calls_and_tells_the_callers(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    call(table, app, 1)
    before = version_of(app)
    dismissed = table.client.post(f"{table.url}/calls/dismiss", headers=HX)
    assert dismissed.status_code == 200
    assert count(app, SeatCall, SeatCall.closed_at.is_(None)) == 0 and count(app, Buy) == 0
    assert version_of(app) == before + 1
    assert "The scorekeeper dismissed the call." in seat_page(table, app, 1)
    assert "May I?" in seat_page(table, app, 1)  # it may call again


def kept_calls(app: Flask) -> tuple[object, ...] | None:
    """The open calls of the state kept for the game's version now (None: none kept)."""
    with app.app_context():
        state = kept.state_at(1, version_of(app))
        return None if state is None else state.facts.calls


def read_calls(app: Flask) -> tuple[object, ...]:
    """The open calls of a fresh read of the game's facts."""
    with app.app_context():
        facts = read_game(1)
        db.session.remove()
        assert facts is not None
        return facts.calls


def test_each_call_keeps_the_state_a_fresh_read_shows(app: Flask, table: Table) -> None:
    """A call, a ruling's record and a dismissal answer and keep the new facts (the open
    calls among them) without reading them again; the round screen then reads no facts."""
    table.start(PLAYERS)
    call(table, app, 1)
    call(table, app, 3)
    assert kept_calls(app) == read_calls(app) and len(read_calls(app)) == 2
    table.client.post(f"{table.url}/calls/grant", data={"seat": "3"}, headers=HX)
    assert kept_calls(app) == read_calls(app) == ()
    call(table, app, 2)
    assert kept_calls(app) == read_calls(app) and len(read_calls(app)) == 1
    with statements(app) as sent:
        page = table.client.get(table.url).get_data(as_text=True)
    assert len(sent) <= 2 and "Record the buy for Carla" in page  # the version and links
    table.client.post(f"{table.url}/calls/dismiss", headers=HX)
    assert kept_calls(app) == read_calls(app) == ()
    with statements(app) as sent:
        page = table.client.get(table.url).get_data(as_text=True)
    assert len(sent) <= 2 and "Calls from the phones" not in page


def test_a_call_the_rules_refuse_is_refused_at_the_callers_phone(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    for _ in range(3):
        table.buy("Ben")  # May I? allows 3 a round
    before = version_of(app)
    refused = table.client.post(f"/s/1/{seat_tokens(app)[1]}/calls", headers=HX)
    assert refused.status_code == 422
    assert "The limit of 3 buys per round is reached." in text(refused.get_data(as_text=True))
    assert count(app, SeatCall) == 0 and version_of(app) == before


def test_only_the_edit_link_grants_or_dismisses(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    call(table, app, 1)
    with app.app_context():
        view = db.session.get(Game, 1).view_token  # type: ignore[union-attr]
    for path, data in (
        ("/calls/grant", {"seat": "1"}),
        ("/calls/grant", {"discarder": "0"}),
        ("/calls/dismiss", {}),
    ):
        assert table.client.post(f"/g/1/{view}{path}", data=data).status_code == 403
        assert table.client.post(f"/g/1/{seat_tokens(app)[1]}{path}", data=data).status_code == 404
    assert count(app, SeatCall, SeatCall.closed_at.is_(None)) == 1 and count(app, Buy) == 0


def test_two_seats_calling_at_once_both_land(live_game: LiveGame) -> None:
    links = seat_tokens(live_game.app, live_game.game_id)

    def send(seat: int) -> int:
        url = f"{live_game.base}/s/{live_game.game_id}/{links[seat]}/calls"
        return status_of(urllib.request.Request(url, data=b""), opener=OPENER.open)

    assert at_once(send, [1, 2, 3, 3]) == [303] * 4
    assert live_game.count(SeatCall) == 3  # seat 3 tapped twice: one call
    assert sorted(seat for (seat,) in _seats(live_game)) == [1, 2, 3]
    assert live_game.count(Buy) == 0


def _seats(live_game: LiveGame) -> list[tuple[int]]:
    with live_game.app.app_context():
        rows = db.session.execute(select(SeatCall.seat)).tuples().all()
        db.session.remove()
        return list(rows)


def calls_read(sent: list[tuple[str, object]]) -> int:
    """How many statements sent read the seats' calls."""
    return len([statement for statement, _ in sent if "FROM seat_call" in statement])


def test_a_seats_open_call_comes_from_the_facts_and_a_closed_one_in_one_query(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    call(table, app, 1)
    seat_page(table, app, 1)  # the seat's page keeps the state at this version
    with statements(app) as sent:
        shown = seat_page(table, app, 1)
    assert "You called “May I?”: the scorekeeper decides." in shown and calls_read(sent) == 0
    table.client.post(f"{table.url}/calls/dismiss", headers=HX)
    with statements(app) as sent:
        shown = seat_page(table, app, 1)
    # A dismissal leaves no fact of the game: how the call closed is only in its row.
    assert "The scorekeeper dismissed the call." in shown and calls_read(sent) == 1


def test_a_round_screen_loaded_before_the_rename_still_grants_at_the_old_url(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    call(table, app, 2)
    assert f"{table.url}/calls/grant" in table.page()  # what a round screen loads now
    granted = table.client.post(f"{table.url}/calls/record", data={"seat": "2"}, headers=HX)
    assert granted.status_code == 200
    assert "Buy recorded for Carla." in text(granted.get_data(as_text=True))
    assert count(app, Buy, Buy.seat == 2) == 1


def test_a_refused_call_posted_without_script_answers_the_page_with_the_reason(
    app: Flask, table: Table
) -> None:
    """A plain form (no htmx) gets the whole seat page, its pad drawn, the reason in it."""
    table.start(PLAYERS)
    for _ in range(3):
        table.buy("Ben")
    before = version_of(app)
    refused = table.client.post(f"/s/1/{seat_tokens(app)[1]}/calls")
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "The limit of 3 buys per round is reached." in text(page)
    assert 'id="own-hand"' in page and "<html" in page  # the whole page, with Ben's pad
    assert count(app, SeatCall) == 0 and version_of(app) == before
