"""Every number a rule set carries has a bound, and impossible sets are refused (RULES.md 9)."""

from __future__ import annotations

import copy
import dataclasses
import typing
from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.rules.bounds import NUMBERS, Bound
from scorekeeper.rules.errors import RuleSetInvalid
from scorekeeper.rules.presets import CONTRACT_RUMMY, MAY_I, NO_JOKERS, UNLIMITED_BUYS
from scorekeeper.rules.ruleset import Contract, DeckRule, RoundSpec, RuleSet
from scorekeeper.rules.ruleset_json import ruleset_from_dict, ruleset_to_dict
from scorekeeper.rules.validation import validate_ruleset

from .test_validation import with_contract, with_deck, with_round

HUGE = 999_999_999
OPEN = UNLIMITED_BUYS  # no cap: any contract the decks hold is within reach
# Each bounded setting of May I? with the values just outside its bound.
OUTSIDE = [
    ("rounds.0.contract.books", -1, 7),
    ("rounds.0.contract.runs", -1, 7),
    ("rounds.0.contract.book_length", 2, 49),
    ("rounds.0.contract.run_length", 2, 14),
    ("rounds.0.deal", 0, 21),
    ("rounds.0.buy_cap", -1, 11),
    ("scoring.tiebreaker_round.deal", 0, 21),
    ("scoring.tiebreaker_round.contract.run_length", 2, 14),
    ("decks.0.decks", 0, 5),
    ("decks.0.jokers_base", -17, 17),
    ("decks.0.jokers_per_player", -5, 5),
    ("decks.1.min_players", 0, 9),
    ("decks.1.max_players", 0, 9),
    ("buys.cap_per_round", -1, 11),
    ("buys.cap_per_game", -1, 31),
    ("buys.penalty_cards", -1, 4),
    ("melds.max_wilds_per_meld", 0, 49),
    ("scoring.values.JK", -1, 101),
    ("scoring.values.7", -1, 101),
    ("scoring.cut_bonus", -1, 101),
    ("min_players", 1, 9),
    ("max_players", 1, 9),
    ("recommended_min_players", 1, 9),
]


def set_path(data: Any, path: str, value: object) -> None:
    """Set `value` at a dotted path; numeric parts index lists."""
    *parents, last = path.split(".")
    for part in parents:
        data = data[int(part)] if isinstance(data, list) else data[part]
    data[int(last) if isinstance(data, list) else last] = value


def refused(data: dict[str, Any]) -> dict[str, list[str]]:
    """The problems the JSON reader refuses the data with, in English."""
    with pytest.raises(RuleSetInvalid) as refusal:
        ruleset_from_dict(data)
    return {path: [m.render() for m in ms] for path, ms in refusal.value.errors.items()}


def may_i(path: str, value: object) -> dict[str, Any]:
    data = copy.deepcopy(ruleset_to_dict(MAY_I))
    set_path(data, path, value)
    return data


@pytest.mark.parametrize(("path", "low", "high"), OUTSIDE)
def test_a_number_just_outside_its_bound_is_refused_at_its_field(
    path: str, low: int, high: int
) -> None:
    for value in (low, high, HUGE, -HUGE):
        problems = refused(may_i(path, value))
        assert path in problems, (value, problems)


@pytest.mark.parametrize(
    ("path", "told"),
    [
        ("rounds.0.contract.run_length", "A run holds 3 to 13 cards of one suit."),
        ("rounds.0.deal", "Deal 1 to 20 cards."),
        ("buys.cap_per_game", "Must be a whole number from 0 to 30."),
        ("scoring.values.K", "Must be a whole number from 0 to 100."),
    ],
)
def test_the_refusal_names_the_bound(path: str, told: str) -> None:
    assert refused(may_i(path, HUGE))[path] == [told]


def test_a_run_of_999999999_cards_with_no_buy_cap_is_refused() -> None:
    data = may_i("rounds.0.contract.run_length", HUGE)
    data["buys"]["cap_per_round"] = None
    assert set(refused(data)) == {"rounds.0.contract.run_length"}


@pytest.mark.parametrize(
    ("path", "count", "bound"),
    [("rounds", 13, "12"), ("decks", 7, "6")],
)
def test_a_list_longer_than_its_bound_is_refused(path: str, count: int, bound: str) -> None:
    data = copy.deepcopy(ruleset_to_dict(MAY_I))
    data[path] = (data[path] * count)[:count]
    assert bound in refused(data)[path][0]


@pytest.mark.parametrize(("path", "length"), [("name", 80), ("buy_call", 30), ("key", 40)])
def test_a_text_longer_than_its_bound_is_refused(path: str, length: int) -> None:
    assert ruleset_from_dict(may_i(path, "a" * length))
    assert refused(may_i(path, "a" * (length + 1)))[path] == [f"Use at most {length} characters."]


@pytest.mark.parametrize("text", ["May\u202eI?", "May\x1bI", "\u200b", "May\nI?"])
@pytest.mark.parametrize("path", ["name", "buy_call"])
def test_invisible_characters_in_a_rule_sets_words_are_refused(path: str, text: str) -> None:
    assert path in refused(may_i(path, text))


