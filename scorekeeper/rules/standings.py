"""Final standings: lowest total wins, ties go to the tiebreak (docs/RULES.md section 6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RuleError
from .messages import N_, Message, msg, nmsg
from .ruleset import RuleSet, TiebreakPolicy
from .scoring import RoundOutcome, rounds_gone_out, totals
from .tiebreak import TiebreakerOutcome, Tiers, settle_tie, tiers_by

__all__ = [
    "StandingRow",
    "Standings",
    "TiebreakerOutcome",
    "game_over",
    "provisional_standings",
    "standings",
]


@dataclass(frozen=True)
class StandingRow:
    """One seat's line in the standings; tied seats share a place until the tie is broken."""

    seat: int
    name: str
    total: int
    rounds_out: int
    place: int


@dataclass(frozen=True)
class Standings:
    """Rows best first, the winners once decided, who must play a tiebreaker now, and why."""

    rows: tuple[StandingRow, ...]
    winners: tuple[int, ...]
    needs_tiebreaker: tuple[int, ...]
    explanation: tuple[Message, ...]


@dataclass(frozen=True)
class _Sheet:
    """The score sheet the standings are read from: names, totals and rounds gone out by seat."""

    names: tuple[str, ...]
    totals: tuple[int, ...]
    rounds_out: tuple[int, ...]

    def by_total(self) -> Tiers:
        """Seats grouped by total, lowest first: the lowest total wins."""
        return tiers_by(range(len(self.names)), self.totals.__getitem__)

    def rows(self, tiers: Tiers) -> tuple[StandingRow, ...]:
        """Rows in tier order; a tier shares the place after everyone above it."""
        rows: list[StandingRow] = []
        for tier in tiers:
            place = len(rows) + 1
            rows += [
                StandingRow(seat, self.names[seat], self.totals[seat], self.rounds_out[seat], place)
                for seat in tier
            ]
        return tuple(rows)


def game_over(rules: RuleSet, outcomes: Sequence[RoundOutcome]) -> bool:
    """The game is over once every round of the rule set has been played (seven, or nine)."""
    return len(outcomes) >= len(rules.rounds)


def provisional_standings(names: Sequence[str], outcomes: Sequence[RoundOutcome]) -> Standings:
    """Standings mid-game: the lowest total leads and nothing is decided yet."""
    sheet = _sheet(names, outcomes)
    tiers = sheet.by_total()
    if not outcomes or not tiers:
        return Standings(sheet.rows(tiers), (), (), ())
    leaders = tiers[0]
    lead = nmsg(
        "%(names)s leads with %(total)s.",
        "%(names)s lead with %(total)s.",
        len(leaders),
        names=tuple(sheet.names[seat] for seat in leaders),
        total=sheet.totals[leaders[0]],
    )
    return Standings(sheet.rows(tiers), (), (), (lead,))


def standings(
    rules: RuleSet,
    names: Sequence[str],
    outcomes: Sequence[RoundOutcome],
    tiebreakers: Sequence[TiebreakerOutcome] = (),
) -> Standings:
    """Lowest total wins; a tie goes to the rule set's tiebreak; mid-game, who leads."""
    _check_rounds(rules, outcomes, tiebreakers)
    if not game_over(rules, outcomes):
        return provisional_standings(names, outcomes)
    if not names:
        raise RuleError(msg(N_("A game needs players.")), field="players")
    sheet = _sheet(names, outcomes)
    by_total = sheet.by_total()
    leaders = by_total[0]
    head, explanation = settle_tie(
        rules, sheet.names, sheet.rounds_out, leaders, tiebreakers, sheet.totals[leaders[0]]
    )
    contenders = head[0]
    decided = len(contenders) == 1 or rules.scoring.tiebreak is TiebreakPolicy.SHARED
    return Standings(
        rows=sheet.rows((*head, *by_total[1:])),
        winners=contenders if decided else (),
        needs_tiebreaker=() if decided else contenders,
        explanation=explanation,
    )


def _check_rounds(
    rules: RuleSet, outcomes: Sequence[RoundOutcome], tiebreakers: Sequence[TiebreakerOutcome]
) -> None:
    """A game has the rule set's rounds, and tiebreaker rounds come only after the last one."""
    if len(outcomes) > len(rules.rounds):
        raise RuleError(
            nmsg(
                "This game has %(count)s round.",
                "This game has %(count)s rounds.",
                len(rules.rounds),
            ),
            field="rounds",
        )
    if tiebreakers and not game_over(rules, outcomes):
        raise RuleError(
            msg(N_("A tiebreaker round comes only after the last round.")), field="tiebreakers"
        )


def _sheet(names: Sequence[str], outcomes: Sequence[RoundOutcome]) -> _Sheet:
    """Read each seat's total and rounds gone out from the scored rounds."""
    players = len(names)
    return _Sheet(tuple(names), totals(outcomes, players), rounds_gone_out(outcomes, players))
