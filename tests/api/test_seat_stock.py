"""A seat's API after the stock ended the round (issue 35.3): its view says so, and a call or
"I went out" is refused with the rules' reason at its field, changing nothing."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, assert_problem
from .test_seat_hands import put_hand

pytestmark = pytest.mark.storage


def stock_ended(api: Api) -> None:
    """Start a game and let the stock run out twice."""
    api.start()
    for seen in (0, 1):
        api.ok("post", f"{api.url}/run-outs", {"seen": seen}, status=201)


def test_a_seats_view_says_the_stock_ended_the_round(api: Api) -> None:
    stock_ended(api)
    view: Any = api.with_link(api.seat_link("Ben"), "get", f"{api.url}/seat").json
    current = view["game"]["current_round"]
    assert current["ended_by_stock"] is True and current["run_outs"] == 2
    assert current["stock_instruction"] == (
        "The stock ran out a second time: the round ends and everybody counts their hand."
    )


def test_a_call_after_the_stocks_end_is_refused_with_the_reason(api: Api) -> None:
    stock_ended(api)
    before = api.version()
    called = api.with_link(api.seat_link("Ben"), "post", f"{api.url}/seat/calls", {})
    problem = assert_problem(called, 422)
    assert problem["errors"]["seat"] == ["The stock ended this round: nobody can buy any more."]
    assert api.version() == before and api.ok("get", f"{api.url}/calls") == []


def test_going_out_after_the_stocks_end_is_refused_with_the_reason(api: Api) -> None:
    stock_ended(api)
    before = api.version()
    problem = assert_problem(put_hand(api, "Ben", {"round": 1, "went_out": True}), 422)
    assert problem["errors"]["went_out"] == ["The stock ended this round: nobody went out."]
    assert api.version() == before and api.ok("get", f"{api.url}/rounds/1/pending") == []
