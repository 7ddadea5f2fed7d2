"""The bounds of every number a rule set carries (docs/RULES.md 9, "Bounds").

Each is one a real table could use, and nothing the app shows grows past it: the round
screen draws a card per card of the contract, the sheet a row per round. The API's document
states the same bounds (api/openapi.py reads them from here).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from .messages import N_, Message, msg
from .ruleset import (
    RANKS,
    SUITS,
    BuyRules,
    Contract,
    DeckRule,
    MeldRules,
    RoundSpec,
    RuleSet,
    ScoringRules,
)

MIN_ROUNDS, MAX_ROUNDS = 6, 12  # a game runs 6 to 12 rounds, as the published variants do
MIN_PLAYERS, MAX_PLAYERS = 2, 8  # the sources: 3 to 8, and 2 may play
# Copies stored while 1 to 20 rounds and up to 12 players were allowed still load and play,
# and so do texts of up to 80 characters and values the editor took before values had a top.
STORED_MIN_ROUNDS, STORED_MAX_ROUNDS, STORED_MAX_PLAYERS = 1, 20, 12
STORED_TEXT_LENGTH, STORED_MAX_VALUE = 80, 1000
MAX_DECKS = 4
JOKERS_PER_DECK = 4
MAX_MELDS = 6
MIN_MELD_LENGTH = 3
MAX_RUN_LENGTH = RANKS  # a run holds each rank of its suit once, ace around or not
# The most copies of one rank with every wild: 4 decks' naturals, their jokers and their 2s.
MAX_BOOK_LENGTH = SUITS * MAX_DECKS * 2 + JOKERS_PER_DECK * MAX_DECKS
MAX_DEAL = 20
MAX_VALUE = 100
MAX_DECK_RULES = 6
NAME_LENGTH, BUY_CALL_LENGTH, KEY_LENGTH = 80, 30, 40
RANGE = N_("Must be a whole number from %(low)s to %(high)s.")
TEXT = N_("Use at most %(high)s characters.")


@dataclass(frozen=True)
class Bound:
    """The lowest and highest a setting may be: its value, or its length for a list or text."""

    low: int
    high: int
    template: str = RANGE


NUMBERS: dict[tuple[type, str], Bound] = {
    (RuleSet, "rounds"): Bound(MIN_ROUNDS, MAX_ROUNDS, N_("Play %(low)s to %(high)s rounds.")),
    (RuleSet, "decks"): Bound(1, MAX_DECK_RULES, N_("Give %(low)s to %(high)s deck rules.")),
    (RuleSet, "min_players"): Bound(MIN_PLAYERS, MAX_PLAYERS),
    (RuleSet, "max_players"): Bound(MIN_PLAYERS, MAX_PLAYERS),
    (RuleSet, "recommended_min_players"): Bound(MIN_PLAYERS, MAX_PLAYERS),
    # Texts: a blank one is refused in its own words (validation.py).
    (RuleSet, "key"): Bound(0, KEY_LENGTH, TEXT),
    (RuleSet, "name"): Bound(0, NAME_LENGTH, TEXT),
    (RuleSet, "buy_call"): Bound(0, BUY_CALL_LENGTH, TEXT),
    (RoundSpec, "deal"): Bound(1, MAX_DEAL, N_("Deal %(low)s to %(high)s cards.")),
    (RoundSpec, "buy_cap"): Bound(0, 10),
    (Contract, "books"): Bound(0, MAX_MELDS),
    (Contract, "runs"): Bound(0, MAX_MELDS),
    (Contract, "book_length"): Bound(MIN_MELD_LENGTH, MAX_BOOK_LENGTH),
    (Contract, "run_length"): Bound(
        MIN_MELD_LENGTH, MAX_RUN_LENGTH, N_("A run holds %(low)s to %(high)s cards of one suit.")
    ),
    (DeckRule, "min_players"): Bound(1, MAX_PLAYERS),
    (DeckRule, "max_players"): Bound(1, MAX_PLAYERS),
    (DeckRule, "decks"): Bound(1, MAX_DECKS),
    (DeckRule, "jokers_base"): Bound(-JOKERS_PER_DECK * MAX_DECKS, JOKERS_PER_DECK * MAX_DECKS),
    (DeckRule, "jokers_per_player"): Bound(-JOKERS_PER_DECK, JOKERS_PER_DECK),
    (BuyRules, "cap_per_round"): Bound(0, 10),
    (BuyRules, "cap_per_game"): Bound(0, 30),
    (BuyRules, "penalty_cards"): Bound(0, 3),
    (MeldRules, "max_wilds_per_meld"): Bound(1, MAX_BOOK_LENGTH),
    (ScoringRules, "values"): Bound(0, MAX_VALUE),  # each card's value
    (ScoringRules, "cut_bonus"): Bound(0, MAX_VALUE),
}
# A stored copy keeps the round count, table sizes, texts and values allowed when it was made:
# none of them grows what a page draws, so a family's old set never stops opening.
STORED = {
    **NUMBERS,
    (RuleSet, "rounds"): Bound(
        STORED_MIN_ROUNDS, STORED_MAX_ROUNDS, NUMBERS[RuleSet, "rounds"].template
    ),
    **{
        (kind, name): Bound(NUMBERS[kind, name].low, STORED_MAX_PLAYERS)
        for kind, name in NUMBERS
        if name in ("min_players", "max_players", "recommended_min_players")
    },
    (RuleSet, "buy_call"): Bound(0, STORED_TEXT_LENGTH, TEXT),
    (ScoringRules, "values"): Bound(0, STORED_MAX_VALUE),
    (ScoringRules, "cut_bonus"): Bound(0, STORED_MAX_VALUE),
}


def most_players(stored: bool) -> int:
    """The largest table a rule set may allow: 8, or 12 for a copy stored while that was allowed."""
    return STORED_MAX_PLAYERS if stored else MAX_PLAYERS


def out_of_bounds(rules: RuleSet, stored: bool = False) -> Iterator[tuple[str, Message]]:
    """Each setting outside its bound, by field path, with the bound named."""
    bounds = STORED if stored else NUMBERS
    yield from _walk(rules, "", bounds)


def _walk(
    value: object, path: str, bounds: dict[tuple[type, str], Bound]
) -> Iterator[tuple[str, Message]]:
    """The settings of a rule set's parts, recursively: each checked against its bound."""
    if isinstance(value, tuple):
        for index, item in enumerate(value):
            yield from _walk(item, _join(path, index), bounds)
        return
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return
    for part in dataclasses.fields(value):
        setting, where = getattr(value, part.name), _join(path, part.name)
        bound = bounds.get((type(value), part.name))
        if bound is not None:
            yield from _outside(setting, where, bound)
        yield from _walk(setting, where, bounds)


def _outside(setting: object, path: str, bound: Bound) -> Iterator[tuple[str, Message]]:
    """A problem when the setting (a number, each value of a table, a list's or text's length)
    lies outside the bound; None ("no limit") always lies inside."""
    if isinstance(setting, dict):
        for key, item in setting.items():
            yield from _outside(item, _join(path, key), bound)
        return
    if isinstance(setting, tuple | str):
        size: object = len(setting)
    else:
        size = setting
    if isinstance(size, int) and not isinstance(size, bool) and not bound.low <= size <= bound.high:
        yield path, msg(bound.template, low=bound.low, high=bound.high)


def _join(path: str, name: object) -> str:
    return f"{path}.{name}" if path else str(name)
