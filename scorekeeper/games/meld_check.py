"""Settling a dispute at the table: is this meld, or this laydown, good under this game's rules?"""

from __future__ import annotations

from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.laydown import (
    BOOK,
    MeldCheck,
    check_book,
    check_contract,
    check_run,
    check_tiebreaker_contract,
)
from ..rules.messages import N_, msg
from ..rules.playing_cards import Card, parse_cards
from ..rules.round_end import setup_for
from ..rules.tally import in_play_refusal

LAYDOWN, RUN = "laydown", "run"
KINDS = (LAYDOWN, BOOK, RUN)
SEPARATOR = "|"  # between the melds of a laydown, as the checker writes them


def read_melds(text: str) -> list[list[Card]]:
    """Melds written as "7H 7S JK | 4C 5C 6C 7C"; a bad card is refused by name."""
    return [parse_cards(part) for part in text.split(SEPARATOR) if part.strip()]


def check_at_table(state: GameState, kind: str, text: str) -> MeldCheck:
    """One book or run at this round's lengths, or a laydown against this round's contract;
    no card more often than this table's decks hold it, as the tally counts (RULES.md 2)."""
    try:
        melds = read_melds(text)
    except RuleError as error:
        return MeldCheck(False, error.message)
    if not melds:
        return MeldCheck(False, msg(N_("Tap the cards of a meld first.")))
    setup = state.current.setup if state.current is not None else setup_for(state, 1)
    refusal = in_play_refusal([card for meld in melds for card in meld], setup.decks, setup.jokers)
    if refusal is not None:
        return MeldCheck(False, refusal)
    rules, current = state.rules, state.current
    spec = (
        rules.scoring.tiebreaker_round
        if current is None or current.is_tiebreaker
        else rules.round_spec(current.number)
    )
    exact = rules.melds.exact_laydown
    if kind == LAYDOWN:
        if current is None or current.is_tiebreaker:
            return check_tiebreaker_contract(melds, rules)
        return check_contract(melds, rules, current.number)
    if len(melds) > 1:
        return MeldCheck(False, msg(N_("Check one meld at a time, or check the whole laydown.")))
    if kind == BOOK:
        return check_book(melds[0], rules, spec.contract.book_length, exact)
    return check_run(melds[0], rules, spec.contract.run_length, exact)