def settings_of(cls: type) -> typing.Iterator[tuple[type, str, Any]]:
    """Every setting of a rule set's parts, with its type, recursively."""
    for part in dataclasses.fields(cls):
        hint = typing.get_type_hints(cls)[part.name]
        yield cls, part.name, hint
        for inner in (hint, *typing.get_args(hint)):
            if dataclasses.is_dataclass(inner):
                yield from settings_of(inner)  # type: ignore[arg-type]


def test_every_number_list_and_text_of_a_rule_set_has_a_bound() -> None:
    unbounded = [
        (cls.__name__, name)
        for cls, name, hint in settings_of(RuleSet)
        if _carries_a_size(hint) and (cls, name) not in NUMBERS
    ]
    assert unbounded == []


def _carries_a_size(hint: Any) -> bool:
    """Whether a setting is a number, a text, a list or a table: something that can grow."""
    kinds = {hint, *typing.get_args(hint)}
    return bool(kinds & {int, str}) or typing.get_origin(hint) in (tuple, dict)


def test_the_bounds_hold_for_every_preset() -> None:
    for bound in NUMBERS.values():
        assert isinstance(bound, Bound) and bound.low <= bound.high


def one_deck(contract: Contract) -> RuleSet:
    """Every round this contract, from one deck without jokers, buys unlimited."""
    rounds = (RoundSpec(contract, deal=6),) * 6
    return replace(NO_JOKERS, buys=OPEN.buys, decks=(DeckRule(2, 8, 1, 0),), rounds=rounds)


IMPOSSIBLE = [
    pytest.param(
        with_contract(NO_JOKERS, 0, book_length=9),
        "rounds.0.contract.book_length",
        "2 players with 2 decks make a book of at most 8 cards.",
        id="book of 9 from two decks without wild jokers",
    ),
    pytest.param(
        with_contract(MAY_I, 0, book_length=13),
        "rounds.0.contract.book_length",
        "2 players with 2 decks make a book of at most 12 cards.",
        id="book of 13 from two decks and four jokers",
    ),
    pytest.param(
        with_round(NO_JOKERS, 6, deal=20),
        "rounds.6.deal",
        "8 players dealt 20 cards need 161 cards with the up-card, but 3 decks and 0 jokers "
        "hold 156.",
        id="eight dealt 20 from 156 cards",
    ),
    pytest.param(
        one_deck(Contract(runs=6, run_length=13)),
        "rounds.0.contract",
        "6 runs of 13 takes 78 cards; 1 deck and 0 jokers hold 52.",
        id="78 cards from one deck",
    ),
    pytest.param(
        one_deck(Contract(runs=5, run_length=7)),
        "rounds.0.contract.runs",
        "Without wild cards, the suits of 1 deck give at most 4 runs of 7.",
        id="five runs of 7 from four suits",
    ),
]


@pytest.mark.parametrize(("rules", "path", "told"), IMPOSSIBLE)
def test_a_contract_or_deal_the_decks_cannot_hold_is_refused(
    rules: RuleSet, path: str, told: str
) -> None:
    errors = validate_ruleset(rules)
    assert path in errors, errors
    assert errors[path][0].render() == told


POSSIBLE = [
    pytest.param(with_contract(OPEN, 0, book_length=12), id="book of 12: 8 naturals, 4 jokers"),
    pytest.param(
        with_contract(
            replace(NO_JOKERS, buys=OPEN.buys, melds=replace(NO_JOKERS.melds, wild_twos=True)),
            0,
            book_length=16,
        ),
        id="book of 16 with wild 2s",
    ),
    pytest.param(with_contract(NO_JOKERS, 0, book_length=8), id="every copy of one rank"),
    pytest.param(with_round(CONTRACT_RUMMY, 0, deal=20), id="8 x 20 + 1 = 161 of 163"),
    pytest.param(
        replace(UNLIMITED_BUYS, rounds=(RoundSpec(Contract(runs=6, run_length=13), deal=12),) * 6),
        id="six runs of 13 with jokers and no cap",
    ),
]


@pytest.mark.parametrize("rules", POSSIBLE)
def test_a_contract_the_decks_can_make_is_accepted(rules: RuleSet) -> None:
    assert validate_ruleset(rules) == {}


def test_a_wild_cap_shortens_the_longest_book() -> None:
    capped = replace(OPEN, melds=replace(OPEN.melds, max_wilds_per_meld=1))
    assert validate_ruleset(with_contract(capped, 0, book_length=9)) == {}
    assert "rounds.0.contract.book_length" in validate_ruleset(
        with_contract(capped, 0, book_length=10)
    )


def test_jokers_beyond_four_a_deck_are_refused() -> None:
    errors = validate_ruleset(with_deck(MAY_I, 0, jokers_base=9))
    assert errors["decks.0.jokers_base"][0].render() == (
        "Gives 9 jokers for 2 players; at most 8 go with 2 decks."
    )


def test_a_stored_copy_keeps_its_twelve_players_but_every_other_bound() -> None:
    twelve = replace(MAY_I, max_players=12, decks=(*MAY_I.decks, DeckRule(9, 12, 4, 8)))
    assert validate_ruleset(twelve, stored=True) == {}
    assert set(validate_ruleset(twelve)) == {
        "max_players",
        "decks.2.min_players",
        "decks.2.max_players",
    }
    huge = with_contract(twelve, 0, run_length=HUGE)
    assert set(validate_ruleset(huge, stored=True)) == {"rounds.0.contract.run_length"}
