"""One model of change (issue 32): a write drawn before a phone's newer hand is refused and shown
the newer values, a call and its buy are one event, a rename or a merge at the table reaches
every open phone's poll, and the history names who did what. On both databases."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text as sql

from scorekeeper.extensions import db
from scorekeeper.models import Buy, RoundResult, SeatCall, SeatHand
from tests.conftest import Table, count, seat_tokens, version_of
from tests.tables.helpers import open_table, start_at
from tests.web.test_games import HX, text

pytestmark = pytest.mark.storage

THREE = ["Anna", "Ben", "Oma"]


def enter(table: Table, app: Flask, seat: int, **fields: str) -> None:
    """Send a hand from a seat's own phone, for round 1."""
    sent = table.client.post(f"/s/1/{seat_tokens(app)[seat]}/hand", data={"number": "1", **fields})
    assert sent.status_code == 303, text(sent.get_data(as_text=True))


def three_hands_in(table: Table, app: Flask) -> None:
    """Anna went out, Ben 10 and Oma 20, each from their own phone."""
    table.start(THREE)
    enter(table, app, 0, went_out="0")
    enter(table, app, 1, points_1="10")
    enter(table, app, 2, points_2="20")


def form_fields(page: str, marker: str) -> dict[str, str]:
    """The fields of the form whose submit button carries `marker`, as drawn."""
    form = page.split(marker, 1)[0].rsplit("<form", 1)[1]
    return dict(re.findall(r'name="([^"]+)" (?:type="[^"]*" )?value="([^"]*)"', form))


def end_of_round_form(table: Table) -> dict[str, str]:
    """The end-of-round form as drawn with the phones' entries: Anna out, Ben 10, Oma 20."""
    page = table.page("/rounds/1")
    assert 'name="points_2" type="number" value="20"' in page
    drawn = re.search(r'id="version" name="version" type="hidden" value="(\d+)"', page)
    assert drawn is not None, page
    return {"went_out": "0", "points_1": "10", "points_2": "20", "version": drawn.group(1)}


def oma_stands(app: Flask, table: Table, answer: str) -> None:
    """Oma's newer 45 stands: the round is not saved, her entry kept, the writer shown it."""
    assert "Oma changed their hand on their phone: 45, not 20." in answer
    assert count(app, RoundResult) == 0
    with app.app_context():
        points = db.session.scalar(sql("SELECT points FROM seat_hand WHERE seat = 2"))
        db.session.remove()
    assert points == 45


def test_the_round_screens_one_tap_save_drawn_before_a_correction_is_refused(
    app: Flask, table: Table
) -> None:
    three_hands_in(table, app)
    drawn = form_fields(table.page(), 'data-testid="save-from-phones"')
    assert drawn["points_2"] == "20"
    enter(table, app, 2, points_2="45")
    saved = table.client.post(f"{table.url}/rounds/1", data=drawn)
    assert saved.status_code == 409
    oma_stands(app, table, saved.get_data(as_text=True))
    assert 'name="points_2" type="number" value="45"' in saved.get_data(as_text=True)


@pytest.mark.parametrize("sent_back", [False, True])
def test_the_end_of_round_form_drawn_before_a_correction_is_refused(
    app: Flask, table: Table, sent_back: bool
) -> None:
    three_hands_in(table, app)
    drawn = end_of_round_form(table)
    if sent_back:  # from another phone with the edit link, then Oma enters it again
        back = table.client.post(f"{table.url}/rounds/1/pending/2/send-back", data={"note": "?"})
        assert back.status_code == 303
    enter(table, app, 2, points_2="45")
    saved = table.client.post(f"{table.url}/rounds/1", data=drawn)
    assert saved.status_code == 409
    oma_stands(app, table, saved.get_data(as_text=True))
    shown = saved.get_data(as_text=True)  # as posted, Oma's newer hand put in, drawn anew
    assert 'name="points_1" type="number" value="10"' in shown
    assert 'name="points_2" type="number" value="45"' in shown
    assert f'name="version" type="hidden" value="{version_of(app)}"' in shown


def test_a_form_that_already_shows_the_newer_entry_saves(app: Flask, table: Table) -> None:
    three_hands_in(table, app)
    drawn = end_of_round_form(table)
    enter(table, app, 2, points_2="45")
    saved = table.client.post(f"{table.url}/rounds/1", data={**drawn, "points_2": "45"})
    assert saved.status_code == 303  # nothing of Oma's is replaced: the same 45
    assert count(app, RoundResult) == 3 and count(app, SeatHand) == 0


