"""Each player counts their own hand (issue 24.2): a seat enters it on its phone, checked by the
end-of-round form's rules; the scorekeeper sees it pending by name, sends one back with a note,
changes one, saves with one tap; the history names who entered what, and undo takes the whole
round back. On both databases, and two seats entering at once both land."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request

import pytest
from flask import Flask
from sqlalchemy import select
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, RoundResult, SeatHand
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
from tests.tables.backups import backup_of, empty, encoded, upload
from tests.tables.helpers import open_table, start_at
from tests.web.test_games import HX, text
from tests.web.test_seat_calls import PLAYERS, seat_page

pytestmark = pytest.mark.storage


def enter(
    table: Table, app: Flask, seat: int, *, htmx: bool = False, **fields: str
) -> TestResponse:
    """Send a hand from a seat's own page (round 1 unless told)."""
    data = {"number": "1", **fields}
    return table.client.post(
        f"/s/1/{seat_tokens(app)[seat]}/hand", data=data, headers=HX if htmx else {}
    )


def every_hand_in(table: Table, app: Flask) -> None:
    """Anna went out; Ben typed 35, Carla tapped K K JK (35), Dan typed 12."""
    for seat, fields in (
        (0, {"went_out": "0"}),
        (1, {"points_1": "35"}),
        (2, {"cards_2": "K K JK"}),
        (3, {"points_3": "12"}),
    ):
        assert enter(table, app, seat, **fields).status_code == 303


def one_tap(table: Table) -> TestResponse:
    """Press "Every hand is in: save the round" on the round screen."""
    screen = table.page()
    form = screen.split('data-testid="phone-hands"', 1)[1].split("save-from-phones", 1)[0]
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.rsplit("<form", 1)[1]))
    fields.pop("csrf_token")
    return table.client.post(f"{table.url}/rounds/1", data=fields)


def history(table: Table) -> str:
    return text(table.page("/sheet")).split("History", 1)[1]


