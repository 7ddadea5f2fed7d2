"""Spreadsheet exports: one game as rounds × players, a table as one row per game and player.

A table's columns only ever grow at the end, so a reader of the older columns keeps working.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence

from ..rules.game_facts import RoundFacts
from ..rules.game_state import GameState
from ..rules.scoring import rounds_gone_out
from .party_record import PlayedAt

TABLE_COLUMNS = (
    "game",
    "date",
    "rule_set",
    "finished",
    "seat",
    "player",
    "total",
    "rounds_out",
    "buys",
    "winner",
    "evening",  # the card party the game was one table of (its number); empty for none
    "evening_round",
    "evening_table",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet would run these as formulas


def cell(value: object) -> str:
    """A value safe to open in a spreadsheet: text that looks like a formula is quoted."""
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) and not _is_number(text) else text


def game_csv(state: GameState) -> str:
    """A game's sheet: a row per round with each player's points, then the totals."""
    rows: list[Sequence[object]] = [["round", *state.names]]
    rows += [[number, *o.scores] for number, o in enumerate(state.outcomes, start=1)]
    regular = len(state.rules.rounds)
    for number in range(1, len(state.tiebreakers) + 1):
        cells = _tiebreak_cells(state.players, state.rounds[regular + number])
        rows.append([f"tiebreaker {number}", *cells])
    totals = state.running[-1] if state.running else (0,) * state.players
    rows.append(["total", *totals])
    rows.append(
        ["winner", *("yes" if s in state.standings.winners else "" for s in range(state.players))]
    )
    return _write(rows)


def table_csv(states: Iterable[GameState], evenings: Mapping[int, PlayedAt]) -> str:
    """Every game of a table, one row per game and player, for a spreadsheet's pivot table;
    `evenings` says which games were a card party's, by game id."""
    rows: list[Sequence[object]] = [TABLE_COLUMNS]
    for state in states:
        at = evenings.get(state.facts.id)
        evening = ["", "", ""] if at is None else [at.party_id, at.round, at.table_number]
        totals = state.running[-1] if state.running else (0,) * state.players
        out = rounds_gone_out(state.outcomes, state.players)
        for seat, name in enumerate(state.names):
            buys = sum(state.buys_in(number)[seat] for number in state.rounds)
            rows.append(
                [
                    state.facts.id,
                    state.facts.created_at.date().isoformat(),
                    state.rules.key,
                    "yes" if state.finished else "no",
                    seat + 1,
                    name,
                    totals[seat],
                    out[seat],
                    buys,
                    "yes" if seat in state.standings.winners else "no",
                    *evening,
                ]
            )
    return _write(rows)


def _tiebreak_cells(players: int, played: RoundFacts) -> list[str]:
    """A tiebreaker's row as the sheet shows it: "out" for who went out, the points each other
    player of the tie held (also when someone went out), nothing for who did not play it."""
    cells = [""] * players
    for result in played.results:
        cells[result.seat] = "out" if result.went_out else str(result.points)
    return cells


def _write(rows: Iterable[Sequence[object]]) -> str:
    """Rows as CSV text, every cell made safe."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerows([cell(value) for value in row] for row in rows)
    return buffer.getvalue()


def _is_number(text: str) -> bool:
    """A plain negative number is data, not a formula."""
    return text.lstrip("-").isdigit()
