"""The rules card on melds: books, runs, aces, wild cards and laying down (docs/RULES.md 3, 7-9).

Every sentence is worked out from the set it describes: the lengths from its contracts, the
ace examples at its shortest run, the jokers only where a table it allows plays some.
"""

from __future__ import annotations

from dataclasses import dataclass

from .deal import contract_message
from .messages import N_, Message, msg, nmsg
from .playing_cards import Rank
from .ruleset import AceRule, Contract, RuleSet, TiebreakPolicy

ACES = {
    AceRule.LOW: N_("The ace is low only: %(low)s, never %(high)s."),
    AceRule.HIGH_OR_LOW: N_("The ace is low or high: %(low)s or %(high)s, not both."),
    AceRule.AROUND: N_("Runs may turn the corner: %(around)s."),
}
KING = 13


@dataclass(frozen=True)
class RanksInOrder:
    """Ranks of a run written as the table's language writes them: A-2-3, Q-K-A."""

    ranks: tuple[Rank, ...]

    def label(self, locale: str = "en") -> str:
        """The ranks joined by hyphens, court letters in the table's language."""
        return "-".join(rank.label(locale) for rank in self.ranks)


def contracts(rules: RuleSet) -> tuple[Contract, ...]:
    """Every contract a game of the set can ask for: its rounds' and a tiebreaker round's."""
    played = tuple(spec.contract for spec in rules.rounds)
    if rules.scoring.tiebreak is TiebreakPolicy.SHARED:
        return played
    return (*played, rules.scoring.tiebreaker_round.contract)


def meld_lines(rules: RuleSet) -> tuple[Message, ...]:
    """Books, runs, aces, wild cards and laying down."""
    melds, asked = rules.melds, contracts(rules)
    book_lengths = {c.book_length for c in asked if c.books}
    run_lengths = {c.run_length for c in asked if c.runs}
    lines = []
    if book_lengths:
        lines.append(_length_line(BOOK_LENGTH, book_lengths))
    if run_lengths:
        lines.append(_length_line(RUN_LENGTH, run_lengths))
        lines.append(ace_line(melds.aces, min(run_lengths)))
    jokers = rules.plays_jokers()
    lines.append(
        msg(N_("Jokers are wild in books and runs.")) if jokers else msg(N_("There are no jokers."))
    )
    if melds.wild_twos:
        lines.append(
            msg(
                N_("Every 2 is wild as well; a 2 left in hand counts %(points)s."),
                points=rules.scoring.values["2"],
            )
        )
    if jokers or melds.wild_twos:
        if melds.max_wilds_per_meld is not None:
            lines.append(wild_cap_message(melds.max_wilds_per_meld))
        if melds.wilds_never_outnumber_naturals:
            lines.append(msg(N_("Wild cards may never outnumber the natural cards of a meld.")))
    return (*lines, *_laydown(rules, jokers))


BOOK_LENGTH = {
    False: N_("A book is %(count)s or more cards of one rank, in any suits."),
    True: N_("A book is %(count)s or more cards of one rank, in any suits; some rounds ask more."),
}
RUN_LENGTH = {
    False: N_("A run is %(count)s or more cards of one suit in sequence."),
    True: N_("A run is %(count)s or more cards of one suit in sequence; some rounds ask more."),
}


def _length_line(templates: dict[bool, str], lengths: set[int]) -> Message:
    """The shortest book or run any contract asks for, and whether some ask for longer."""
    return msg(templates[len(lengths) > 1], count=min(lengths))


def ace_line(aces: AceRule, length: int) -> Message:
    """Where the ace stands in a run, shown with runs of the shortest length played."""
    low = RanksInOrder(tuple(Rank(n) for n in range(1, length + 1)))
    high = RanksInOrder((*(Rank(n) for n in range(KING - length + 2, KING + 1)), Rank.ACE))
    before = length // 2
    around = RanksInOrder(
        (
            *(Rank(n) for n in range(KING - before + 1, KING + 1)),
            Rank.ACE,
            *(Rank(n) for n in range(2, length - before + 1)),
        )
    )
    return msg(ACES[aces], low=low, high=high, around=around)


def wild_cap_message(cap: int) -> Message:
    """At most this many wild cards in one meld: on the card and in the round's notes."""
    return nmsg(
        "At most %(count)s wild card in one meld.", "At most %(count)s wild cards in one meld.", cap
    )


def _laydown(rules: RuleSet, jokers: bool) -> list[Message]:
    """Exact or free laydown, touching runs, laying off and the joker swap."""
    melds, lines = rules.melds, []
    if melds.exact_laydown:
        lines.append(msg(N_("Lay down exactly the contract: each meld at its length, no more.")))
        for number, spec in enumerate(rules.rounds, start=1):
            if rules.exact_lifted(spec):
                lines.append(exact_lifted_message(number, spec.deal + 1, spec.contract))
    if not melds.abutting_runs:
        lines.append(msg(N_("Two runs of one suit may not simply continue each other.")))
    if melds.layoff_without_drawing:
        lines.append(msg(N_("Once your contract is down, lay off on any turn, without drawing.")))
    elif not melds.layoff_same_turn:
        lines.append(msg(N_("Lay off from the turn after your contract went down.")))
    if melds.joker_swap and jokers:
        lines.append(
            msg(N_("A joker in a run may be swapped for the real card; in a book it stays."))
        )
    return lines


def exact_lifted_message(number: int, cards: int, contract: Contract) -> Message:
    """Say that a round's exact lengths are lifted, and why (docs/RULES.md 7)."""
    return msg(
        N_(
            "Round %(number)s: all %(cards)s cards go down at once, which %(contract)s of "
            "exact length cannot hold, so one meld may be longer."
        ),
        number=number,
        cards=cards,
        contract=contract_message(contract),
    )
