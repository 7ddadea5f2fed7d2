"""A blank score sheet to print for any rule set: what each round asks, a box per allowed buy.

The paper sheet the table fills in by hand (docs/RULES.md 3, 4 and 6 say what it shows): each
round's contract, deal, decks and dealer for the chosen number of players, as many buy boxes as
a player may buy in that round, and a points cell per player and round.
"""

from __future__ import annotations

from dataclasses import dataclass

from .deal import deal_for
from .errors import RuleError
from .ruleset import Contract, DealPasses, RuleSet


@dataclass(frozen=True)
class SheetRound:
    """One round's column: what the table needs to know before the deal."""

    number: int
    contract: Contract
    deal: int
    decks: int
    jokers: int
    total_cards: int
    final_discard: bool
    buy_boxes: int  # boxes to tick for each player; 0 where no buys are allowed or counted
    dealer: int | None  # the player row (0-based) who deals, when the deal passes left


@dataclass(frozen=True)
class BlankSheet:
    """The rounds of a rule set laid out for a number of players."""

    players: int
    rounds: tuple[SheetRound, ...]
    unlimited_buys: bool  # some round has no cap: the cell takes tally marks instead of boxes


def blank_sheet(rules: RuleSet, players: int) -> BlankSheet:
    """The sheet for this many players, player 1 dealing first; RuleError if they cannot play."""
    rounds = []
    for number in range(1, len(rules.rounds) + 1):
        setup = deal_for(
            rules, players, number, first_dealer=0, previous_winners=(None,) * (number - 1)
        )
        rounds.append(
            SheetRound(
                number=number,
                contract=setup.contract,
                deal=setup.deal,
                decks=setup.decks,
                jokers=setup.jokers,
                total_cards=setup.total_cards,
                final_discard=setup.final_discard,
                buy_boxes=_boxes(rules, setup.buy_cap),
                dealer=setup.dealer if rules.deal_passes is DealPasses.LEFT else None,
            )
        )
    unlimited = any(rules.buy_cap(number) is None for number in range(1, len(rules.rounds) + 1))
    return BlankSheet(players, tuple(rounds), unlimited and rules.buys.cap_per_game is None)


def player_counts(rules: RuleSet) -> tuple[int, ...]:
    """The table sizes this rule set has decks for."""
    counts = []
    for players in range(rules.min_players, rules.max_players + 1):
        try:
            deal_for(rules, players, 1, first_dealer=0)
        except RuleError:
            continue
        counts.append(players)
    return tuple(counts)


def _boxes(rules: RuleSet, round_cap: int | None) -> int:
    """A box per buy the round allows, the game's cap where it is lower or the round has none."""
    caps = [cap for cap in (round_cap, rules.buys.cap_per_game) if cap is not None]
    return min(caps) if caps else 0
