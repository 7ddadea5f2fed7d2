"""Every seat phone hears about the stock (issue 35.3): after the first run-out it says to
shuffle the discards but the top card; after the second, "round over, count your hand", and it
no longer offers "May I?" or "I went out"; a call or a "went out" sent anyway is refused with
the reason at the seat's page. On both databases."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper.models import SeatCall, SeatHand
from tests.conftest import Table, count, seat_tokens, version_of
from tests.web.test_games import HX, text
from tests.web.test_seat_calls import PLAYERS, seat_page
from tests.web.test_seat_hands import enter

pytestmark = pytest.mark.storage

REFORM = "Shuffle the discard pile, keep its top card, and play on."
COUNT = "The stock ran out a second time: the round ends and everybody counts their hand."


def test_a_seat_says_to_reform_the_stock_after_its_first_run_out(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    assert "The stock has not run out this round." in seat_page(table, app, 1)
    table.run_out(seen=0)
    page = seat_page(table, app, 1)
    assert REFORM in page and "The stock ran out 1 time this round." in page
    assert "May I?" in page and "I went out" in page  # play goes on
    assert "The stock ran out" not in page.replace("The stock ran out 1", "")  # no button


def test_a_seat_says_count_your_hand_and_offers_no_call_after_the_second(
    app: Flask, table: Table
) -> None:
    stock_ended(app, table)
    raw = table.client.get(f"/s/1/{seat_tokens(app)[1]}").get_data(as_text=True)
    assert COUNT in text(raw)
    assert 'data-testid="call"' not in raw and 'data-testid="went-out"' not in raw
    assert 'data-testid="send-hand"' in raw  # the hand is still counted on the phone


def stock_ended(app: Flask, table: Table) -> int:
    """Start a game, let the stock run out twice, and answer the game's version then."""
    table.start(PLAYERS)
    table.run_out(seen=0)
    table.run_out(seen=1)
    return version_of(app)


def test_a_call_after_the_stocks_end_is_refused_with_the_reason(app: Flask, table: Table) -> None:
    before = stock_ended(app, table)
    refused = table.client.post(f"/s/1/{seat_tokens(app)[1]}/calls", headers=HX)
    assert refused.status_code == 422
    assert "The stock ended this round: nobody can buy any more." in text(refused.get_data(True))
    assert count(app, SeatCall) == 0 and version_of(app) == before


def test_going_out_after_the_stocks_end_is_refused_with_the_reason(
    app: Flask, table: Table
) -> None:
    before = stock_ended(app, table)
    refused = enter(table, app, 1, htmx=True, went_out="1")
    assert refused.status_code == 422
    assert "The stock ended this round: nobody went out." in text(refused.get_data(True))
    assert count(app, SeatHand) == 0 and version_of(app) == before
    assert enter(table, app, 1, points_1="35").status_code == 303  # a counted hand is welcome


def test_the_seats_poll_reloads_the_page_when_the_stock_ends_the_round(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    seat = f"/s/1/{seat_tokens(app)[1]}"
    table.run_out(seen=0)
    polled = table.client.get(f"{seat}/version?v=0&on=round-1", headers=HX)
    assert 'id="stock"' in polled.get_data(as_text=True)
    assert REFORM in text(polled.get_data(as_text=True))
    table.run_out(seen=1)
    again = table.client.get(f"{seat}/version?v=0&on=round-1", headers=HX)
    assert again.headers.get("HX-Refresh") == "true"  # the pad loses "I went out"
