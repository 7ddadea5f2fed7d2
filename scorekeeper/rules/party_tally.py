"""Tonight's tally: the podium and the highlights only the evening's own facts give (RULES.md 12).

Pure functions over each game's scored rounds; nothing here is stored. Tiebreaker rounds do
not count: they are played by some of a table only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .party_standings import PartyRow

PODIUM = 3  # places on the podium


@dataclass(frozen=True)
class TallyRound:
    """One scored round of a game: each seat's score and buys, who went out, stock run-outs."""

    scores: tuple[int, ...]
    went_out: int | None  # a seat; None when the stock ended the round
    buys: tuple[int, ...]
    run_outs: int


@dataclass(frozen=True)
class TallyGame:
    """One game of the evening for the tally: its round and table, people by seat, rounds."""

    round: int
    table: int
    people: tuple[str, ...]
    rounds: tuple[TallyRound, ...]


@dataclass(frozen=True)
class Highlight:
    """Who led one of the evening's figures (tied people share it) and the figure."""

    people: tuple[str, ...]
    count: int


@dataclass(frozen=True)
class Comeback:
    """A round won (gone out) from furthest behind the table's leader: who, how far, where."""

    person: str
    deficit: int
    round: int  # the round of the evening
    table: int
    game_round: int  # the game's own round


@dataclass(frozen=True)
class Tally:
    """The evening summed up: the podium (places 1 to 3, shared places kept) and highlights."""

    podium: tuple[PartyRow, ...]
    went_out: Highlight | None
    buys: Highlight | None
    comeback: Comeback | None
    run_outs: int


def tally(standings: Sequence[PartyRow], games: Iterable[TallyGame]) -> Tally:
    """The podium from the standings; the highlights from every scored round of the evening."""
    played = tuple(games)
    went_out, buys = Counter[str](), Counter[str]()
    for game in played:
        for scored in game.rounds:
            if scored.went_out is not None:
                went_out[game.people[scored.went_out]] += 1
            buys.update({p: n for p, n in zip(game.people, scored.buys, strict=True) if n})
    return Tally(
        podium=tuple(row for row in standings if row.place <= PODIUM),
        went_out=most(went_out),
        buys=most(buys),
        comeback=biggest_comeback(played),
        run_outs=sum(scored.run_outs for game in played for scored in game.rounds),
    )


def most(counts: Counter[str]) -> Highlight | None:
    """Whoever has the most (all of them on a tie, by key); None when nobody has any."""
    top = max(counts.values(), default=0)
    if top <= 0:
        return None
    return Highlight(tuple(sorted(p for p, n in counts.items() if n == top)), top)


def biggest_comeback(games: Iterable[TallyGame]) -> Comeback | None:
    """The round gone out from furthest behind the lowest total before it; the earliest such
    round of the evening on a tie; None when nobody went out from behind."""
    best: Comeback | None = None
    for game in games:
        totals = [0] * len(game.people)
        for number, scored in enumerate(game.rounds, start=1):
            seat = scored.went_out
            if seat is not None:
                deficit = totals[seat] - min(totals)
                if deficit > 0 and (best is None or deficit > best.deficit):
                    person = game.people[seat]
                    best = Comeback(person, deficit, game.round, game.table, number)
            totals = [t + s for t, s in zip(totals, scored.scores, strict=True)]
    return best