def test_a_seat_enters_its_own_hand_and_the_scorekeeper_sees_it_pending(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    before = version_of(app)
    assert enter(table, app, 1, points_1="35").status_code == 303
    assert count(app, SeatHand) == 1 and count(app, RoundResult) == 0
    assert version_of(app) == before + 1  # every phone's poll sees it within 2 s
    said = seat_page(table, app, 1)
    assert "Your hand is with the scorekeeper: 35 points." in said
    poll = table.client.get(f"{table.url}/version?v={before}&on=round", headers=HX)
    polled = text(poll.get_data(as_text=True))
    assert "Hands from the phones" in polled and "Ben : 35 points" in polled
    assert "Carla : not entered yet" in polled
    form = table.page("/rounds/1")
    assert 'name="points_1" type="number" value="35"' in form
    assert "From Ben’s phone" in text(form)
    with app.app_context():
        view = db.session.get(Game, 1).view_token  # type: ignore[union-attr]
    assert "Hands from the phones" not in table.client.get(f"/g/1/{view}").get_data(as_text=True)


def test_a_seat_changes_its_own_hand_until_the_round_is_saved(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    enter(table, app, 1, points_1="35")
    enter(table, app, 1, cards_1="A A")
    assert count(app, SeatHand) == 1
    assert "Your hand is with the scorekeeper: 30 points." in seat_page(table, app, 1)


def test_a_seat_enters_only_its_own_hand(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    refused = enter(table, app, 1, points_2="35", went_out="2", htmx=True)
    assert refused.status_code == 422  # Ben's own hand is empty: the others' fields are no field
    assert count(app, SeatHand) == 0
    enter(table, app, 2, points_2="20")
    ben = seat_tokens(app)[1]
    assert table.client.post(f"/g/1/{ben}/rounds/1/pending/2/send-back").status_code == 404
    assert table.client.get(f"/g/1/{ben}/rounds/1/pending", headers=HX).status_code == 404
    assert count(app, SeatHand, SeatHand.status == "pending") == 1


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({}, "Enter the points or the cards left in hand."),
        ({"points_1": "500"}, "most valuable cards make 165"),
        ({"cards_1": "A A A A A A A A A"}, "Only 8 cards of rank A are in play."),
        ({"went_out": "1", "points_1": "5"}, "Ben went out and holds no cards"),
        ({"points_1": "5", "cut_bonus": "y"}, "These rules have no cut bonus."),
        ({"points_1": "5", "number": "2"}, "That round has not been played yet."),
    ],
)
def test_the_rules_refuse_a_hand_at_its_field(
    app: Flask, table: Table, fields: dict[str, str], reason: str
) -> None:
    table.start(PLAYERS)
    before = version_of(app)
    refused = enter(table, app, 1, htmx=True, **fields)
    assert refused.status_code == 422
    said = refused.get_data(as_text=True)
    assert said.lstrip().startswith('<section id="own-hand"')  # the pad alone, for htmx
    assert reason in text(said)
    assert count(app, SeatHand) == 0 and version_of(app) == before


def test_only_the_cutter_claims_the_cut_bonus(app: Flask, table: Table) -> None:
    table.start(PLAYERS, ruleset="liverpool")
    cutter = next(s for s in range(4) if "I cut exactly" in seat_page(table, app, s))
    other = (cutter + 1) % 4
    refused = enter(table, app, other, **{f"points_{other}": "5", "cut_bonus": "y"})
    assert refused.status_code == 422
    assert "Only the player who cut this round can earn the cut bonus." in text(
        refused.get_data(as_text=True)
    )
    assert (
        enter(table, app, cutter, **{f"points_{cutter}": "5", "cut_bonus": "y"}).status_code == 303
    )


def test_a_second_player_saying_they_went_out_is_refused_with_the_reason(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    assert enter(table, app, 2, went_out="2").status_code == 303
    refused = enter(table, app, 3, went_out="3", htmx=True)
    assert refused.status_code == 422
    assert "Carla already said they went out." in text(refused.get_data(as_text=True))
    assert count(app, SeatHand) == 1


def test_a_double_tap_enters_once(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    before = version_of(app)
    for _ in range(2):
        assert enter(table, app, 1, points_1="35", action_id="tap-1").status_code == 303
    assert count(app, SeatHand) == 1 and version_of(app) == before + 1


def test_a_sent_back_hand_shows_the_note_at_the_seat_which_enters_it_again(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    enter(table, app, 3, points_3="12")
    sent = table.client.post(
        f"{table.url}/rounds/1/pending/3/send-back",
        data={"note": "Count the joker", "on": "form"},
        headers=HX,
    )
    assert sent.status_code == 200
    answer = sent.get_data(as_text=True)
    assert answer.lstrip().startswith('<section id="phone-hands"')
    assert "sent back: “Count the joker”" in text(answer)
    said = seat_page(table, app, 3)
    assert "The scorekeeper sent your hand back. “Count the joker”" in said
    # each language's own quotes: the catalog's, not the template's
    german = seat_page(table, app, 3, "de")
    assert "Wer anschreibt, hat deine Hand zurückgeschickt. „Count the joker“" in german
    screen = table.client.get(f"{table.url}/rounds/1", headers={"Accept-Language": "es"})
    assert "devuelta: «Count the joker»" in text(screen.get_data(as_text=True))
    assert "Send my hand" in said  # the pad, again
    assert 'data-testid="from-phone-3" hidden' in table.page("/rounds/1")  # not filled in
    enter(table, app, 3, points_3="27")
    assert "Your hand is with the scorekeeper: 27 points." in seat_page(table, app, 3)


def test_a_note_is_short_and_plain(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    enter(table, app, 3, points_3="12")
    url = f"{table.url}/rounds/1/pending/3/send-back"
    long = table.client.post(url, data={"note": "x" * 141}, headers=HX)
    assert long.status_code == 422
    assert "A note is at most 140 characters." in text(long.get_data(as_text=True))
    nobody = table.client.post(f"{table.url}/rounds/1/pending/1/send-back", headers=HX)
    assert nobody.status_code == 422 and "Ben has no hand waiting." in text(nobody.get_data(True))
    assert count(app, SeatHand, SeatHand.status == "pending") == 1


def test_one_tap_saves_the_round_and_the_history_names_who_entered_each_hand(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    every_hand_in(table, app)
    saved = one_tap(table)
    assert saved.status_code == 303, text(saved.get_data(as_text=True))
    assert count(app, SeatHand) == 0 and count(app, RoundResult) == 4
    said = history(table)
    assert "Round 1: Anna went out" in said
    assert "Every hand entered on its player's phone (Anna, Ben, Carla, and Dan)" in said
    assert "saved by the scorekeeper" in said


def test_a_hand_the_scorekeeper_changes_is_the_scorekeepers_in_the_history(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    every_hand_in(table, app)
    table.client.post(f"{table.url}/rounds/1/pending/3/send-back", data={"note": "?"})
    saved = table.end_round(1, "Anna", {"Ben": 35, "Carla": "K K JK", "Dan": 15})
    assert saved.status_code == 303
    said = history(table)
    assert "Entered on their own phones: Anna, Ben, and Carla." in said
    assert "Entered by the scorekeeper, who saved the round: Dan." in said


def test_undo_takes_the_whole_round_back(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    every_hand_in(table, app)
    one_tap(table)
    undone = table.client.post(f"{table.url}/undo")
    assert undone.status_code == 303
    assert count(app, RoundResult) == 0 and count(app, SeatHand) == 0
    again = table.client.get(undone.headers["Location"]).get_data(as_text=True)
    assert 'name="points_3" type="number" value="12"' in again  # the undone round's form, filled
    assert "Round 1" in seat_page(table, app, 1) and "Send my hand" in seat_page(table, app, 1)


def test_the_saved_round_moves_the_seat_to_the_next_round(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    every_hand_in(table, app)
    before = version_of(app)
    one_tap(table)
    poll = table.client.get(f"/s/1/{seat_tokens(app)[1]}/version?v={before}&on=round-1", headers=HX)
    assert poll.headers.get("HX-Refresh") == "true"  # a fresh pad for round 2
    assert "Round 1 is saved: your hand counts 35 points." in seat_page(table, app, 1)
    assert "Round 1 is saved: you went out." in seat_page(table, app, 0)
    late = enter(table, app, 1, points_1="5", htmx=True)
    assert late.status_code == 422
    assert "Round 1 is saved already: enter your hand for round 2." in text(late.get_data(True))


def test_a_seats_picked_card_tapped_again_takes_one_copy_back(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    ben = f"/s/1/{seat_tokens(app)[1]}"
    data = {"number": "1", "cards_1": "K Q K", "tap": "1:-K"}
    tapped = table.client.post(f"{ben}/hand/tap", data=data, headers=HX)
    pad = tapped.get_data(as_text=True)
    assert 'value="K Q"' in pad and 'data-testid="tally-1">20<' in pad
    assert 'value="1:-K"' in pad and 'value="1:-Q"' in pad


def test_the_pad_and_the_entries_answer_a_page_or_their_fragment(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    ben = f"/s/1/{seat_tokens(app)[1]}"
    tapped = table.client.post(f"{ben}/hand/tap", data={"number": "1", "tap": "1:K"}, headers=HX)
    assert tapped.get_data(as_text=True).lstrip().startswith('<section id="own-hand"')
    assert 'data-testid="tally-1">10<' in tapped.get_data(as_text=True)
    page = table.client.post(f"{ben}/hand/tap", data={"number": "1", "tap": "1:K"})
    assert "<html" in page.get_data(as_text=True) and page.status_code == 200
    assert (
        table.client.post(f"{ben}/hand/tap", data={"number": "1", "tap": "2:K"}).status_code == 200
    )
    entries = table.client.get(f"{table.url}/rounds/1/pending?on=form", headers=HX)
    assert entries.get_data(as_text=True).lstrip().startswith('<section id="phone-hands"')
    plain = table.client.get(f"{table.url}/rounds/1/pending?on=form")
    assert plain.status_code == 303 and plain.headers["Location"].endswith("/rounds/1")
    assert enter(table, app, 1, points_1="9", htmx=True).headers["HX-Redirect"] == ben


def test_a_refusal_is_in_the_seats_language(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    enter(table, app, 2, went_out="2")
    refused = table.client.post(
        f"/s/1/{seat_tokens(app)[3]}/hand",
        data={"number": "1", "went_out": "3"},
        headers={**HX, "Accept-Language": "de"},
    )
    assert "Carla hat sich schon als ausgegangen gemeldet." in text(refused.get_data(True))


def test_two_seats_entering_at_once_both_land(live_game: LiveGame) -> None:
    links = seat_tokens(live_game.app, live_game.game_id)

    def send(seat: int) -> int:
        url = f"{live_game.base}/s/{live_game.game_id}/{links[seat]}/hand"
        body = urllib.parse.urlencode({"number": "1", f"points_{seat}": str(10 + seat)})
        return status_of(urllib.request.Request(url, data=body.encode()), opener=OPENER.open)

    assert at_once(send, [1, 2, 3]) == [303] * 3
    assert live_game.count(SeatHand) == 3
    with live_game.app.app_context():
        game = db.session.get(Game, live_game.game_id)
        assert game is not None and game.version == 4  # created, then one bump per entry
        db.session.remove()


def test_a_table_backup_keeps_who_entered_each_hand(app: Flask, table: Table) -> None:
    table_url = open_table(table.client)
    game = start_at(table.client, table_url, PLAYERS)
    table.url = game.url
    every_hand_in(table, app)
    assert one_tap(table).status_code == 303
    backup = backup_of(table.client, table_url)
    saved = next(change for change in backup["games"][0]["changes"] if change["kind"] == "result")
    assert saved["after"]["from_phones"] == [0, 1, 2, 3]
    empty(app)
    restored = upload(table.client, encoded(backup))
    assert restored.status_code == 303, text(restored.get_data(as_text=True))
    with app.app_context():
        kept = db.session.scalars(select(Change.after).where(Change.kind == "result")).one()
        db.session.remove()
    assert kept is not None and kept["from_phones"] == [0, 1, 2, 3]


def test_a_pad_holding_a_card_more_often_than_the_decks_is_refused(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)  # four players: two decks, two K♥
    refused = enter(table, app, 1, htmx=True, cards_1="KH KH KH")
    assert refused.status_code == 422
    assert "Only 2 copies of K♥ are in play." in text(refused.get_data(as_text=True))
    assert count(app, SeatHand) == 0
