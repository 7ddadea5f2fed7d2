"""Totals a hand cannot make and the stock's end of a May I? round, through the JSON API."""

from __future__ import annotations

import pytest

from .conftest import Api, assert_problem

IMPOSSIBLE = {
    "en": "No hand is worth 1: the cheapest card counts 2.",
    "de": "Keine Hand ist 1 wert: Die billigste Karte zählt 2.",
    "nl": "Geen hand is 1 waard: de goedkoopste kaart telt 2.",
    "es": "Ninguna mano vale 1: la carta más barata cuenta 2.",
}
NO_BUY = {
    "en": "The stock ended this round: nobody can buy any more.",
    "de": "Der Talon hat diese Runde beendet: Niemand kann mehr kaufen.",
    "nl": "De trekstapel beëindigde deze ronde: niemand kan nog kopen.",
    "es": "Esta ronda terminó por agotamiento del mazo: ya nadie puede comprar.",
}


def in_language(api: Api, language: str, method: str, path: str, body: object) -> object:
    """Call with the edit link in a language the phone asks for."""
    headers = {**api.headers, "Accept-Language": language}
    return getattr(api.client, method)(f"/api/v1{path}", json=body, headers=headers)


@pytest.mark.parametrize("language", IMPOSSIBLE)
def test_a_total_no_hand_can_make_is_refused_at_its_hand(api: Api, language: str) -> None:
    api.start()
    hands = {"1": {"points": 1}, "2": {"points": 20}, "3": {"points": 30}}
    body = {"went_out": 0, "hands": hands}
    answer = in_language(api, language, "put", f"{api.url}/rounds/1", body)
    assert assert_problem(answer, 422, "hands.1")["errors"]["hands.1"] == [IMPOSSIBLE[language]]
    assert api.state()["rounds"] == []


def test_999_is_refused_and_an_unusually_high_hand_is_saved_with_a_warning(api: Api) -> None:
    api.start()
    refused = api.end_round(1, "Anna", {"Ben": 999, "Carla": 20, "Dev": 30})
    message = assert_problem(refused, 422, "hands.1")["errors"]["hands.1"][0]
    assert message.startswith(
        "No hand is worth 999: with 0 buys this player holds at most 11 cards"
    )
    answer = api.end_round(1, "Anna", {"Ben": 150, "Carla": 20, "Dev": 30})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.json["warnings"] == ["Ben: 150 points is unusually high for one hand. Check it."]
    assert answer.json["totals"] == [0, 150, 20, 30]


def test_points_for_the_player_who_went_out_are_refused_at_their_hand(api: Api) -> None:
    api.start()
    refused = api.end_round(1, "Anna", {"Anna": 20, "Ben": 20, "Carla": 20, "Dev": 30})
    assert_problem(refused, 422, "hands.0")
    assert api.state()["rounds"] == []


@pytest.mark.parametrize("run_outs", [0, 1])
def test_the_stock_cannot_end_the_round_before_its_second_run_out(api: Api, run_outs: int) -> None:
    api.start()
    for seen in range(run_outs):
        api.ok("post", f"{api.url}/run-outs", {"seen": seen}, status=201)
    refused = api.end_round(1, None, {"Anna": 20, "Ben": 20, "Carla": 20, "Dev": 30})
    assert assert_problem(refused, 422, "went_out")["errors"]["went_out"] == [
        "The stock ends the round only when it runs out a second time; so far it ran out "
        f"{run_outs} {'time' if run_outs == 1 else 'times'} this round. Tap “The stock ran out” "
        "each time it does."
    ]
    assert api.state()["rounds"] == []


@pytest.mark.parametrize("language", NO_BUY)
def test_no_buy_is_recorded_after_the_stock_ended_the_round(api: Api, language: str) -> None:
    api.start()
    api.ok("post", f"{api.url}/run-outs", {"seen": 0}, status=201)
    api.ok("post", f"{api.url}/buys", {"seat": 1}, status=201)
    assert api.state()["current_round"]["stock_instruction"] == (
        "Shuffle the discard pile, keep its top card, and play on."
    )
    api.ok("post", f"{api.url}/run-outs", {"seen": 1}, status=201)
    refused = in_language(api, language, "post", f"{api.url}/buys", {"seat": 2})
    assert assert_problem(refused, 422, "seat")["errors"]["seat"] == [NO_BUY[language]]
    assert [row["bought"] for row in api.state()["current_round"]["buys"]] == [0, 1, 0, 0]
    ended = api.end_round(1, None, {"Anna": 20, "Ben": 20, "Carla": 20, "Dev": 30})
    assert ended.status_code == 200, ended.get_data(as_text=True)
