"""The scorekeeper plays too (issue 35.2): on the round screen its phone says once which player
it is, remembered for that game; it gets that seat's pad there, its hand goes through the
seat's entry path (the history names the seat), and once every hand is in, the round saves
with one tap. On both databases."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, RoundResult, SeatHand
from tests.conftest import Table, count, version_of
from tests.web.test_games import HX, text
from tests.web.test_seat_calls import PLAYERS
from tests.web.test_seat_hands import enter, one_tap

pytestmark = pytest.mark.storage


def hold_seat(table: Table, seat: int | None) -> None:
    """Tap "I am <player>" on the round screen (or "I am not …" with no seat)."""
    data = {} if seat is None else {"seat": str(seat)}
    assert table.client.post(f"{table.url}/keeper-seat", data=data).status_code == 303


def keeper_enters(table: Table, **fields: str) -> int:
    """Send the scorekeeper's own hand from the round screen's pad."""
    data = {"number": "1", **fields}
    return table.client.post(f"{table.url}/keeper-seat/hand", data=data).status_code


def test_the_keeper_holds_a_seat_and_the_round_saves_with_one_tap(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    screen = table.page()
    assert "I am Anna" in screen and 'data-testid="own-hand"' not in screen
    hold_seat(table, 0)
    screen = table.page()
    assert 'data-testid="own-hand"' in screen and "I am not Anna" in screen
    assert "I am Ben" not in screen  # remembered for this game on this phone
    before = version_of(app)
    assert keeper_enters(table, went_out="0") == 303
    assert version_of(app) == before + 1 and count(app, SeatHand) == 1
    with app.app_context():
        entry = db.session.scalars(select(Change).where(Change.kind == "hand_entered")).one()
        assert entry.seat == 0  # named as the seat, as its own phone would be
        db.session.remove()
    assert "Every hand is in" not in table.page()
    for seat, fields in (
        (1, {"points_1": "35"}),
        (2, {"cards_2": "K K JK"}),
        (3, {"points_3": "12"}),
    ):
        assert enter(table, app, seat, **fields).status_code == 303
    assert "Every hand is in: save the round" in table.page()
    assert one_tap(table).status_code == 303
    assert count(app, RoundResult) == 4 and count(app, SeatHand) == 0


def test_the_keepers_pad_refuses_at_its_field_and_taps_add_up(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    hold_seat(table, 2)
    refused = table.client.post(
        f"{table.url}/keeper-seat/hand", data={"number": "1", "points_2": "500"}, headers=HX
    )
    assert refused.status_code == 422 and 'id="own-hand"' in refused.get_data(as_text=True)
    assert count(app, SeatHand) == 0
    plain = table.client.post(f"{table.url}/keeper-seat/hand", data={"number": "1"})
    assert plain.status_code == 422 and "I am not Carla" in text(plain.get_data(as_text=True))
    tapped = table.client.post(
        f"{table.url}/keeper-seat/hand/tap",
        data={"number": "1", "cards_2": "K", "tap": "2:JK"},
        headers=HX,
    )
    assert tapped.status_code == 200 and 'data-testid="tally-2">25<' in tapped.get_data(True)


def test_forgetting_the_seat_hides_the_pad(table: Table) -> None:
    table.start(PLAYERS)
    hold_seat(table, 1)
    hold_seat(table, None)
    screen = table.page()
    assert 'data-testid="own-hand"' not in screen and "I am Ben" in screen
    assert keeper_enters(table, points_1="5") == 404  # no seat held: nothing to enter for


def test_only_the_edit_link_holds_a_seat(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    with app.app_context():
        view = db.session.get(Game, 1).view_token  # type: ignore[union-attr]
        db.session.remove()
    assert table.client.post(f"/g/1/{view}/keeper-seat", data={"seat": "0"}).status_code == 403
    assert "I am Anna" not in table.client.get(f"/g/1/{view}").get_data(as_text=True)
    hold_seat(table, 0)
    assert table.client.post(f"/g/1/{view}/keeper-seat/hand", data={}).status_code == 403
    assert table.client.post(f"{table.url}/keeper-seat", data={"seat": "9"}).status_code == 422
