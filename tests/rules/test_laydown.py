"""Books, runs and contract laydowns (RULES.md sections 3, 7 and 8)."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.laydown import (
    BOOK,
    RUN,
    MeldCheck,
    check_book,
    check_contract,
    check_melds_against,
    check_run,
    check_tiebreaker_contract,
)
from scorekeeper.rules.playing_cards import JOKER, Card, Rank, Suit, parse_cards
from scorekeeper.rules.presets import (
    ACES_AROUND,
    ACES_HIGH,
    CONTRACT_RUMMY,
    FREE_LAYDOWN,
    MAY_I,
    NO_JOKERS,
    PRESETS,
)
from scorekeeper.rules.ruleset import AceRule, Contract, RuleSet


def house(base: RuleSet = MAY_I, **melds: object) -> RuleSet:
    """A rule set with some meld house rules changed."""
    return replace(base, melds=replace(base.melds, **melds))  # type: ignore[arg-type]


WILD_TWOS = house(wild_twos=True)
ONE_WILD = house(max_wilds_per_meld=1)
FEW_WILDS = house(wilds_never_outnumber_naturals=True)
SHEET_AROUND = house(CONTRACT_RUMMY, aces=AceRule.AROUND)
SHEET_FREE_LENGTH = house(CONTRACT_RUMMY, exact_laydown=False)
NO_ABUTTING = house(MAY_I, abutting_runs=False)
ALL_PRESETS = list(PRESETS.values())
PRESET_IDS = list(PRESETS)

LOW = "Q-K-A is not allowed: aces are low in this game."
CORNER = "K-A-2 is not allowed: runs do not go round the corner in this game."
GAPS = "The gaps in this run need more than the %(count)s wild card it holds."
NOT_CONSECUTIVE = "The cards of a run must follow each other in rank, without a gap."
NO_JOKERS_HERE = "This game is played without jokers, so a meld cannot hold one."
TOO_MANY_WILDS = "A meld may hold at most %(count)s wild card."
OUTNUMBERED = "A meld may not hold more wild cards than natural cards."
ABUTTING = "Two runs of %(suit)s continue each other; they must overlap or leave a gap."
MIXED_RANKS = "%(card)s and %(other)s are not of the same rank, so they cannot make a book."
MIXED_SUITS = "%(card)s and %(other)s are not of the same suit, so they cannot share a run."
MELD_COUNT = "This contract is %(count)s meld, not %(given)s."
BOOK_COUNT = "This contract has %(count)s book, not %(given)s."
RUN_COUNT = "This contract has %(count)s run, not %(given)s."


def template(check: MeldCheck) -> str | None:
    """The English template of a refusal, None when the check passed."""
    return check.reason.template if check.reason else None


def laydown(*melds: str) -> list[list[Card]]:
    """Melds from card notation, one string per meld."""
    return [parse_cards(meld) for meld in melds]


# -- books ------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL_PRESETS, ids=PRESET_IDS)
def test_the_sheets_book_with_a_second_decks_duplicate_is_legal_everywhere(rules: RuleSet) -> None:
    assert check_book(parse_cards("9♠ 9♥ 9♠"), rules) == MeldCheck(True, kind=BOOK)


@pytest.mark.parametrize(
    ("cards", "rules", "expected"),
    [
        ("9S 9H 9D 9C 9S", MAY_I, None),
        ("9S 9H JK", MAY_I, None),
        ("JK 9S JK", MAY_I, None),
        ("9S 9H", MAY_I, "A book needs at least %(count)s card."),
        ("9S 9H 10H", MAY_I, MIXED_RANKS),
        ("9S JK 10H", MAY_I, MIXED_RANKS),
        ("JK JK JK", MAY_I, "A book needs at least one card that is not wild."),
        ("9S 9H JK", NO_JOKERS, NO_JOKERS_HERE),
        ("9S 9H 9D", NO_JOKERS, None),
        ("9S JK JK", ONE_WILD, TOO_MANY_WILDS),
        ("9S 9H JK", ONE_WILD, None),
        ("9S JK JK", FEW_WILDS, OUTNUMBERED),
        ("9S 9H JK JK", FEW_WILDS, None),
        ("9S 9H 2C", WILD_TWOS, None),
        ("9S 2H 2C", MAY_I, MIXED_RANKS),
        ("9S 2H 2C", house(wild_twos=True, wilds_never_outnumber_naturals=True), OUTNUMBERED),
        ("2S 2H 2D", WILD_TWOS, None),
        ("2S 2H JK", WILD_TWOS, None),
        ("2S JK JK", house(wild_twos=True, max_wilds_per_meld=1), TOO_MANY_WILDS),
    ],
)
def test_a_book_is_three_or_more_of_one_rank_with_wilds_standing_in(
    cards: str, rules: RuleSet, expected: str | None
) -> None:
    check = check_book(parse_cards(cards), rules)
    assert (check.ok, template(check), check.kind) == (expected is None, expected, BOOK)


@pytest.mark.parametrize(
    ("cards", "min_length", "exact", "ok"),
    [
        ("9S 9H 9D", 3, True, True),
        ("9S 9H 9D 9C", 3, True, False),
        ("9S 9H 9D 9C", 4, False, True),
        ("9S 9H 9D", 4, False, False),
    ],
)
def test_a_book_honours_the_length_it_is_checked_at(
    cards: str, min_length: int, exact: bool, ok: bool
) -> None:
    assert check_book(parse_cards(cards), MAY_I, min_length, exact).ok is ok


def test_a_refused_book_names_the_cards_that_differ() -> None:
    check = check_book(parse_cards("9S 10H 9H"), MAY_I)
    assert check.reason is not None
    assert (
        check.reason.render() == "9♥ and 10♥ are not of the same rank, so they cannot make a book."
    )


# -- runs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL_PRESETS, ids=PRESET_IDS)
@pytest.mark.parametrize("cards", ["5♥ 6♥ 7♥ 8♥", "A♥ 2♥ 3♥ 4♥", "4H AH 3H 2H", "AS 2S 3S 4S 5S"])
def test_low_runs_from_the_sources_are_legal_everywhere(rules: RuleSet, cards: str) -> None:
    assert check_run(parse_cards(cards), rules) == MeldCheck(True, kind=RUN)


@pytest.mark.parametrize(
    ("cards", "rules", "ok"),
    [
        ("QH KH AH", MAY_I, False),
        ("QH KH AH", ACES_HIGH, True),
        ("QH KH AH", CONTRACT_RUMMY, True),
        ("QH KH AH", ACES_AROUND, True),
        ("KH AH 2H", MAY_I, False),
        ("KH AH 2H", ACES_HIGH, False),
        ("KH AH 2H", CONTRACT_RUMMY, False),
        ("KH AH 2H", ACES_AROUND, True),
        ("QH KH AH 2H 3H", ACES_AROUND, True),
        ("JK KH AH 2H", ACES_AROUND, True),
    ],
)
def test_where_the_ace_may_stand_follows_the_tables_ace_rule(
    cards: str, rules: RuleSet, ok: bool
) -> None:
    assert check_run(parse_cards(cards), rules, min_length=3).ok is ok


@pytest.mark.parametrize(
    ("cards", "rules", "expected"),
    [
        ("JH QH KH AH", MAY_I, LOW),
        ("JH JK KH AH", MAY_I, LOW),
        ("KH AH 2H 3H", MAY_I, CORNER),
        ("KH AH 2H 3H", ACES_HIGH, CORNER),
        ("QH KH JK 2H", CONTRACT_RUMMY, CORNER),
        ("5H 6H 7H 9H", MAY_I, NOT_CONSECUTIVE),
        ("5H JK 8H 9H", MAY_I, GAPS),
        ("5H JK 9H 10H", ACES_AROUND, GAPS),
        ("5H 2C 9H 10H", WILD_TWOS, GAPS),
        ("5H 6H 7H", MAY_I, "A run needs at least %(count)s card."),
        ("5H 5H 6H 7H", MAY_I, "%(card)s is in this run twice."),
        ("5H 6S 7H 8H", MAY_I, MIXED_SUITS),
        ("JK JK JK JK", MAY_I, "A run needs at least one card that is not wild."),
        ("5H JK 7H 8H", NO_JOKERS, NO_JOKERS_HERE),
        ("5H JK JK 8H", ONE_WILD, TOO_MANY_WILDS),
        ("5H JK JK JK", FEW_WILDS, OUTNUMBERED),
    ],
)
def test_a_refused_run_says_why(cards: str, rules: RuleSet, expected: str) -> None:
    check = check_run(parse_cards(cards), rules)
    assert (check.ok, template(check), check.kind) == (False, expected, RUN)


@pytest.mark.parametrize(
    ("cards", "rules"),
    [
        ("5H JK 7H 8H", MAY_I),
        ("JK 6H 7H 8H", MAY_I),
        ("5H 6H 7H JK", MAY_I),
        ("5H JK JK 8H", MAY_I),
        ("JK JK JK 8H", MAY_I),
        ("JK 2H 3H 4H", MAY_I),
        ("JH QH KH JK", MAY_I),
        ("5H JK 7H 8H", ONE_WILD),
        ("5H JK JK 8H", FEW_WILDS),
        ("5H 2C 7H 8H", WILD_TWOS),
        ("AH 2H 3H 4H", WILD_TWOS),
        ("2H 2H 3H 4H", WILD_TWOS),
        ("2H 3H 4H 5H", WILD_TWOS),
        ("2S 2H 2D 2C", WILD_TWOS),
        ("JH QH KH 2C", house(ACES_HIGH, wild_twos=True)),
    ],
)
def test_wilds_fill_gaps_and_extend_runs_at_either_end(cards: str, rules: RuleSet) -> None:
    assert check_run(parse_cards(cards), rules).ok


def test_without_wild_twos_a_second_two_is_a_duplicate() -> None:
    assert not check_run(parse_cards("2H 2H 3H 4H"), MAY_I).ok


@pytest.mark.parametrize(
    ("cards", "rules", "ok"),
    [
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", MAY_I, True),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", ACES_HIGH, True),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", MAY_I, True),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", ACES_HIGH, False),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", ACES_AROUND, False),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", ACES_HIGH, False),
    ],
)
def test_a_run_holds_each_rank_at_most_once(cards: str, rules: RuleSet, ok: bool) -> None:
    assert check_run(parse_cards(cards), rules).ok is ok


@pytest.mark.parametrize(
    ("cards", "min_length", "exact", "ok"),
    [
        ("5H 6H 7H 8H", 4, True, True),
        ("5H 6H 7H 8H 9H", 4, True, False),
        ("5H 6H 7H 8H 9H", 5, False, True),
        ("5H 6H 7H 8H", 5, False, False),
        ("5H 6H 7H", 3, False, True),
    ],
)
def test_a_run_honours_the_length_it_is_checked_at(
    cards: str, min_length: int, exact: bool, ok: bool
) -> None:
    assert check_run(parse_cards(cards), MAY_I, min_length, exact).ok is ok


# -- laydowns ---------------------------------------------------------------------------------

STANDARD_LAYDOWNS = [
    (1, ("9S 9H 9S", "KC KD JK")),
    (2, ("9S 9H 9D", "5H 6H 7H 8H")),
    (3, ("5H 6H 7H 8H", "10S JS QS KS")),
    (4, ("9S 9H 9D", "KC KD JK", "4C 4C 4D")),
    (5, ("9S 9H 9D", "KC KD KH", "AD 2D 3D 4D")),
    (6, ("9S 9H 9D", "5H 6H 7H 8H", "10S JS JK KS")),
    (7, ("AH 2H 3H 4H", "5C 6C 7C 8C", "9D 10D JD QD")),
]


@pytest.mark.parametrize("rules", [MAY_I, CONTRACT_RUMMY, FREE_LAYDOWN], ids=lambda r: r.key)
@pytest.mark.parametrize(("round_number", "melds"), STANDARD_LAYDOWNS)
def test_each_standard_round_accepts_a_laydown_of_exactly_its_contract(
    rules: RuleSet, round_number: int, melds: tuple[str, ...]
) -> None:
    assert check_contract(laydown(*melds), rules, round_number) == MeldCheck(True)


@pytest.mark.parametrize(
    ("round_number", "melds", "expected"),
    [
        (1, ("9S 9H 9S",), MELD_COUNT),
        (1, ("9S 9H 9S", "KC KD JK", "4C 4C 4D"), MELD_COUNT),
        (2, ("9S 9H 9D", "KC KD KH"), BOOK_COUNT),
        (3, ("9S 9H 9D 9C", "5H 6H 7H 8H"), BOOK_COUNT),
        (4, ("9S 9H 9D", "KC KD KH", "5H 6H 7H 8H"), RUN_COUNT),
        (5, ("9S 9H 9D", "5H 6H 7H 8H", "10S JS QS KS"), RUN_COUNT),
        (7, ("AH 2H 3H 4H", "5C 6C 7C 8C"), MELD_COUNT),
    ],
)
def test_a_laydown_with_the_wrong_number_of_books_or_runs_is_refused(
    round_number: int, melds: tuple[str, ...], expected: str
) -> None:
    assert template(check_contract(laydown(*melds), MAY_I, round_number)) == expected


def test_the_wrong_count_names_what_the_contract_needs() -> None:
    check = check_contract(laydown("9S 9H 9D", "KC KD KH"), MAY_I, 2)
    assert check.reason is not None
    assert check.reason.render() == "This contract has 1 book, not 2."


@pytest.mark.parametrize(
    ("round_number", "melds", "meld", "expected"),
    [
        (1, ("9S 9H 9D", "7S 8S 9S"), 1, MIXED_RANKS),
        (3, ("5H 6H 7H 8H", "9S 10H JH QH"), 1, MIXED_SUITS),
        (2, ("9S 9H", "5H 6H 7H 8H"), 0, "A book needs at least %(count)s card."),
        (3, ("5H 6H 7H 8H", "9S 9H"), 1, "A run needs at least %(count)s card."),
        (2, ("9S 9H 9D", "5H 6H 8H 9H"), 1, NOT_CONSECUTIVE),
        (6, ("9S 9H 9D", "JH QH KH AH", "5S 6S 7S 8S"), 1, LOW),
    ],
)
def test_a_laydown_names_the_meld_that_is_not_legal(
    round_number: int, melds: tuple[str, ...], meld: int, expected: str
) -> None:
    check = check_contract(laydown(*melds), MAY_I, round_number)
    assert (check.ok, check.meld, template(check)) == (False, meld, expected)


@pytest.mark.parametrize(
    ("rules", "ok"), [(CONTRACT_RUMMY, False), (MAY_I, True), (FREE_LAYDOWN, True)]
)
def test_the_sheets_continuing_spade_runs_are_refused_only_where_runs_may_not_abut(
    rules: RuleSet, ok: bool
) -> None:
    check = check_contract(laydown("3♠ 4♠ 5♠ 6♠", "7♠ 8♠ 9♠ 10♠"), rules, 3)
    assert check.ok is ok
    if not ok:
        assert check.reason is not None
        assert check.reason.render() == (
            "Two runs of ♠ continue each other; they must overlap or leave a gap."
        )


SEVEN_TO_ACE = "8S 9S 10S JS QS KS AS"


@pytest.mark.parametrize(
    ("rules", "round_number", "melds", "ok"),
    [
        (CONTRACT_RUMMY, 3, ("3S 4S 5S 6S", "5S 6S 7S 8S"), True),
        (CONTRACT_RUMMY, 3, ("3S 4S 5S 6S", "8S 9S 10S JS"), True),
        (CONTRACT_RUMMY, 3, ("3S 4S 5S 6S", "7H 8H 9H 10H"), True),
        (CONTRACT_RUMMY, 3, ("7S 8S 9S 10S", "3S 4S 5S 6S"), False),
        (CONTRACT_RUMMY, 3, ("7S 8S 9S 10S", "JS QS KS AS"), False),
        (CONTRACT_RUMMY, 3, ("AS 2S 3S 4S", "JS QS KS AS"), True),
        (CONTRACT_RUMMY, 3, ("10S JS QS KS", "AS 2S 3S 4S"), True),
        (CONTRACT_RUMMY, 3, ("3S 4S 5S 6S", "7S 8S 9S JK"), True),
        (CONTRACT_RUMMY, 3, ("3S 4S 5S 6S", "JK 8S 9S 10S"), True),
        (CONTRACT_RUMMY, 3, ("3S 4S 5S JK", "7S 8S 9S 10S"), True),
        (CONTRACT_RUMMY, 6, ("9S 9H 9D", "3S 4S 5S 6S", "7S 8S 9S 10S"), False),
        (CONTRACT_RUMMY, 7, ("AH 2H 3H 4H", "5H 6H 7H 8H", "10H JH QH KH"), False),
        (CONTRACT_RUMMY, 7, ("AH 2H 3H 4H", "6H 7H 8H 9H", "JH QH KH AH"), True),
        (SHEET_AROUND, 3, ("JS QS KS AS", "2S 3S 4S 5S"), False),
        (SHEET_AROUND, 3, ("JS QS KS AS", "AS 2S 3S 4S"), True),
        (SHEET_AROUND, 3, ("QS KS AS 2S", "3S 4S 5S 6S"), False),
        (house(ACES_AROUND, abutting_runs=False), 3, ("AS 2S 3S 4S 5S 6S 7S", SEVEN_TO_ACE), True),
        (NO_ABUTTING, 6, ("AS JK JK JK", "5S 6S 7S 8S", "9S 9H 9D"), False),
    ],
)
def test_same_suit_runs_must_overlap_or_leave_a_gap_where_runs_may_not_abut(
    rules: RuleSet, round_number: int, melds: tuple[str, ...], ok: bool
) -> None:
    check = check_contract(laydown(*melds), rules, round_number)
    assert (check.ok, template(check)) == (ok, None if ok else ABUTTING)


@pytest.mark.parametrize(
    ("rules", "round_number", "melds", "ok"),
    [
        (CONTRACT_RUMMY, 1, ("9S 9H 9D 9C", "KC KD KH"), False),
        (MAY_I, 1, ("9S 9H 9D 9C", "KC KD KH"), True),
        (FREE_LAYDOWN, 1, ("9S 9H 9D 9C", "KC KD KH"), True),
        (CONTRACT_RUMMY, 3, ("5H 6H 7H 8H 9H", "10S JS QS KS"), False),
        (MAY_I, 3, ("5H 6H 7H 8H 9H", "10S JS QS KS"), True),
        (FREE_LAYDOWN, 3, ("5H 6H 7H 8H 9H", "10S JS QS KS"), True),
    ],
)
def test_an_exact_laydown_allows_no_extra_card(
    rules: RuleSet, round_number: int, melds: tuple[str, ...], ok: bool
) -> None:
    check = check_contract(laydown(*melds), rules, round_number)
    assert (check.ok, check.meld) == (ok, None if ok else 0)


@pytest.mark.parametrize("round_number", [1, 2, 3, 4, 5, 6, 7])
def test_no_laydown_may_hold_a_joker_in_the_no_jokers_game(round_number: int) -> None:
    melds = laydown(*dict(STANDARD_LAYDOWNS)[round_number])
    melds[0][-1] = JOKER
    assert check_contract(melds, MAY_I, round_number).ok
    check = check_contract(melds, NO_JOKERS, round_number)
    assert (check.ok, check.meld, template(check)) == (False, 0, NO_JOKERS_HERE)


@pytest.mark.parametrize(
    ("rules", "round_number", "melds", "ok"),
    [
        (MAY_I, 2, ("JK JK JK 7S", "5H 6H 7H 8H"), True),
        (MAY_I, 3, ("JK JK JK 7S", "5H 6H 7H 8H"), True),
        (CONTRACT_RUMMY, 2, ("JK JK JK 7S", "5H 6H 7H 8H"), False),
        (CONTRACT_RUMMY, 2, ("JK JK 7S", "5H 6H 7H 8H"), True),
        (MAY_I, 1, ("JK JK JK 7S", "9S 9H 9D"), True),
        (NO_ABUTTING, 6, ("5H JK JK JK", "6S 7S 8S 9S", "KS JK JK JK"), True),
        (NO_ABUTTING, 6, ("KS JK JK JK", "6S 7S 8S 9S", "5H JK JK JK"), True),
        (NO_ABUTTING, 6, ("AS JK JK JK", "5S 6S 7S 8S", "KS JK JK JK"), True),
        (SHEET_FREE_LENGTH, 6, ("JK JK JK 7S", "3S 4S 5S 6S", "9S 9H 9D"), True),
        (SHEET_FREE_LENGTH, 6, ("JK JK JK 7S", "3S 4S 5S 6S", "7H 8H 9H 10H"), True),
    ],
)
def test_a_meld_that_could_be_a_book_or_a_run_counts_as_whichever_the_contract_needs(
    rules: RuleSet, round_number: int, melds: tuple[str, ...], ok: bool
) -> None:
    assert check_contract(laydown(*melds), rules, round_number).ok is ok


@pytest.mark.parametrize(
    ("melds", "ok"),
    [(("5H 6H 7H 8H", "10S JS QS KS"), True), (("9S 9H 9D", "KC KD KH"), False)],
)
def test_the_tiebreaker_round_is_checked_against_its_own_contract(
    melds: tuple[str, ...], ok: bool
) -> None:
    assert check_tiebreaker_contract(laydown(*melds), MAY_I).ok is ok


def test_any_contract_can_be_checked_directly() -> None:
    melds = laydown("9S 9H 9D 9C", "KC KD KH KS", "4C 4C 4D 4H", "7C 7D 7H 7S")
    assert check_melds_against(Contract(books=4), melds, MAY_I).ok
    assert not check_melds_against(Contract(books=4, book_length=5), melds, MAY_I).ok


@pytest.mark.parametrize("round_number", [0, 8, -1])
def test_a_round_the_game_does_not_have_is_an_error(round_number: int) -> None:
    with pytest.raises(RuleError):
        check_contract(laydown("9S 9H 9D", "KC KD KH"), MAY_I, round_number)


# -- properties -------------------------------------------------------------------------------

SUITS = st.sampled_from(list(Suit))


@st.composite
def runs_with_jokers(draw: st.DrawFn) -> list[Card]:
    """A legal May I? run: consecutive ranks of one suit, some replaced by jokers."""
    suit, length = draw(SUITS), draw(st.integers(4, 13))
    start = draw(st.integers(1, 14 - length))
    cards = [Card(Rank(value), suit) for value in range(start, start + length)]
    for index in draw(st.sets(st.integers(0, length - 1), max_size=length - 2)):
        cards[index] = JOKER
    return cards


@given(runs_with_jokers(), st.data())
def test_a_run_stays_legal_when_a_natural_card_becomes_a_joker(
    run: list[Card], data: st.DataObject
) -> None:
    assert check_run(run, MAY_I).ok
    naturals = [i for i, card in enumerate(run) if not card.is_joker and card.rank is not Rank.ACE]
    index = data.draw(st.sampled_from(naturals))
    assert check_run([*run[:index], JOKER, *run[index + 1 :]], MAY_I).ok


POOL = parse_cards("3H 4H 5H 6H 7H 8H 9H 5S 5D JK 2H AH KH QH")
RULE_SETS = st.sampled_from([*ALL_PRESETS, WILD_TWOS, ONE_WILD, FEW_WILDS, SHEET_AROUND])


@given(st.lists(st.sampled_from(POOL), min_size=3, max_size=7), RULE_SETS, st.data())
def test_the_order_cards_are_given_in_changes_no_verdict(
    cards: list[Card], rules: RuleSet, data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(cards))
    assert check_run(shuffled, rules) == check_run(cards, rules)
    assert check_book(shuffled, rules) == check_book(cards, rules)


@given(
    st.lists(st.sampled_from([Rank.NINE, Rank.NINE, Rank.TEN, Rank.TWO]), max_size=6),
    st.integers(0, 2),
    st.data(),
    RULE_SETS,
)
def test_a_books_verdict_does_not_depend_on_suits(
    ranks: list[Rank], jokers: int, data: st.DataObject, rules: RuleSet
) -> None:
    def dealt() -> list[Card]:
        return [Card(rank, data.draw(SUITS)) for rank in ranks] + [JOKER] * jokers

    first, second = check_book(dealt(), rules), check_book(dealt(), rules)
    assert (first.ok, first.kind, template(first)) == (second.ok, second.kind, template(second))


def test_sheet_round_7_takes_thirteen_cards_as_three_runs_one_longer() -> None:
    melds = [parse_cards(meld) for meld in ("3H 4H 5H 6H", "8S 9S 10S JS", "2C 3C 4C 5C 6C")]
    assert check_contract(melds, CONTRACT_RUMMY, 7).ok


def test_sheet_round_7_still_wants_three_runs() -> None:
    melds = [parse_cards(meld) for meld in ("3H 4H 5H 6H 7H", "8S 9S 10S JS 2C 3C 4C")]
    assert not check_contract(melds, CONTRACT_RUMMY, 7).ok


def test_sheet_round_6_keeps_its_exact_lengths() -> None:
    melds = [parse_cards(meld) for meld in ("9S 9H 9D", "3H 4H 5H 6H", "8C 9C 10C JC QC")]
    verdict = check_contract(melds, CONTRACT_RUMMY, 6)
    assert not verdict.ok
    assert verdict.meld == 2


@pytest.mark.parametrize(
    ("rules", "lifted"),
    [(CONTRACT_RUMMY, {7}), (MAY_I, set()), (FREE_LAYDOWN, set())],
    ids=["sheet", "may-i", "free-laydown"],
)
def test_only_a_no_discard_round_that_exact_lengths_cannot_fill_is_lifted(
    rules: RuleSet, lifted: set[int]
) -> None:
    found = {n for n, spec in enumerate(rules.rounds, start=1) if rules.exact_lifted(spec)}
    assert found == lifted
