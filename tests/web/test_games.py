"""A game through the web forms: set-up, the round screen, buys, the stock, scoring, the sheet."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Buy, Change, Game, RoundResult
from tests.conftest import Table, count, make_app

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]
HX = {"HX-Request": "true"}

# Seven rounds arranged so Anna and Ben tie on 45 and Anna went out more often.
TIED_GAME = [
    ("Anna", {"Ben": 20, "Carla": 30, "Dan": 40}),
    ("Ben", {"Anna": 10, "Carla": 30, "Dan": 40}),
    ("Anna", {"Ben": 5, "Carla": 30, "Dan": 40}),
    ("Ben", {"Anna": 15, "Carla": 30, "Dan": 40}),
    ("Anna", {"Ben": 10, "Carla": 30, "Dan": 40}),
    ("Carla", {"Anna": 10, "Ben": 5, "Dan": 40}),
    ("Dan", {"Anna": 10, "Ben": 5, "Carla": 30}),
]


def text(html: str) -> str:
    """Page text with tags removed, entities decoded and white space folded."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def play(table: Table, rounds: list[tuple[str | None, dict[str, int | str]]]) -> None:
    """End each round in turn with who went out and the other hands."""
    for number, (out, hands) in enumerate(rounds, start=1):
        response = table.end_round(number, out, hands)
        assert response.status_code == 303, text(response.get_data(as_text=True))


def test_new_game_form_offers_every_rule_set(client: FlaskClient) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    for key in (
        "may-i",
        "contract-rummy",
        "contract-rummy-proper",
        "liverpool",
        "shanghai",
        "nine-rounds",
        "no-jokers",
    ):
        assert f'value="{key}"' in page


@pytest.mark.storage
def test_names_from_earlier_games_are_offered(table: Table, client: FlaskClient) -> None:
    table.start(PLAYERS)
    page = client.get("/games/new").get_data(as_text=True)
    assert '<option value="Carla">' in page


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Anna"], "Enter at least two players."),
        (["Anna", "anna"], "Each player needs a different name."),
        (["Anna", "B" * 41], "Field cannot be longer than 40 characters."),
    ],
)
def test_bad_players_are_refused_at_the_field_and_keep_what_was_typed(
    app: Flask, client: FlaskClient, players: list[str], message: str
) -> None:
    data = {f"players-{i}": name for i, name in enumerate(players)}
    response = client.post("/games/", data={"ruleset": "may-i", "first_dealer": "", **data})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert message in page
    assert f'value="{players[0]}"' in page
    assert count(app, Game) == 0


def test_an_unknown_rule_set_is_refused(app: Flask, client: FlaskClient) -> None:
    response = client.post("/games/", data={"ruleset": "poker", "players-0": "A", "players-1": "B"})
    assert response.status_code == 422
    assert "Not a valid choice" in response.get_data(as_text=True)
    assert count(app, Game) == 0


def test_a_table_too_small_for_the_rules_is_refused(app: Flask, client: FlaskClient) -> None:
    data = {"ruleset": "contract-rummy", "players-0": "A", "players-1": "B", "first_dealer": "0"}
    response = client.post("/games/", data=data)
    assert response.status_code == 422
    assert "3 to 8" in text(response.get_data(as_text=True))
    assert count(app, Game) == 0


def test_a_player_moves_up_the_seat_order(client: FlaskClient) -> None:
    data = {"ruleset": "may-i", "players-0": "Anna", "players-1": "Ben", "move": "1"}
    page = client.post("/games/", data=data).get_data(as_text=True)
    assert page.index('value="Ben"') < page.index('value="Anna"')


def test_cut_for_deal_picks_a_dealer_and_says_so(table: Table) -> None:
    table.start(PLAYERS, first_dealer="")
    page = text(table.page())
    assert re.search(r"The app cut for deal: (Anna|Ben|Carla|Dan) deals first\.", page)


def test_round_screen_shows_what_to_deal_and_the_contract(table: Table) -> None:
    table.start(PLAYERS)
    page = text(table.page())
    assert "Round 1 of 7 · 2 books" in page
    assert "10 cards each" in page
    assert "2 decks + 4 jokers = 108 cards" in page
    assert "Dealer Anna" in page
    assert "Plays first Ben" in page


def test_seven_players_play_with_three_decks(client: FlaskClient, table: Table) -> None:
    table.start([f"P{i}" for i in range(7)])
    assert "3 decks + 6 jokers = 162 cards" in text(table.page())


