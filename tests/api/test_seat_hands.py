"""The hands from the phones through the API (issue 24.2): a seat puts its own hand under its
seat link, refused by the rules at its field; the edit link lists the entries and sends one
back; saving the round (PUT …/rounds/<n>) clears them and the history names who entered what."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, assert_link_refused, assert_problem, bearer

pytestmark = pytest.mark.storage


def put_hand(api: Api, name: str, body: dict[str, Any]) -> Any:
    """A player's own hand, sent under their seat link."""
    return api.with_link(api.seat_link(name), "put", f"{api.url}/seat/hand", body)


def test_a_seat_puts_its_own_hand_and_reads_it_back(api: Api) -> None:
    api.start()
    before = api.version()
    entered = put_hand(api, "Ben", {"round": 1, "cards": "KC KD JK", "action_id": "h1"})
    assert entered.status_code == 200
    shown: Any = entered.json
    assert (shown["seat"], shown["name"], shown["points"], shown["status"]) == (
        1,
        "Ben",
        35,
        "pending",
    )
    assert shown["cards"] == {"K": 2, "JK": 1} and shown["went_out"] is False
    again = put_hand(api, "Ben", {"round": 1, "cards": "KC KD JK", "action_id": "h1"})
    assert again.json == shown and api.version() == before + 1  # a repeat enters once
    view = api.with_link(api.seat_link("Ben"), "get", f"{api.url}/seat").json
    assert view["hand"] == shown  # type: ignore[index]
    assert api.with_link(api.seat_link("Anna"), "get", f"{api.url}/seat").json["hand"] is None  # type: ignore[index]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"round": 1}, "points"),
        ({"round": 1, "points": 500}, "points"),
        ({"round": 1, "went_out": True, "points": 5}, "went_out"),
        ({"round": 1, "points": 5, "cut_bonus": True}, "cut_bonus"),
        ({"round": 3, "points": 5}, "round"),
    ],
)
def test_the_rules_refuse_a_seats_hand_at_its_field(
    api: Api, body: dict[str, Any], field: str
) -> None:
    api.start()
    problem = assert_problem(put_hand(api, "Ben", body), 422)
    assert field in problem["errors"], problem
    assert api.ok("get", f"{api.url}/rounds/1/pending") == []


def test_a_second_player_out_is_refused(api: Api) -> None:
    api.start()
    assert put_hand(api, "Anna", {"round": 1, "went_out": True}).status_code == 200
    problem = assert_problem(put_hand(api, "Ben", {"round": 1, "went_out": True}), 422)
    assert problem["errors"]["went_out"] == ["Anna already said they went out."]


def test_only_the_edit_link_lists_and_sends_back_and_a_seat_link_opens_neither(api: Api) -> None:
    api.start()
    put_hand(api, "Dev", {"round": 1, "points": 12})
    listed = api.ok("get", f"{api.url}/rounds/1/pending")
    assert [(entry["name"], entry["points"]) for entry in listed] == [("Dev", 12)]
    view = api.links["view_token"]
    assert api.with_link(view, "get", f"{api.url}/rounds/1/pending").status_code == 403
    back = f"{api.url}/rounds/1/pending/3/send-back"
    assert api.with_link(view, "post", back, {"note": "?"}).status_code == 403
    for seat_link in (api.seat_link("Dev"), api.seat_link("Ben")):
        assert_link_refused(api.with_link(seat_link, "get", f"{api.url}/rounds/1/pending"))
        assert_link_refused(api.with_link(seat_link, "post", back, {"note": "?"}))
    sent = api.ok("post", back, {"note": "Count the joker"})
    assert (sent["status"], sent["note"]) == ("sent_back", "Count the joker")
    seen = api.with_link(api.seat_link("Dev"), "get", f"{api.url}/seat").json
    assert seen["hand"]["note"] == "Count the joker"  # type: ignore[index]
    assert api.ok("get", f"{api.url}/rounds/2/pending") == []
    nobody = assert_problem(api.call("post", f"{api.url}/rounds/1/pending/1/send-back", {}), 422)
    assert nobody["errors"]["seat"] == ["Ben has no hand waiting."]


