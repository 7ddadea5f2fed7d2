"""Ending rounds, the stock running out, corrections, undo and history through the JSON API."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, assert_problem, buys_of

pytestmark = pytest.mark.storage

# (round, who went out or None for the stock, hands as entered, each seat's score)
SEVEN_ROUNDS: list[tuple[int, str | None, dict[str, Any], list[int]]] = [
    (1, "Anna", {"Ben": 25, "Carla": "KC 7H JK", "Dev": {"A": 1, "5": 2}}, [0, 25, 32, 25]),
    (2, "Ben", {"Anna": 10, "Carla": "QS, QH", "Dev": 0}, [10, 0, 20, 0]),
    (3, "Carla", {"Anna": "AS AH JK", "Ben": 40, "Dev": 5}, [45, 40, 0, 5]),
    (4, "Dev", {"Anna": 12, "Ben": {"K": 2, "JK": 1}, "Carla": 3}, [12, 35, 3, 0]),
    (5, None, {"Anna": 7, "Ben": "2C 3D 4H", "Carla": 30, "Dev": 8}, [7, 9, 30, 8]),
    (6, "Anna", {"Ben": 20, "Carla": 15, "Dev": "10S TH 9C"}, [0, 20, 15, 29]),
    (7, "Ben", {"Anna": 50, "Carla": 60, "Dev": 45}, [50, 0, 60, 45]),
]


def play(api: Api, rounds: list[tuple[int, str | None, dict[str, Any], list[int]]]) -> Any:
    """Play rounds through the API; the last answer."""
    answer = None
    for number, out, hands, _scores in rounds:
        if out is None:
            api.ok("post", f"{api.url}/run-outs", {}, status=201)
            api.ok("post", f"{api.url}/run-outs", {}, status=201)
        response = api.end_round(number, out, hands)
        assert response.status_code == 200, response.get_data(as_text=True)
        answer = response.json
    return answer


def test_a_whole_seven_round_game_adds_up_from_the_hands(api: Api) -> None:
    api.start()
    for number, out, hands, scores in SEVEN_ROUNDS:
        assert api.state()["current_round"]["dealer"] == (number - 1) % 4
        play(api, [(number, out, hands, scores)])
        assert api.state()["rounds"][-1]["scores"] == scores
    state = api.state()
    assert state["totals"] == [124, 129, 160, 112]
    assert state["totals"] == [
        sum(column) for column in zip(*(r[3] for r in SEVEN_ROUNDS), strict=True)
    ]
    assert state["running_totals"][0] == [0, 25, 32, 25]
    assert state["running_totals"][4] == [74, 109, 85, 38]
    assert state["finished"] is True and state["current_round"] is None
    assert state["standings"]["winners"] == [3]
    assert state["standings"]["explanation"] == ["Dev wins with the lowest total, 112."]
    assert [row["name"] for row in state["standings"]["rows"]] == ["Dev", "Anna", "Ben", "Carla"]
    assert [row["rounds_out"] for row in state["standings"]["rows"]] == [1, 2, 2, 1]


def test_played_rounds_keep_each_hand_as_entered(api: Api) -> None:
    api.start()
    play(api, SEVEN_ROUNDS[:1])
    played = api.state()["rounds"][0]
    assert (played["number"], played["went_out"], played["dealer"]) == (1, 0, 0)
    assert (played["is_tiebreaker"], played["ended_by_stock"]) == (False, False)
    assert played["hands"] == [
        {"seat": 0, "went_out": True, "points": 0, "cards": None},
        {"seat": 1, "went_out": False, "points": 25, "cards": None},
        {"seat": 2, "went_out": False, "points": 32, "cards": {"K": 1, "7": 1, "JK": 1}},
        {"seat": 3, "went_out": False, "points": 25, "cards": {"A": 1, "5": 2}},
    ]


def test_a_zero_for_a_player_who_did_not_go_out_is_recorded_with_a_warning(api: Api) -> None:
    api.start()
    play(api, SEVEN_ROUNDS[:1])
    answer = api.end_round(2, "Ben", {"Anna": 10, "Carla": 20, "Dev": 0}).json
    assert answer["warnings"] == ["Dev: 0 points, but Dev did not go out. Check the hand."]
    assert answer["totals"] == [10, 25, 52, 25]


def test_the_second_run_out_ends_the_round_and_everybody_counts(api: Api) -> None:
    api.start()
    first = api.ok("post", f"{api.url}/run-outs", {}, status=201)
    assert (first["number"], first["ends_round"]) == (1, False)
    assert first["instruction"] == "Shuffle the discard pile, keep its top card, and play on."
    second = api.ok("post", f"{api.url}/run-outs", {"seen": 1}, status=201)
    assert (second["number"], second["ends_round"]) == (2, True)
    assert second["instruction"] == (
        "The stock ran out a second time: the round ends and everybody counts their hand."
    )
    assert second["game"]["current_round"]["ended_by_stock"] is True
    problem = assert_problem(api.call("post", f"{api.url}/run-outs", {}), 422)
    assert problem["detail"] == "The round already ended when the stock ran out a second time."
    out = api.end_round(1, "Anna", {"Ben": 1, "Carla": 2, "Dev": 3})
    assert assert_problem(out, 422, "went_out")["errors"]["went_out"] == [
        "The stock ended this round: nobody went out."
    ]


def test_two_phones_reporting_one_run_out_record_it_once(api: Api) -> None:
    api.start()
    api.ok("post", f"{api.url}/run-outs", {"seen": 0}, status=201)
    late = api.ok("post", f"{api.url}/run-outs", {"seen": 0}, status=200)
    assert late["number"] == 1 and late["game"]["current_round"]["run_outs"] == 1


def test_contract_rummy_re_forms_the_stock_every_time(api: Api) -> None:
    api.start(ruleset="contract-rummy")
    for number in (1, 2, 3):
        run_out = api.ok("post", f"{api.url}/run-outs", {}, status=201)
        assert (run_out["number"], run_out["ends_round"]) == (number, False)


def test_a_past_round_is_corrected_and_the_history_says_what_changed(api: Api) -> None:
    api.start()
    rounds = [(n, out, hands, s) for n, out, hands, s in SEVEN_ROUNDS[:3]]
    rounds[2] = (3, "Carla", {"Anna": 45, "Ben": 25, "Dev": 5}, [45, 25, 0, 5])
    play(api, rounds)
    assert api.state()["totals"] == [55, 50, 52, 30]
    answer = api.end_round(3, "Carla", {"Anna": 45, "Ben": 15, "Dev": 5}).json
    assert answer["totals"] == [55, 40, 52, 30]
    assert answer["current_round"]["number"] == 4
    assert api.history()[0] == "Round 3: Ben 25 → 15"


def test_undo_takes_back_the_newest_change(api: Api) -> None:
    api.start()
    api.buy("Ben")
    state = api.ok("post", f"{api.url}/undo", {})
    assert state["current_round"]["buys"][1]["bought"] == 0
    history = api.ok("get", f"{api.url}/history")
    assert [(c["kind"], c["text"], c["undone"]) for c in history] == [
        ("undo", "Undo", False),
        ("buy", "Round 1: Ben bought a card", True),
        ("create", "Game started", False),
    ]
    assert history[1]["round"] == 1 and history[1]["seat"] == 1
    assert history[0]["created_at"].endswith("+00:00")


def test_undoing_a_take_back_and_then_the_buy_leaves_no_buy(api: Api) -> None:
    api.start()
    api.buy("Ben")
    api.ok("post", f"{api.url}/buys/remove", {"seat": api.seat("Ben")})
    assert buys_of(api.ok("post", f"{api.url}/undo", {})) == [0, 1, 0, 0]  # the take-back
    assert buys_of(api.ok("post", f"{api.url}/undo", {})) == [0, 0, 0, 0]  # the buy itself
    history = api.ok("get", f"{api.url}/history")
    assert [(c["kind"], c["undone"]) for c in history] == [
        ("undo", False),
        ("undo", False),
        ("buy_removed", True),
        ("buy", True),
        ("create", False),
    ]


def test_undo_reopens_a_recorded_round(api: Api) -> None:
    api.start()
    play(api, SEVEN_ROUNDS[:1])
    state = api.ok("post", f"{api.url}/undo", {"action_id": "undo-1"})
    assert state["rounds"] == [] and state["current_round"]["number"] == 1


def test_undo_with_nothing_to_undo_is_refused(api: Api) -> None:
    api.start()
    problem = assert_problem(api.call("post", f"{api.url}/undo"), 415)
    problem = assert_problem(api.call("post", f"{api.url}/undo", {}), 422, "undo")
    assert problem["errors"]["undo"] == ["There is nothing to undo."]


def test_a_tie_is_played_off_among_the_tied_players_only(api: Api) -> None:
    api.start(players=["Anna", "Ben", "Carla"])
    for number in range(1, 7):
        out, other = ("Anna", "Carla") if number % 2 else ("Carla", "Anna")
        assert api.end_round(number, out, {other: 10, "Ben": 50}).status_code == 200
    state = api.end_round(7, "Ben", {"Anna": 5, "Carla": 5}).json
    assert state["totals"] == [35, 300, 35] and state["finished"] is False
    assert state["standings"]["needs_tiebreaker"] == [0, 2]
    current = state["current_round"]
    assert (current["number"], current["is_tiebreaker"], current["seats"]) == (8, True, [0, 2])
    assert (current["contract_text"], current["deal"]) == ("2 runs", 10)
    ruling = api.ok("post", f"{api.url}/arbiter", {"discarder": 0, "callers": [2]})
    assert (ruling["winner"], ruling["is_buy"]) == (2, True)
    problem = assert_problem(
        api.call("post", f"{api.url}/arbiter", {"discarder": 0, "callers": [1]}), 422, "callers"
    )
    assert problem["errors"]["callers"] == ["That player is not in this round."]
    assert_problem(api.buy("Ben"), 422, "seat")
    final = api.end_round(8, "Carla", {"Anna": "JK 5S"}).json
    assert final["finished"] is True and final["standings"]["winners"] == [2]
    tiebreaker = final["rounds"][-1]
    assert (tiebreaker["number"], tiebreaker["is_tiebreaker"]) == (8, True)
    assert tiebreaker["scores"] == [20, None, 0] and final["totals"] == [35, 300, 35]


@pytest.mark.parametrize(
    ("hands", "field", "message"),
    [
        ({"1": {"cards": "QS QS QS"}}, "hands.1", "Only 2 copies of Q♠ are in play."),
        ({"1": {"cards": "QS ZZ"}}, "hands.1.cards", "Not a card: ZZ"),
        (
            {"1": {"cards": 12}},
            "hands.1.cards",
            'Give cards as text ("KC 7H JK") or a list of cards.',
        ),
        ({"1": {"counts": {"JK": 5}}}, "hands.1", "Only 4 jokers are in play."),
        ({"1": {"counts": {"Z": 1}}}, "hands.1", "Not a rank: Z"),
        ({"1": {"counts": {"K": "1"}}}, "hands.1.counts.K", "Must be a whole number."),
        ({"1": {"points": -5}}, "hands.1.points", "Must be a whole number from 0 to 100000."),
        (
            {"1": {"points": 5, "cards": "KC"}},
            "hands.1",
            "Give exactly one of: points, cards, counts.",
        ),
        ({"1": {}}, "hands.1", "Give exactly one of: points, cards, counts."),
        ({"1": 25}, "hands.1", "Must be an object with named entries."),
        ({"1": {"points": 5, "note": "x"}}, "hands.1.note", "Unknown field."),
        ({"7": {"points": 5}}, "hands.7", "There is no seat 7 at this table."),
        ({"one": {"points": 5}}, "hands.one", "There is no seat one at this table."),
        ({"0": {"points": 5}}, "hands.0", "The player who went out holds no cards."),
        (
            {"1": {"points": 5}, "2": {"points": 5}},
            "hands.3",
            "Enter the points or the cards left in hand.",
        ),
    ],
)
def test_a_bad_hand_is_refused_and_the_round_stays_open(
    api: Api, hands: dict[str, Any], field: str, message: str
) -> None:
    api.start()
    full = {"1": {"points": 5}, "2": {"points": 5}, "3": {"points": 5}}
    body = {
        "went_out": 0,
        "hands": full if field == "hands.3" and len(hands) == 2 else full | hands,
    }
    if field == "hands.3":
        body["hands"] = hands
    response = api.call("put", f"{api.url}/rounds/1", body)
    assert assert_problem(response, 422, field)["errors"][field] == [message]
    state = api.state()
    assert state["rounds"] == [] and state["version"] == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"hands": {}}, "went_out"),
        ({"went_out": 4, "hands": {}}, "went_out"),
        ({"went_out": "Anna", "hands": {}}, "went_out"),
        ({"went_out": 0}, "hands"),
        ({"went_out": 0, "hands": []}, "hands"),
        ({"went_out": 0, "hands": {}, "cut_bonus_seat": 9}, "cut_bonus_seat"),
    ],
)
def test_a_bad_round_end_is_refused(api: Api, body: dict[str, Any], field: str) -> None:
    api.start()
    assert_problem(api.call("put", f"{api.url}/rounds/1", body), 422, field)


def test_a_round_not_yet_played_cannot_be_recorded(api: Api) -> None:
    api.start()
    response = api.end_round(3, "Anna", {"Ben": 1, "Carla": 2, "Dev": 3})
    problem = assert_problem(response, 422, "round")
    assert problem["errors"]["round"] == ["That round has not been played yet."]


def test_a_finished_game_takes_no_more_buys(api: Api) -> None:
    api.start()
    play(api, SEVEN_ROUNDS)
    problem = assert_problem(api.buy("Ben"), 422, "game")
    assert problem["detail"] == "This game is over."


def test_liverpool_cut_bonus_goes_only_to_the_rounds_cutter(api: Api) -> None:
    api.start(ruleset="liverpool")  # Anna deals; Dev, on her right, cuts
    hands = {"Ben": 20, "Carla": 30, "Dev": 40}
    problem = assert_problem(
        api.end_round(1, "Anna", hands, cut_bonus_seat=1), 422, "cut_bonus_seat"
    )
    assert problem["errors"]["cut_bonus_seat"] == [
        "Only the player who cut this round can earn the cut bonus."
    ]
    response = api.end_round(1, "Anna", hands, cut_bonus_seat=3)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.json["rounds"][0]["cut_bonus_seat"] == 3


def test_a_round_with_warnings_is_held_when_the_client_asks_to_confirm_them(api: Api) -> None:
    api.start()
    hands = {"Ben": 0, "Carla": 20, "Dev": 5}
    held = api.end_round(1, "Anna", hands, confirm_warnings=False)
    problem = assert_problem(held, 422, "hands.1")
    warning = "Ben: 0 points, but Ben did not go out. Check the hand."
    assert problem["errors"] == {"hands.1": [warning]}
    assert all(not played["hands"] for played in api.state()["rounds"])
    saved = api.end_round(1, "Anna", hands, confirm_warnings=True)
    assert saved.status_code == 200
    assert saved.json["warnings"] == [warning]


def test_a_round_without_warnings_saves_when_confirmation_is_asked_for(api: Api) -> None:
    api.start()
    saved = api.end_round(1, "Anna", {"Ben": 10, "Carla": 20, "Dev": 5}, confirm_warnings=False)
    assert saved.status_code == 200 and saved.json["warnings"] == []


def test_a_hand_holding_a_card_more_often_than_the_decks_is_refused(api: Api) -> None:
    api.start()  # four players: two decks, two K♥
    hands = {"1": {"cards": "KH KH KH"}, "2": {"points": 5}, "3": {"points": 5}}
    response = api.call("put", f"{api.url}/rounds/1", {"went_out": 0, "hands": hands})
    problem = assert_problem(response, 422, "hands.1")
    assert problem["errors"]["hands.1"] == ["Only 2 copies of K♥ are in play."]
    assert api.state()["rounds"] == []
