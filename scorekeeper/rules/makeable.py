"""Whether the cards the decks hold can make a contract at all (docs/RULES.md 9).

Checked at every table a game may be started at: each table size the rule set allows, with
each deck rule that size may choose, so the fewest decks and jokers must suffice. A book
takes the copies of one rank and the wild cards a meld may hold; a run takes one card of
each rank of its suit (13 at most, a bound); the whole contract takes no more cards than
the decks hold, and without wild cards no more runs than the suits give.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .bounds import MIN_PLAYERS, most_players
from .deal import contract_message
from .messages import N_, Message, msg, nmsg
from .ruleset import RANKS, SUITS, AceRule, Contract, DeckRule, RuleSet


@dataclass(frozen=True)
class Table:
    """One table a game may be played at: its size and the deck rule it plays with."""

    players: int
    rule: DeckRule


def table_sizes(rules: RuleSet, stored: bool = False) -> range:
    """Player counts the set allows, clipped to the bounds so a bad bound is reported once."""
    return range(
        max(rules.min_players, MIN_PLAYERS), min(rules.max_players, most_players(stored)) + 1
    )


def tables(rules: RuleSet, stored: bool = False) -> Iterator[Table]:
    """Every table size the set allows with every deck rule it may choose."""
    for players in table_sizes(rules, stored):
        for rule in rules.decks:
            if rule.min_players <= players <= rule.max_players and rule.decks >= 1:
                yield Table(players, rule)


def contract_problems(
    rules: RuleSet, contract: Contract, stored: bool = False
) -> Iterator[tuple[str, Message]]:
    """What the decks cannot make of this contract, by the contract's field, once each."""
    found: dict[str, Message] = {}
    for table in tables(rules, stored):
        for field, problem in _problems(rules, contract, table):
            found.setdefault(field, problem)
    yield from found.items()


def _problems(rules: RuleSet, contract: Contract, table: Table) -> Iterator[tuple[str, Message]]:
    """What one table's decks cannot make of the contract: a book, the cards, the runs."""
    decks, wilds = table.rule.decks, _wilds_per_meld(rules, table)
    longest = SUITS * decks + wilds
    if contract.books and contract.book_length > longest:
        message = N_("%(players)s players with %(decks)s make a book of at most %(most)s cards.")
        yield "book_length", msg(message, players=table.players, decks=_decks(decks), most=longest)
    if contract.cards_needed > rules.cards_in_play(table.rule, table.players):
        yield "", _too_many_cards(rules, contract, table)
    most_runs = SUITS * _runs_per_suit(rules, decks, contract.run_length)
    if not wilds and contract.runs > most_runs:
        message = N_(
            "Without wild cards, the suits of %(decks)s give at most %(most)s runs of %(length)s."
        )
        yield "runs", msg(message, decks=_decks(decks), most=most_runs, length=contract.run_length)


def _too_many_cards(rules: RuleSet, contract: Contract, table: Table) -> Message:
    """Say that the contract takes more cards than the decks hold, with both numbers."""
    jokers = rules.jokers_in_play(table.rule, table.players)
    return msg(
        N_("%(contract)s takes %(needed)s cards; %(decks)s and %(jokers)s hold %(available)s."),
        contract=contract_message(contract, lengths=True),
        needed=contract.cards_needed,
        decks=_decks(table.rule.decks),
        jokers=nmsg("%(count)s joker", "%(count)s jokers", jokers),
        available=rules.cards_in_play(table.rule, table.players),
    )


def _decks(count: int) -> Message:
    return nmsg("%(count)s deck", "%(count)s decks", count)


def _wilds_per_meld(rules: RuleSet, table: Table) -> int:
    """The wild cards one meld may hold: the jokers and wild 2s in play, as the rules allow."""
    melds, naturals = rules.melds, SUITS * table.rule.decks
    wilds = rules.jokers_in_play(table.rule, table.players) + (naturals if melds.wild_twos else 0)
    if melds.max_wilds_per_meld is not None:
        wilds = min(wilds, melds.max_wilds_per_meld)
    return min(wilds, naturals) if melds.wilds_never_outnumber_naturals else wilds


def _runs_per_suit(rules: RuleSet, decks: int, length: int) -> int:
    """Runs of one length a suit gives: each deck's A to K cut into pieces, or, where the ace
    may also stand high or turn the corner, the suit's cards shared out (an upper bound)."""
    if length < 1:
        return 0
    if rules.melds.aces is AceRule.LOW:
        return decks * (RANKS // length)
    return decks * RANKS // length