def test_round_seven_reminds_there_is_no_final_discard(table: Table) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME[:6])
    page = text(table.page())
    assert "Round 7 of 7 · 3 runs" in page
    assert "No final discard" in page
    assert "12 cards each" in page


def test_a_buy_updates_the_counter_as_a_fragment(table: Table) -> None:
    table.start(PLAYERS)
    response = table.client.post(f"{table.url}/buys", data={"seat": 1}, headers=HX)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="buys"')
    assert "<html" not in body
    assert "2 buys left (1/3)" in text(body)


def test_a_change_answers_every_other_region_out_of_band_and_no_refetch(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    response = table.client.post(f"{table.url}/buys", data={"seat": 1}, headers=HX)
    body = response.get_data(as_text=True)
    assert "HX-Trigger" not in response.headers  # no region fetches itself again
    for region in ("round-header", "stock", "standings", "poller"):
        assert re.search(rf'<\w+ hx-swap-oob="true" id="{region}"', body), region
    assert 'hx-swap-oob="true" id="buys"' not in body
    with app.app_context():
        version = db.session.scalar(select(Game.version))
    assert f"v={version}&amp;on=round" in body  # the next poll answers 204


def test_the_undo_form_follows_this_phones_change_and_not_a_poll(table: Table) -> None:
    table.start(PLAYERS)
    page = table.client.get(table.url).get_data(as_text=True)
    assert re.search(r'<form id="undo"[^>]*>', page)
    answer = table.client.post(f"{table.url}/buys", data={"seat": 1}, headers=HX)
    undo = re.search(
        r'<form hx-swap-oob="true" id="undo".*?</form>', answer.get_data(as_text=True), re.S
    )
    assert undo and 'name="version" value="2"' in undo[0]
    assert answer.headers["Game-Version"] == "2"
    poll = table.client.get(f"{table.url}/version?v=1&on=round", headers=HX)
    assert 'id="undo"' not in poll.get_data(as_text=True)  # another phone's change: not followed


def test_a_buy_without_htmx_redirects_to_the_round(table: Table) -> None:
    table.start(PLAYERS)
    response = table.buy("Ben")
    assert response.status_code == 303
    assert response.headers["Location"] == table.url


def test_fourth_buy_in_a_round_is_refused(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    for _ in range(3):
        assert table.buy("Ben").status_code == 303
    response = table.buy("Ben")
    assert response.status_code == 422
    assert "The limit of 3 buys per round is reached." in response.get_data(as_text=True)
    assert count(app, Buy) == 3


def test_no_buys_rule_set_refuses_every_buy(app: Flask, table: Table) -> None:
    table.start(PLAYERS, ruleset="no-buys")
    response = table.buy("Ben")
    assert response.status_code == 422
    assert "There is no buying in this round." in response.get_data(as_text=True)
    assert count(app, Buy) == 0


def test_buys_start_again_in_the_next_round(table: Table) -> None:
    table.start(PLAYERS)
    for _ in range(3):
        table.buy("Ben")
    play(table, TIED_GAME[:1])
    assert table.buy("Ben").status_code == 303


@pytest.mark.storage
def test_a_double_tap_records_one_buy(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    table.buy("Ben", action_id="tap-1")
    table.buy("Ben", action_id="tap-1")
    assert count(app, Buy) == 1


def test_a_mis_tapped_buy_is_taken_back(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    table.buy("Carla")
    response = table.client.post(f"{table.url}/buys/remove", data={"seat": 2}, headers=HX)
    assert response.status_code == 200
    assert count(app, Buy) == 0
    refused = table.client.post(f"{table.url}/buys/remove", data={"seat": 2})
    assert refused.status_code == 422
    assert "no buy to take back" in refused.get_data(as_text=True)


@pytest.mark.parametrize("seat", ["9", "-1", "x", ""])
def test_a_buy_for_a_seat_not_at_the_table_is_refused(app: Flask, table: Table, seat: str) -> None:
    table.start(PLAYERS)
    response = table.client.post(f"{table.url}/buys", data={"seat": seat})
    assert response.status_code == 422
    assert count(app, Buy) == 0


def test_the_arbiter_gives_the_card_to_the_nearest_caller(table: Table) -> None:
    table.start(PLAYERS)
    response = table.client.post(
        f"{table.url}/arbiter", data={"discarder": "0", "callers": ["3", "2"]}, headers=HX
    )
    body = text(response.get_data(as_text=True))
    assert response.status_code == 200
    assert "Dan: A caller nearer the discarder's left gets the card." in body
    assert "Record the buy for Carla" in body


def test_the_arbiter_needs_a_discarder(table: Table) -> None:
    table.start(PLAYERS)
    response = table.client.post(f"{table.url}/arbiter", data={"callers": ["2"]}, headers=HX)
    assert response.status_code == 422
    assert "Choose who discarded." in response.get_data(as_text=True)


def test_first_run_out_says_to_shuffle_the_discards(table: Table) -> None:
    table.start(PLAYERS)
    response = table.client.post(f"{table.url}/run-outs", data={"seen": "0"}, headers=HX)
    body = text(response.get_data(as_text=True))
    assert "Shuffle the discard pile, keep its top card, and play on." in body
    assert "The stock ran out 1 time this round." in body


def test_second_run_out_ends_the_round_and_goes_to_scoring(table: Table) -> None:
    table.start(PLAYERS)
    table.run_out(0)
    response = table.run_out(1)
    assert response.status_code == 303
    assert response.headers["Location"] == f"{table.url}/rounds/1"
    form = table.page("/rounds/1")
    assert re.search(r'<input checked[^>]*value="stock"', form)


@pytest.mark.storage
def test_two_phones_reporting_one_run_out_record_it_once(table: Table) -> None:
    table.start(PLAYERS)
    table.run_out(0)
    table.run_out(0)
    assert "The stock ran out 1 time this round." in text(table.page())


def test_contract_rummy_reshuffles_every_time(table: Table) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    for seen in range(3):
        assert table.run_out(seen).status_code == 303
    assert "The stock ran out 3 times this round." in text(table.page())


def test_a_round_ended_by_the_stock_scores_everybody(table: Table) -> None:
    table.start(PLAYERS)
    table.run_out(0)
    table.run_out(1)
    response = table.end_round(1, None, {"Anna": 5, "Ben": "K 7 JK", "Carla": 12, "Dan": 3})
    assert response.status_code == 303
    sheet = text(table.page("/sheet"))
    assert "Total 5 32 12 3" in sheet


def test_going_out_is_refused_after_the_stock_ended_the_round(table: Table) -> None:
    table.start(PLAYERS)
    table.run_out(0)
    table.run_out(1)
    response = table.end_round(1, "Anna", {"Ben": 1, "Carla": 1, "Dan": 1})
    assert response.status_code == 422
    assert "The stock ended this round: nobody went out." in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("-5", "Points are a whole number from 0 to 10,000."),
        ("ten", "Not a valid integer value."),
        ("", "Enter the points or the cards left in hand."),
    ],
)
def test_bad_points_are_refused_at_the_field(
    app: Flask, table: Table, hand: str, message: str
) -> None:
    table.start(PLAYERS)
    data = {"went_out": "0", "points_1": hand, "points_2": "5", "points_3": "5"}
    response = table.client.post(f"{table.url}/rounds/1", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert message in page
    assert 'value="5"' in page  # what was typed is kept
    assert count(app, RoundResult) == 0


def test_every_refused_hand_says_so_at_once(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    data = {"went_out": "0", "points_1": "ten", "points_2": "", "points_3": "99999"}
    response = table.client.post(f"{table.url}/rounds/1", data=data)
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    # A malformed number does not hide the other hands' refusals.
    assert "Not a valid integer value." in page
    assert "Enter the points or the cards left in hand." in page
    assert "Points are a whole number from 0 to 10,000." in page
    # A rule refusal does not hide the others either.
    data = {"went_out": "0", "points_0": "5", "points_1": "", "points_2": "5", "points_3": ""}
    page = text(table.client.post(f"{table.url}/rounds/1", data=data).get_data(as_text=True))
    assert "Anna went out and holds no cards" in page
    assert page.count("Enter the points or the cards left in hand.") == 2
    assert count(app, RoundResult) == 0


def test_an_impossible_hand_is_refused(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    response = table.end_round(1, "Anna", {"Ben": "Q " * 9, "Carla": 1, "Dan": 1})
    assert response.status_code == 422
    assert "Q" in text(response.get_data(as_text=True))
    assert count(app, RoundResult) == 0


def test_tapping_cards_shows_the_running_sum(table: Table) -> None:
    table.start(PLAYERS)
    data = {"went_out": "0", "cards_1": "K", "tap": "1:JK"}
    response = table.client.post(f"{table.url}/rounds/1/tap", data=data, headers=HX)
    assert response.status_code == 200
    assert 'data-testid="tally-1">25<' in response.get_data(as_text=True)


def test_a_picked_card_tapped_again_takes_one_copy_back_and_the_pad_stays_open(
    table: Table,
) -> None:
    """A mis-tapped card (issue 35.7): its picked copy, tapped, goes; Clear leaves the pad open."""
    table.start(PLAYERS)
    data = {"went_out": "0", "cards_1": "K K JK", "tap": "1:-K"}
    response = table.client.post(f"{table.url}/rounds/1/tap", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and 'value="K JK"' in page
    assert 'data-testid="tally-1">25<' in page
    picked = page.split('data-testid="picked-1"')[1].split("</div>")[0]
    assert re.findall(r'value="1:-(\w+)"', picked) == ["K", "JK"]
    assert 'aria-label="Take back one K"' in picked
    data = {"went_out": "0", "cards_1": "K", "tap": "1:-Q"}  # a card not picked: nothing goes
    page = table.client.post(f"{table.url}/rounds/1/tap", data=data).get_data(as_text=True)
    assert 'value="K"' in page and 'data-testid="tally-1">10<' in page
    cleared = {"went_out": "0", "cards_1": "K", "tap": "1:clear"}
    page = table.client.post(f"{table.url}/rounds/1/tap", data=cleared).get_data(as_text=True)
    hand = page.split('id="hand-1"')[1].split("</fieldset>")[0]
    assert '<details class="card-taps" open>' in hand


@pytest.mark.storage
def test_tapped_cards_are_stored_with_the_hand(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    table.end_round(1, "Anna", {"Ben": "K 7 JK", "Carla": 5, "Dan": 5})
    with app.app_context():
        hand = db.session.scalar(select(RoundResult).where(RoundResult.seat == 1))
        assert hand is not None
        assert (hand.points, hand.cards) == (32, {"K": 1, "7": 1, "JK": 1})


def test_a_whole_game_ends_with_the_tie_explained(table: Table) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME)
    sheet = text(table.page("/sheet"))
    assert "Total 45 45 180 240" in sheet
    page = text(table.page())
    assert "Final standings" in page
    assert "Anna and Ben tied on 45." in page
    assert "Anna went out in 3 rounds." in page
    assert "Ben went out in 2 rounds." in page
    assert page.index("Anna 45") < page.index("Ben 45")
    assert "Play again with the same players" in page


def test_a_tie_on_rounds_out_is_settled_by_a_tiebreaker_round(table: Table) -> None:
    table.start(PLAYERS)
    rounds = [
        ("Anna", {"Ben": 10, "Carla": 50, "Dan": 50}),
        ("Ben", {"Anna": 10, "Carla": 50, "Dan": 50}),
        *[("Carla", {"Anna": 10, "Ben": 10, "Dan": 50})] * 5,
    ]
    play(table, rounds)
    page = text(table.page())
    assert "Tiebreaker round · 2 runs" in page
    assert "Dealer Carla" not in page
    response = table.client.post(f"{table.url}/rounds/8", data={"went_out": "1", "points_0": "7"})
    assert response.status_code == 303
    page = text(table.page())
    assert "Final standings" in page
    assert "Ben went out in the tiebreaker round and wins." in page
    sheet = text(table.page("/sheet"))
    assert "Tiebreaker round 1: Ben went out, Anna 7" in sheet
    assert "Tiebreaker round 1: Ben went out" in sheet.split("History")[1]
    assert "Round 8" not in sheet


@pytest.mark.storage
def test_a_past_round_is_corrected_and_the_history_shows_it(table: Table) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME[:3])
    form = table.page("/rounds/3")
    assert 'value="5"' in form  # the recorded hand is filled in
    response = table.end_round(3, "Anna", {"Ben": 15, "Carla": 30, "Dan": 40})
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/sheet")  # back where it was corrected
    sheet = text(table.page("/sheet"))
    assert "Round 3: Ben 5 → 15" in sheet
    assert "Total 10 35 90 120" in sheet


def test_a_round_not_yet_reached_cannot_be_entered(table: Table) -> None:
    table.start(PLAYERS)
    assert table.client.get(f"{table.url}/rounds/3").status_code == 404
    assert table.end_round(3, "Anna", {"Ben": 1, "Carla": 1, "Dan": 1}).status_code == 404


@pytest.mark.storage
def test_undo_takes_back_the_last_change(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME[:2])
    table.buy("Dan")
    table.client.post(f"{table.url}/undo")
    assert count(app, Buy) == 0
    table.client.post(f"{table.url}/undo")
    page = text(table.page())
    assert "Round 2 of 7" in page
    assert "(undone)" in text(table.page("/sheet"))


def test_undo_with_nothing_to_undo_says_so(table: Table) -> None:
    table.start(PLAYERS)
    response = table.client.post(f"{table.url}/undo", follow_redirects=True)
    assert "There is nothing to undo." in response.get_data(as_text=True)


@pytest.mark.storage
def test_every_action_is_in_the_history(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    table.buy("Ben")
    table.run_out(0)
    play(table, TIED_GAME[:1])
    with app.app_context():
        kinds = list(db.session.scalars(select(Change.kind).order_by(Change.id)))
    assert kinds == ["create", "buy", "run_out", "result"]


def test_play_again_seats_the_same_players(table: Table) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME)
    response = table.client.post(f"{table.url}/again")
    assert response.status_code == 303
    assert response.headers["Location"] != table.url
    page = text(table.client.get(response.headers["Location"]).get_data(as_text=True))
    assert "Round 1 of 7" in page
    assert all(name in page for name in PLAYERS)


@pytest.mark.storage
def test_a_game_survives_a_restart(table: Table, app: Flask) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME[:2])
    # A new app on the same database stands in for a restarted server.
    restarted = make_app(app.config["SQLALCHEMY_DATABASE_URI"], app.instance_path)
    page = text(restarted.test_client().get(table.url).get_data(as_text=True))
    with restarted.app_context():
        db.engine.dispose()
    assert "Round 3 of 7 · 2 runs" in page


def test_an_unknown_game_is_not_found(client: FlaskClient) -> None:
    assert client.get("/g/999/no-such-link").status_code == 404
    assert client.post("/g/999/no-such-link/buys", data={"seat": "0"}).status_code == 404


def test_a_finished_game_refuses_buys(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME)
    response = table.buy("Anna")
    assert response.status_code == 422
    assert "This game is over." in response.get_data(as_text=True)


@pytest.mark.storage
def test_home_page_lists_games_in_progress_and_finished(table: Table, client: FlaskClient) -> None:
    table.start(PLAYERS)
    play(table, TIED_GAME)
    table.start(["Eva", "Fay"])
    page = text(client.get("/").get_data(as_text=True))
    assert "Games in progress Eva, Fay" in page
    assert "Won by Anna" in page


@pytest.mark.parametrize(
    ("path", "root"),
    [("/buys", "buys"), ("/stock", "stock"), ("/standings", "standings"), ("/sheet", "sheet")],
)
def test_fragment_routes_answer_a_page_or_the_fragment(table: Table, path: str, root: str) -> None:
    table.start(PLAYERS)
    page = table.client.get(table.url + path)
    assert page.status_code == 200
    assert "<html" in page.get_data(as_text=True)
    assert "HX-Request" in page.headers["Vary"]
    fragment = table.client.get(table.url + path, headers=HX).get_data(as_text=True)
    assert fragment.lstrip().startswith(f'<section id="{root}"')
    assert "<html" not in fragment


def test_recording_the_arbiters_buy_closes_the_ruling(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    response = table.client.post(f"{table.url}/arbiter/buys", data={"seat": "2"}, headers=HX)
    body = text(response.get_data(as_text=True))
    assert response.status_code == 200
    assert "Buy recorded for Carla." in body
    assert "2 buys left (1/3)" in body  # the buys region came along, out of band
    assert "Record the buy" not in body
    assert count(app, Buy) == 1


def test_the_arbiter_refuses_a_caller_not_at_the_table(table: Table) -> None:
    table.start(PLAYERS)
    data = {"discarder": "0", "callers": ["7"]}
    response = table.client.post(f"{table.url}/arbiter", data=data, headers=HX)
    assert response.status_code == 422
    assert "That player is not in this round." in response.get_data(as_text=True)


@pytest.mark.parametrize(
    "key", ["may-i", "contract-rummy", "contract-rummy-proper", "liverpool", "shanghai", "no-buys"]
)
def test_every_preset_has_a_rules_card(client: FlaskClient, key: str) -> None:
    response = client.get(f"/rules/{key}")
    assert response.status_code == 200
    page = text(response.get_data(as_text=True))
    assert "Rounds" in page
    assert "Scoring" in page


@pytest.mark.parametrize(
    ("key", "sentence"),
    [
        ("may-i", "At most 3 buys per round."),
        ("may-i", "The second time, the round ends and everybody counts their hand."),
        ("contract-rummy", "but not by the same player twice in a row."),
        ("contract-rummy", "Lay down exactly the contract: each meld at its length, no more."),
        ("contract-rummy", "3 to 5 players: 2 decks and one joker fewer than players."),
        ("liverpool", "(players × deal + 1) scores −50 for that round."),
        ("shanghai", "Joker: 50 points. Ace: 15 points."),
        ("no-buys", "No buying out of turn."),
        ("aces-around", "Runs may turn the corner: Q-K-A-2."),
    ],
)
def test_rules_cards_tell_each_rule_set_apart(client: FlaskClient, key: str, sentence: str) -> None:
    assert sentence in text(client.get(f"/rules/{key}").get_data(as_text=True))


def test_an_unknown_rules_card_is_not_found(client: FlaskClient) -> None:
    assert client.get("/rules/poker").status_code == 404


def test_a_game_shows_the_rules_it_is_played_under(table: Table) -> None:
    table.start(PLAYERS, ruleset="shanghai")
    page = text(table.page("/rules"))
    assert "Shanghai Rummy" in page
    assert "At most 2 buys per round." in page
    assert "Back to the round" in page


def test_a_rules_card_starts_a_game_with_its_rules(client: FlaskClient) -> None:
    page = client.get("/games/new?ruleset=liverpool").get_data(as_text=True)
    assert '<option selected value="liverpool">' in page


def test_the_sheet_shows_tapped_cards_to_settle_a_dispute(table: Table) -> None:
    table.start(PLAYERS)
    table.end_round(1, "Anna", {"Ben": "K 7 JK", "Carla": 5, "Dan": 5})
    assert "K 7 JK" in text(table.page("/sheet"))  # not 🃏: it looks like the ★ "went out" mark
    german = table.client.get(f"{table.url}/sheet", headers={"Accept-Language": "de"})
    assert "K 7 JK" in text(german.get_data(as_text=True))
    table.end_round(2, "Ben", {"Anna": "Q J", "Carla": 5, "Dan": 5})
    dutch = table.client.get(f"{table.url}/sheet", headers={"Accept-Language": "nl"})
    assert "V B" in text(dutch.get_data(as_text=True))


def test_sheet_round_seven_says_the_exact_length_is_lifted(table: Table) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    play(table, TIED_GAME[:6])
    page = text(table.page())
    assert "Round 7: all 13 cards go down at once" in page
    assert "Lay down exactly the contract" not in page


def test_sheet_round_six_reminds_of_its_exact_lengths(table: Table) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    play(table, TIED_GAME[:5])
    page = text(table.page())
    assert "Lay down exactly the contract: 1 book of 3 + 2 runs of 4, no longer." in page


def test_the_sheet_lets_the_last_buyer_buy_again_at_a_later_discard(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    assert table.buy("Ben").status_code == 303
    assert table.buy("Ben").status_code == 303
    assert count(app, Buy) == 2


def test_the_sheet_refuses_the_buyer_above_the_next_card_down(app: Flask, table: Table) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    data = {"discarder": "3", "callers": ["1"]}
    asked = table.client.post(f"{table.url}/arbiter", data=data, headers=HX)
    assert "Record the buy for Ben" in text(asked.get_data(as_text=True))
    record = {"seat": "1", "discarder": "3", "bought_above": ""}
    recorded = table.client.post(f"{table.url}/arbiter/buys", data=record, headers=HX)
    form = recorded.get_data(as_text=True)
    assert re.search(r'<input type="radio" name="bought_above" value="1" checked>', form)
    below = {"discarder": "3", "callers": ["1", "2"], "bought_above": "1"}
    ruling = text(
        table.client.post(f"{table.url}/arbiter", data=below, headers=HX).get_data(as_text=True)
    )
    assert "Ben: Nobody may buy twice in a row." in ruling
    assert "Record the buy for Carla" in ruling
    assert count(app, Buy) == 1


def test_may_i_asks_no_chain_question(table: Table) -> None:
    table.start(PLAYERS)
    assert 'id="card-below"' not in table.page()


def test_shanghai_shows_its_ten_deals(table: Table) -> None:
    table.start(PLAYERS, ruleset="shanghai")
    assert "Round 1 of 10 · 2 books" in text(table.page())
    card = text(table.page("/rules"))
    assert "1 book + 1 run of 10" in card
    assert "The ten deals are the common list" in card


LIVERPOOL_CUT = {
    "en": "An exact cut is 41 cards (4 × 10 + 1): −50.",
    "de": "Genau abgehoben heißt 41 Karten (4 × 10 + 1): −50.",
    "nl": "Een exacte coupure is 41 kaarten (4 × 10 + 1): −50.",
    "es": "Un corte exacto son 41 cartas (4 × 10 + 1): −50.",
}


@pytest.mark.parametrize("language", list(LIVERPOOL_CUT))
def test_liverpool_round_screen_says_how_many_cards_to_cut(table: Table, language: str) -> None:
    table.start(PLAYERS, ruleset="liverpool")
    page = table.client.get(table.url, headers={"Accept-Language": language})
    assert LIVERPOOL_CUT[language] in text(page.get_data(as_text=True))


def test_liverpool_cut_bonus_is_refused_for_anyone_but_the_cutter(app: Flask, table: Table) -> None:
    table.start(PLAYERS, ruleset="liverpool")  # Anna deals, Dan on her right cuts
    hands = {"Ben": 20, "Carla": 30, "Dan": 40}
    refused = table.end_round(1, "Anna", hands, cut="Ben")
    assert refused.status_code == 422
    assert count(app, RoundResult) == 0
    assert table.end_round(1, "Anna", hands, cut="Dan").status_code == 303
    sheet = table.page("/sheet")
    assert re.search(r"<span class=\"score\">-10</span>.*?✂", sheet, re.S)
    assert "exact cut: −50" in text(sheet)


def test_liverpool_form_offers_the_cut_bonus_only_to_the_cutter(table: Table) -> None:
    table.start(PLAYERS, ruleset="liverpool")
    form = table.page("/rounds/1")
    assert '<option value="3">Dan (−50)</option>' in form
    assert '<option value="1">' not in form


def test_the_english_contract_rummy_card_calls_may_i(client: FlaskClient) -> None:
    card = text(client.get("/rules/contract-rummy").get_data(as_text=True))
    assert "“May I?”: buying out of turn" in card
    assert "Darf ich" not in card


@pytest.mark.parametrize("key", ["contract-rummy", "contract-rummy-proper", "liverpool"])
def test_german_contract_rummy_uses_the_sheets_words(client: FlaskClient, key: str) -> None:
    page = client.get(f"/rules/{key}", headers={"Accept-Language": "de"})
    card = text(page.get_data(as_text=True))
    assert "Vorgabe" in card
    assert "Ziehstapel" in card
    assert "Darf ich?" in card
    assert "Talon" not in card
    assert "Vertrag" not in card


def test_german_may_i_keeps_its_own_words(client: FlaskClient) -> None:
    card = text(
        client.get("/rules/may-i", headers={"Accept-Language": "de"}).get_data(as_text=True)
    )
    assert "Talon" in card
    assert "Vorgabe" not in card
    assert "Darf ich" not in card


def test_german_contract_rummy_round_screen_uses_the_sheets_words(table: Table) -> None:
    table.start(PLAYERS, ruleset="contract-rummy")
    page = table.client.get(table.url, headers={"Accept-Language": "de"})
    screen = text(page.get_data(as_text=True))
    assert "Ziehstapel aufgebraucht" in screen
    assert "Genau die Vorgabe auslegen" in screen
    assert "Darf ich?" in screen


@pytest.mark.storage
def test_a_hand_holding_a_card_more_often_than_the_decks_is_refused(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)  # four players: two decks, two K♥
    response = table.end_round(1, "Anna", {"Ben": "KH KH KH", "Carla": 5, "Dan": 5})
    assert response.status_code == 422
    assert "Only 2 copies of K♥ are in play." in text(response.get_data(as_text=True))
    with app.app_context():
        assert db.session.scalar(select(RoundResult)) is None
    saved = table.end_round(1, "Anna", {"Ben": "KH KS 7", "Carla": 5, "Dan": 5})
    assert saved.status_code == 303