def test_the_edit_link_opens_no_seat_endpoint(api: Api) -> None:
    api.start()
    hand = {"round": 1, "points": 5}
    assert_link_refused(api.call("put", f"{api.url}/seat/hand", hand))
    assert_problem(api.client.put(f"/api/v1{api.url}/seat/hand", json=hand), 401)  # no token
    other = api.game_id
    api.start()
    taken = api.client.put(
        f"/api/v1/games/{other}/seat/hand", json=hand, headers=bearer(api.seat_link("Ben"))
    )
    assert_link_refused(taken)  # another game's seat link opens nothing here


def test_saving_the_round_clears_the_entries_and_names_who_entered_them(api: Api) -> None:
    api.start()
    put_hand(api, "Anna", {"round": 1, "went_out": True})
    put_hand(api, "Ben", {"round": 1, "points": 35})
    put_hand(api, "Carla", {"round": 1, "counts": {"K": 2, "JK": 1}})
    hands = {"1": {"points": 35}, "2": {"counts": {"K": 2, "JK": 1}}, "3": {"points": 12}}
    api.ok("put", f"{api.url}/rounds/1", {"went_out": 0, "hands": hands})
    assert api.ok("get", f"{api.url}/rounds/1/pending") == []
    history = api.ok("get", f"{api.url}/history")
    saved = next(change for change in history if change["kind"] == "result")
    assert saved["from_phones"] == [0, 1, 2]  # Dev's hand is the scorekeeper's


def test_a_round_put_on_a_version_before_a_seats_newer_hand_is_refused(api: Api) -> None:
    api.start(players=["Anna", "Ben", "Oma"])
    put_hand(api, "Anna", {"round": 1, "went_out": True})
    put_hand(api, "Ben", {"round": 1, "points": 10})
    put_hand(api, "Oma", {"round": 1, "points": 20})
    drawn = api.version()
    assert put_hand(api, "Oma", {"round": 1, "points": 45}).status_code == 200
    stale = api.end_round(1, "Anna", {"Ben": 10, "Oma": 20}, version=drawn)
    problem = assert_problem(stale, 409)
    assert problem["errors"]["hands.2"] == ["Oma changed their hand on their phone: 45, not 20."]
    listed = api.ok("get", f"{api.url}/rounds/1/pending")
    assert [entry["points"] for entry in listed] == [0, 10, 45]  # Oma's newer 45 stands
    assert api.end_round(1, "Anna", {"Ben": 10, "Oma": 45}, version=drawn).status_code == 200


def test_the_history_says_who_made_each_change(api: Api) -> None:
    api.start()
    put_hand(api, "Ben", {"round": 1, "points": 12})
    api.ok("post", f"{api.url}/rounds/1/pending/1/send-back", {"note": "Count the joker"})
    api.buy("Carla")
    history = api.ok("get", f"{api.url}/history")
    assert [(change["kind"], change["by"], change["seat"]) for change in history[:3]] == [
        ("buy", "scorekeeper", 2),
        ("hand_sent_back", "scorekeeper", 1),
        ("hand_entered", "seat", 1),
    ]
    assert history[1]["text"] == "Round 1: the scorekeeper sent Ben's hand back: “Count the joker”"


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Only 2 copies of K♥ are in play."),
        ("de", "K♥ ist nur 2-mal im Spiel."),
        ("nl", "Er zijn maar 2 exemplaren van H♥ in het spel."),
        ("es", "Solo hay 2 ejemplares de K♥ en juego."),
    ],
)
def test_a_hand_holding_a_card_more_often_than_the_decks_is_refused(
    api: Api, language: str, said: str
) -> None:
    api.start()  # four players: two decks, two K♥
    headers = {**bearer(api.seat_link("Ben")), "Accept-Language": language}
    body = {"round": 1, "cards": "KH KH KH"}
    refused = api.client.put(f"/api/v1{api.url}/seat/hand", json=body, headers=headers)
    assert assert_problem(refused, 422)["errors"]["points"] == [said]
    assert api.ok("get", f"{api.url}/rounds/1/pending") == []
    assert put_hand(api, "Ben", {"round": 1, "cards": "KH KH KS"}).json["points"] == 30
