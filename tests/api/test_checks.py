"""The rules engine's checks through the JSON API: counting a hand and checking melds."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, assert_problem


@pytest.mark.parametrize(
    ("body", "points"),
    [
        ({"cards": "KC 7H JK"}, 32),
        ({"cards": ["KC", "7♥", "joker"]}, 32),
        ({"cards": "KC 7H JK", "ruleset": "shanghai"}, 67),
        ({"counts": {"K": 1, "7": 1, "JK": 1}}, 32),
        ({"cards": ""}, 0),
        ({"cards": "10S TS AD", "players": 8}, 35),
        ({"counts": {"JK": 6}, "players": 8}, 90),
        ({"counts": {"Q": 12}, "players": 7}, 120),
    ],
)
def test_tally_counts_penalty_points(api: Api, body: dict[str, Any], points: int) -> None:
    assert api.ok("post", "/tally", body) == {"points": points}


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"cards": "QS QS QS"}, "cards", "Only 2 copies of Q♠ are in play."),
        ({"counts": {"JK": 5}}, "counts", "Only 4 jokers are in play."),
        ({"counts": {"JK": 1}, "ruleset": "no-jokers"}, "counts", "No jokers are in play."),
        ({"counts": {"Q": 9}}, "counts", "Only 8 cards of rank Q are in play."),
        ({"counts": {"Z": 1}}, "counts", "Not a rank: Z"),
        ({"counts": {"K": -1}}, "counts.K", "Must be a whole number from 0 to 100000."),
        ({"cards": "KC XX"}, "cards", "Not a card: XX"),
        ({"cards": "KC", "counts": {"K": 1}}, "cards", "Give exactly one of: cards, counts."),
        ({}, "cards", "Give exactly one of: cards, counts."),
        ({"cards": "KC", "ruleset": "uno"}, "ruleset", "There is no rule set uno."),
        ({"cards": "KC", "players": 1}, "players", "May I? is played by 2 to 8 players, not 1."),
        ({"cards": "KC", "players": "4"}, "players", "Must be a whole number."),
    ],
)
def test_tally_refuses_cards_not_in_play(
    api: Api, body: dict[str, Any], field: str, message: str
) -> None:
    problem = assert_problem(api.call("post", "/tally", body), 422, field)
    assert problem["errors"][field] == [message]


SHEET = {"ruleset": "contract-rummy"}


@pytest.mark.parametrize(
    ("body", "verdict"),
    [
        (
            {"round": 1, "melds": [["9S", "9H", "9S"], "KC KD JK"]},
            {"ok": True, "reason": None, "kind": None, "meld": None},
        ),
        (
            {"round": 1, "melds": [["9S", "9H", "9S"]]},
            {"ok": False, "reason": "This contract is 2 melds, not 1.", "kind": None, "meld": None},
        ),
        (
            {"round": 2, "melds": ["9S 9H 9D", "3H 4H 5H"]},
            {"ok": False, "reason": "A run needs at least 4 cards.", "kind": "run", "meld": 1},
        ),
        (
            {"round": 2, "melds": ["9S 9H 9D 9C", "3H 4H 5H 6H 7H"], "ruleset": "contract-rummy"},
            {"ok": False, "reason": "A book must have exactly 3 cards.", "kind": "book", "meld": 0},
        ),
        (
            {"round": 7, "melds": ["3H 4H 5H 6H", "8S 9S 10S JS", "2C 3C 4C 5C 6C"], **SHEET},
            {"ok": True, "reason": None, "kind": None, "meld": None},
        ),
        (
            {"meld": "2C 3C 4C 5C 6C", "kind": "run", "round": 7, **SHEET},
            {"ok": True, "reason": None, "kind": "run", "meld": None},
        ),
        (
            {"meld": "2C 3C 4C 5C 6C", "kind": "run", "round": 6, **SHEET},
            {
                "ok": False,
                "reason": "A run must have exactly 4 cards.",
                "kind": "run",
                "meld": None,
            },
        ),
        (
            {"meld": "9S 9H 9S", "kind": "book"},
            {"ok": True, "reason": None, "kind": "book", "meld": None},
        ),
        (  # two decks hold two 7♥, as the tally counts
            {"meld": "7H 7H 7H", "kind": "book"},
            {"ok": False, "reason": "Only 2 copies of 7♥ are in play.", "kind": None, "meld": None},
        ),
        (
            {"meld": "7H 7H 7H", "kind": "book", "players": 7},
            {"ok": True, "reason": None, "kind": "book", "meld": None},
        ),
        (
            {
                "meld": "7H 7H 7H",
                "kind": "book",
                "players": 4,
                "decks": 2,
                "ruleset": "contract-rummy",
            },
            {"ok": False, "reason": "Only 2 copies of 7♥ are in play.", "kind": None, "meld": None},
        ),
        (
            {"round": 1, "melds": ["7H 7S 7D", "7H 7C 7H"]},
            {"ok": False, "reason": "Only 2 copies of 7♥ are in play.", "kind": None, "meld": None},
        ),
        (
            {"meld": ["AH", "2H", "3H", "4H", "5H"], "kind": "run", "round": 7},
            {"ok": True, "reason": None, "kind": "run", "meld": None},
        ),
        (
            {"meld": "5H 6H 7H 8H", "kind": "run", "round": 8, "ruleset": "nine-rounds"},
            {"ok": False, "reason": "A run needs at least 5 cards.", "kind": "run", "meld": None},
        ),
    ],
)
def test_melds_are_checked_against_the_contract(
    api: Api, body: dict[str, Any], verdict: dict[str, Any]
) -> None:
    assert api.ok("post", "/melds/check", body) == verdict


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"round": 9, "melds": ["9S 9H 9D", "KC KD KH"]}, "round"),
        ({"melds": ["9S 9H 9D", "KC KD KH"]}, "round"),
        ({"round": 1, "melds": "9S 9H 9D"}, "melds"),
        ({"round": 1, "melds": ["9S 9H 9D", 9]}, "melds.1"),
        ({"round": 1, "melds": ["9S 9H QQ"]}, "melds.0"),
        ({"meld": "9S 9H 9D", "kind": "set"}, "kind"),
        ({"meld": "9S 9H 9D"}, "kind"),
        ({"meld": "9S 9H 9D", "kind": "book", "round": 0}, "round"),
    ],
)
def test_a_bad_meld_check_is_refused(api: Api, body: dict[str, Any], field: str) -> None:
    assert_problem(api.call("post", "/melds/check", body), 422, field)
