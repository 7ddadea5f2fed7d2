"""Tonight's tally: the podium and the highlights from the evening's scored rounds."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scorekeeper.rules.party_standings import PartyRow
from scorekeeper.rules.party_tally import (
    Comeback,
    Highlight,
    TallyGame,
    TallyRound,
    biggest_comeback,
    tally,
)


def scored(
    scores: tuple[int, ...], out: int | None, buys: tuple[int, ...] = (), runs: int = 0
) -> TallyRound:
    """A scored round; no buys unless given."""
    return TallyRound(scores, out, buys or (0,) * len(scores), runs)


def row(person: str, place: int, points: str = "0.0") -> PartyRow:
    """A standings line with only what the podium reads."""
    return PartyRow(person, Decimal(points), 0, 0, 1, place)


ABC = ("a", "b", "c")
DEF = ("d", "e", "f")


@pytest.mark.parametrize(
    ("games", "went_out", "buys", "run_outs"),
    [
        pytest.param([], None, None, 0, id="no game: no highlight, no run-out"),
        pytest.param(
            [TallyGame(1, 1, ABC, (scored((0, 5, 9), 0), scored((4, 0, 3), 1, (1, 0, 2), 1)))],
            Highlight(("a", "b"), 1),
            Highlight(("c",), 2),
            1,
            id="a tie shares the highlight",
        ),
        pytest.param(
            [
                TallyGame(1, 1, ABC, (scored((0, 5, 9), 0, (0, 3, 0), 2),)),
                TallyGame(1, 2, DEF, (scored((5, 0, 9), 1, (1, 0, 0)),)),
                TallyGame(2, 1, ("a", "e", "c"), (scored((0, 5, 5), 0, (0, 1, 0), 1),)),
            ],
            Highlight(("a",), 2),
            Highlight(("b",), 3),
            3,
            id="counts add up across tables and rounds of the evening",
        ),
        pytest.param(
            [TallyGame(1, 1, ABC, (scored((10, 20, 30), None, runs=3),))],
            None,
            None,
            3,
            id="a round the stock ended: nobody went out",
        ),
    ],
)
def test_highlights_count_every_scored_round(
    games: list[TallyGame], went_out: Highlight | None, buys: Highlight | None, run_outs: int
) -> None:
    result = tally((), games)
    assert (result.went_out, result.buys, result.run_outs) == (went_out, buys, run_outs)


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        pytest.param(
            [TallyGame(1, 1, ABC, (scored((0, 5, 9), 0), scored((0, 5, 9), 0)))],
            None,
            id="only the leader went out: no comeback",
        ),
        pytest.param(
            [TallyGame(1, 1, ABC, (scored((0, 50, 9), 0), scored((10, 0, 3), 1)))],
            Comeback("b", 50, 1, 1, 2),
            id="out 50 behind the lowest total",
        ),
        pytest.param(
            [
                TallyGame(1, 1, ABC, (scored((0, 50, 9), 0), scored((10, 0, 3), 1))),
                TallyGame(2, 2, DEF, (scored((0, 5, 80), 0), scored((5, 5, 0), 2))),
            ],
            Comeback("f", 80, 2, 2, 2),
            id="the biggest deficit of the evening",
        ),
        pytest.param(
            [
                TallyGame(1, 1, ABC, (scored((0, 30, 9), 0), scored((10, 0, 3), 1))),
                TallyGame(1, 2, DEF, (scored((0, 30, 5), 0), scored((5, 0, 0), 1))),
            ],
            Comeback("b", 30, 1, 1, 2),
            id="a tie keeps the earlier table",
        ),
        pytest.param(
            [TallyGame(1, 1, ABC, (scored((0, 40, 9), 0), scored((20, 60, 3), None)))],
            None,
            id="a round the stock ended is nobody's comeback",
        ),
    ],
)
def test_the_comeback_is_the_round_gone_out_from_furthest_behind(
    games: list[TallyGame], expected: Comeback | None
) -> None:
    assert biggest_comeback(games) == expected


def test_the_podium_keeps_shared_places_and_stops_after_third() -> None:
    standings = (row("a", 1, "20.0"), row("b", 2), row("c", 2), row("d", 4), row("e", 5))
    assert [r.person for r in tally(standings, ()).podium] == ["a", "b", "c"]
    shared = (row("a", 1), row("b", 1), row("c", 3), row("d", 3), row("e", 5))
    assert [r.person for r in tally(shared, ()).podium] == ["a", "b", "c", "d"]