def test_a_buy_for_a_player_who_called_settles_the_call(app: Flask, table: Table) -> None:
    table.start(["Anna", "Ben", "Carla", "Dan"])
    drawn = version_of(app)
    called = table.client.post(f"/s/1/{seat_tokens(app)[2]}/calls", headers=HX)
    assert called.status_code == 200
    # The scorekeeper, who has not seen the call, taps Buy on Carla's row.
    assert table.buy("Carla", version=str(drawn)).status_code == 303
    assert count(app, SeatCall, SeatCall.closed_at.is_(None)) == 0
    assert count(app, SeatCall, SeatCall.outcome == "recorded") == 1
    recorded = table.client.post(f"{table.url}/calls/grant", data={"seat": "2", "version": drawn})
    assert recorded.status_code == 303  # "Record the buy" then records nothing more
    assert count(app, Buy) == 1
    # Taking the buy back reopens nothing: the call was answered.
    assert table.client.post(f"{table.url}/buys/remove", data={"seat": "2"}).status_code == 303
    assert count(app, Buy) == 0 and count(app, SeatCall, SeatCall.closed_at.is_(None)) == 0


def test_a_call_open_when_its_round_is_saved_is_closed(app: Flask, table: Table) -> None:
    table.start(["Anna", "Ben", "Carla", "Dan"])
    assert table.client.post(f"/s/1/{seat_tokens(app)[2]}/calls", headers=HX).status_code == 200
    saved = table.end_round(1, "Anna", {"Ben": 10, "Carla": 20, "Dan": 30})
    assert saved.status_code == 303
    assert count(app, SeatCall, SeatCall.closed_at.is_(None)) == 0
    assert count(app, SeatCall, SeatCall.outcome == "dismissed") == 1
    assert "Calls from the phones" not in table.page()


@pytest.mark.parametrize("change", ["rename", "merge"])
def test_a_rename_or_merge_reaches_an_open_screens_poll(
    app: Flask, client: FlaskClient, change: str
) -> None:
    table_url = open_table(client)
    game = start_at(client, table_url, ["Anna", "Ben", "Carla"])
    other = start_at(client, table_url, ["Anne", "Dan", "Eve"]) if change == "merge" else game
    shown = version_of(app, int(other.url.split("/")[-2]))
    assert other.page()  # the round screen open, its state kept at `shown`
    with app.app_context():
        ids = dict(db.session.execute(sql("SELECT name, id FROM table_player")).all())
        db.session.remove()
    if change == "rename":
        done = client.post(f"{table_url}/people/{ids['Anna']}/name", data={"name": "Hanna"})
        old, new = "Anna", "Hanna"
    else:
        done = client.post(f"{table_url}/merge", data={"merged": ids["Anne"], "into": ids["Anna"]})
        old, new = "Anne", "Anna"
    assert done.status_code == 303
    polled = client.get(f"{other.url}/version?v={shown}&on=round", headers=HX)
    assert polled.status_code == 200 and new in text(polled.get_data(as_text=True))
    assert old not in text(other.page())
    said = text(other.page("/sheet")).split("History", 1)[1]
    assert (f"{old} is called {new} now (renamed at the table)" in said) == (change == "rename")
    assert (f"{old} counts as {new} now (merged at the table)" in said) == (change == "merge")


def test_the_history_names_each_phones_entry_a_send_back_and_who_saved(
    app: Flask, table: Table
) -> None:
    three_hands_in(table, app)
    table.client.post(f"{table.url}/rounds/1/pending/2/send-back", data={"note": "Count again"})
    enter(table, app, 2, cards_2="K K JK")
    saved = table.end_round(1, "Anna", {"Ben": 10, "Oma": "K K JK"})
    assert saved.status_code == 303
    said = text(table.page("/sheet")).split("History", 1)[1]
    assert "Round 1: Anna said on their phone they went out" in said
    assert "Round 1: Ben entered their hand on their phone: 10" in said
    assert "Round 1: the scorekeeper sent Oma's hand back: “Count again”" in said
    assert "Round 1: Oma entered their hand on their phone: 35" in said
    assert "Every hand entered on its player's phone (Anna, Ben, and Oma), saved by the" in said
