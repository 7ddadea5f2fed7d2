"""Every sentence of a rules card is true of the set it describes (issue 20.8).

Rule sets are generated within rules/bounds.py (rounds, contracts and their lengths, deals,
deck rules with any jokers, caps, values, the tiebreaker round) and kept when the validation
takes them. Each sentence of the card, in English, must match one of the claims below, and the
claim must hold for the set: a sentence no claim knows fails the test too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.deal import contract_message
from scorekeeper.rules.playing_cards import RANKS_BY_CODE, Rank
from scorekeeper.rules.presets import MAY_I, PRESETS
from scorekeeper.rules.rules_card import rules_card
from scorekeeper.rules.ruleset import (
    AceRule,
    Contract,
    DealPasses,
    DeckRule,
    FirstDealer,
    ReshufflePolicy,
    RoundSpec,
    RuleSet,
    TiebreakPolicy,
)
from scorekeeper.rules.validation import validate_ruleset
from tests.rules.test_rules_card import BUY_SETTINGS, MELD_SETTINGS, SCORING

Check = Callable[[RuleSet, re.Match[str]], bool]
CAPS = st.none() | st.integers(0, 4)
# Jokers as (base, per player): none, a number, the sheet's one fewer than the players, more.
JOKERS = [(0, 0), (2, 0), (4, 0), (6, 0), (-1, 1), (0, 1), (-2, 1)]


@st.composite
def contracts(draw: st.DrawFn) -> Contract:
    """One to three melds, books of 3 or 4 and runs of 3 to 5 (deals the decks can hold)."""
    books = draw(st.integers(0, 3))
    runs = draw(st.integers(0 if books else 1, 3 - books))
    return Contract(books, runs, draw(st.integers(3, 4)), draw(st.integers(3, 5)))


@st.composite
def round_specs(draw: st.DrawFn) -> RoundSpec:
    contract = draw(contracts())
    least = max(1, contract.cards_needed - 1)
    deal = draw(st.integers(least, max(least, 13)))
    return RoundSpec(contract, deal, draw(st.booleans()), draw(CAPS))


@st.composite
def deck_rules(draw: st.DrawFn) -> tuple[DeckRule, ...]:
    """One to three rules covering 2 to 8 players, with none, some or per-player jokers."""
    cuts = sorted(draw(st.sets(st.integers(3, 8), max_size=2)))
    lows, highs = [2, *cuts], [cut - 1 for cut in cuts] + [8]
    return tuple(
        DeckRule(low, high, draw(st.integers(2, 4)), *draw(st.sampled_from(JOKERS)))
        for low, high in zip(lows, highs, strict=True)
    )


@st.composite
def any_sets(draw: st.DrawFn) -> RuleSet:
    """A rule set within the bounds, any setting drawn."""
    fewest = draw(st.integers(2, 4))
    rules = replace(
        draw(st.sampled_from(list(PRESETS.values()))),
        key="house",
        name="House",
        rounds=tuple(draw(st.lists(round_specs(), min_size=6, max_size=12))),
        decks=draw(deck_rules()),
        min_players=fewest,
        max_players=draw(st.integers(max(fewest, 3), 8)),
        recommended_min_players=draw(st.integers(fewest, max(fewest, 3))),
        buys=draw(BUY_SETTINGS),
        melds=draw(MELD_SETTINGS),
        scoring=replace(draw(SCORING), tiebreaker_round=draw(round_specs())),
        reshuffle=draw(st.sampled_from(ReshufflePolicy)),
        shuffle_on_reform=draw(st.booleans()),
        first_dealer=draw(st.sampled_from(FirstDealer)),
        deal_passes=draw(st.sampled_from(DealPasses)),
        buy_call=draw(st.sampled_from(["May I?", "Mine!"])),
    )
    return rules


def rule_sets() -> st.SearchStrategy[RuleSet]:
    """Rule sets within the bounds that the validation takes: the sets a card is made for."""
    return any_sets().filter(lambda rules: not validate_ruleset(rules))


def asked(rules: RuleSet) -> list[Contract]:
    """Every contract a game of the set can ask for, a tiebreaker round's included."""
    contracts = [spec.contract for spec in rules.rounds]
    if rules.scoring.tiebreak is not TiebreakPolicy.SHARED:
        contracts.append(rules.scoring.tiebreaker_round.contract)
    return contracts


def lengths_said(kind: str) -> Check:
    """The shortest length of a meld any contract asks for; "some ask more" when they differ."""

    def check(rules: RuleSet, said: re.Match[str]) -> bool:
        lengths = {getattr(c, f"{kind}_length") for c in asked(rules) if getattr(c, f"{kind}s")}
        return bool(lengths) and (int(said[1]), bool(said[2])) == (min(lengths), len(lengths) > 1)

    return check


def shortest_run(rules: RuleSet) -> int:
    return min(c.run_length for c in asked(rules) if c.runs)


def ranks(text: str) -> list[int]:
    """A run written as "J-Q-K-A" as rank numbers, the ace as 1."""
    return [RANKS_BY_CODE[code].value for code in text.split("-")]


def aces_said(aces: AceRule) -> Check:
    """The ace rule, shown with runs of the shortest length played, in order."""

    def check(rules: RuleSet, said: re.Match[str]) -> bool:
        length = shortest_run(rules)
        low, high = ranks(said["low"]), ranks(said["high"])
        return (
            rules.melds.aces is aces
            and low == list(range(1, length + 1))
            and high == [*range(15 - length, 14), 1]
        )

    return check


def around_said(rules: RuleSet, said: re.Match[str]) -> bool:
    run = ranks(said[1])
    ace = run.index(1)
    in_order = all(rank == 14 - ace + i for i, rank in enumerate(run[:ace]))
    return (
        rules.melds.aces is AceRule.AROUND
        and len(run) == shortest_run(rules)
        and 0 < ace < len(run) - 1
        and in_order
        and run[ace + 1 :] == list(range(2, len(run) - ace + 1))
    )


def jokers_at(phrase: str, players: int) -> int | None:
    """The jokers a deck line's phrase gives this many players."""
    if phrase == "no jokers":
        return 0
    if phrase == "one joker fewer than players":
        return players - 1
    if found := re.fullmatch(r"(\d+) jokers?", phrase):
        return int(found[1])
    if found := re.fullmatch(r"(\d+) jokers? per player, (plus|less) (\d+)", phrase):
        sign = 1 if found[2] == "plus" else -1
        return int(found[1]) * players + sign * int(found[3])
    return None


def deck_said(rules: RuleSet, said: re.Match[str]) -> bool:
    """A deck rule of the set deals those decks and jokers at every table size named."""
    low, high, decks = int(said[1]), int(said[2]), int(said[3])
    sizes = range(low, high + 1)
    if not rules.min_players <= low <= high <= rules.max_players:
        return False
    return any(
        rule.decks == decks
        and all(
            rule.min_players <= players <= rule.max_players
            and jokers_at(said[4], players) == rules.jokers_in_play(rule, players)
            for players in sizes
        )
        for rule in rules.decks
    )


def value_said(rules: RuleSet, said: re.Match[str]) -> bool:
    """Cards of a stretch of pips are worth their face value, or the points said."""
    low, high = RANKS_BY_CODE[said["low"]].value, RANKS_BY_CODE[said["high"] or said["low"]].value
    values = rules.scoring.values
    points = said.groupdict().get("points")
    return all(
        values[Rank(n).code] == (n if points is None else int(points)) for n in range(low, high + 1)
    )


def caps(rules: RuleSet) -> list[int | None]:
    return [rules.buy_cap(number) for number in range(1, len(rules.rounds) + 1)]


def no_buying(rules: RuleSet) -> bool:
    return rules.buys.cap_per_game == 0 or all(cap == 0 for cap in caps(rules))


def defaults_used(rules: RuleSet) -> bool:
    return any(spec.buy_cap is None for spec in rules.rounds)


def round_cap_said(rules: RuleSet, said: re.Match[str]) -> bool:
    cap = rules.rounds[int(said[1]) - 1].buy_cap
    return cap == (0 if said[2] is None else int(said[2]))


def lifted_said(rules: RuleSet, said: re.Match[str]) -> bool:
    spec = rules.rounds[int(said[1]) - 1]
    return (
        rules.exact_lifted(spec)
        and int(said[2]) == spec.deal + 1
        and said[3] == contract_message(spec.contract).render()
    )


def tiebreaker_said(policy: TiebreakPolicy) -> Check:
    def check(rules: RuleSet, said: re.Match[str]) -> bool:
        spec = rules.scoring.tiebreaker_round
        return rules.scoring.tiebreak is policy and (said[1], int(said[2])) == (
            contract_message(spec.contract).render(),
            spec.deal,
        )

    return check


def wild(rules: RuleSet) -> bool:
    return rules.plays_jokers() or rules.melds.wild_twos


CLAIMS: list[tuple[str, Check]] = [
    # titles
    (r"Players and cards|Books and runs|When the stock runs out|Scoring", lambda r, m: True),
    (r"“(.+)”: buying out of turn", lambda r, m: m[1] == r.buy_call),
    # players and cards
    (
        r"(\d+) to (\d+) players\.",
        lambda r, m: (int(m[1]), int(m[2])) == (r.min_players, r.max_players),
    ),
    (
        r"Best with (\d+) or more: fewer rarely call out of turn\.",
        lambda r, m: int(m[1]) == r.recommended_min_players > r.min_players,
    ),
    (r"(\d+) to (\d+) players: (\d+) decks? and (.+)\.", deck_said),
    (
        r"The highest card cut picks the first dealer\.",
        lambda r, m: r.first_dealer is FirstDealer.HIGH_CARD,
    ),
    (
        r"The lowest card cut picks the first dealer\.",
        lambda r, m: r.first_dealer is FirstDealer.LOW_CARD,
    ),
    (r"The first dealer is chosen by chance\.", lambda r, m: r.first_dealer is FirstDealer.RANDOM),
    (
        r"The deal passes clockwise; the player left of the dealer starts\.",
        lambda r, m: r.deal_passes is DealPasses.LEFT,
    ),
    (
        r"The deal passes to whoever went out last round; the player left of the dealer starts\.",
        lambda r, m: r.deal_passes is DealPasses.WINNER,
    ),
    # books and runs
    (
        r"A book is (\d+) or more cards of one rank, in any suits(; some rounds ask more)?\.",
        lengths_said("book"),
    ),
    (
        r"A run is (\d+) or more cards of one suit in sequence(; some rounds ask more)?\.",
        lengths_said("run"),
    ),
    (r"The ace is low only: (?P<low>[^,]+), never (?P<high>.+)\.", aces_said(AceRule.LOW)),
    (
        r"The ace is low or high: (?P<low>\S+) or (?P<high>\S+), not both\.",
        aces_said(AceRule.HIGH_OR_LOW),
    ),
    (r"Runs may turn the corner: (\S+)\.", around_said),
    (r"Jokers are wild in books and runs\.", lambda r, m: r.plays_jokers()),
    (r"There are no jokers\.", lambda r, m: not r.plays_jokers()),
    (
        r"Every 2 is wild as well; a 2 left in hand counts (\d+)\.",
        lambda r, m: r.melds.wild_twos and int(m[1]) == r.scoring.values["2"],
    ),
    (
        r"At most (\d+) wild cards? in one meld\.",
        lambda r, m: wild(r) and r.melds.max_wilds_per_meld == int(m[1]),
    ),
    (
        r"Wild cards may never outnumber the natural cards of a meld\.",
        lambda r, m: wild(r) and r.melds.wilds_never_outnumber_naturals,
    ),
    (
        r"Lay down exactly the contract: each meld at its length, no more\.",
        lambda r, m: r.melds.exact_laydown,
    ),
    (
        r"Round (\d+): all (\d+) cards go down at once, which (.+) of exact length cannot hold, "
        r"so one meld may be longer\.",
        lifted_said,
    ),
    (
        r"Two runs of one suit may not simply continue each other\.",
        lambda r, m: not r.melds.abutting_runs,
    ),
    (
        r"Once your contract is down, lay off on any turn, without drawing\.",
        lambda r, m: r.melds.layoff_without_drawing,
    ),
    (
        r"Lay off from the turn after your contract went down\.",
        lambda r, m: not r.melds.layoff_same_turn and not r.melds.layoff_without_drawing,
    ),
    (
        r"A joker in a run may be swapped for the real card; in a book it stays\.",
        lambda r, m: r.melds.joker_swap and r.plays_jokers(),
    ),
    # buying
    (r"No buying out of turn\.", lambda r, m: no_buying(r)),
    (
        r"The player whose turn is next may take the discard as their draw\.",
        lambda r, m: not no_buying(r),
    ),
    (r"Otherwise the caller nearest the discarder's left gets it\.", lambda r, m: not no_buying(r)),
    (
        r"The buyer also takes (\d+) penalty cards? from the stock\.",
        lambda r, m: int(m[1]) == r.buys.penalty_cards > 0,
    ),
    (r"The buyer takes no penalty card\.", lambda r, m: r.buys.penalty_cards == 0),
    (
        r"Buys are not limited\.",
        lambda r, m: r.buys.cap_per_game is None and all(cap is None for cap in caps(r)),
    ),
    (
        r"No limit on buys per round\.",
        lambda r, m: r.buys.cap_per_round is None and defaults_used(r),
    ),
    (
        r"No buying, except in the rounds named below\.",
        lambda r, m: r.buys.cap_per_round == 0 and defaults_used(r),
    ),
    (
        r"At most (\d+) buys? per round\.",
        lambda r, m: r.buys.cap_per_round == int(m[1]) and defaults_used(r),
    ),
    (r"Round (\d+): (?:no buying|at most (\d+) buys?)\.", round_cap_said),
    (r"At most (\d+) buys? per game\.", lambda r, m: r.buys.cap_per_game == int(m[1])),
    (
        r"The next player's “(.+)” instead of a plain draw counts as a buy\.",
        lambda r, m: r.buys.turn_player_call_is_buy and m[1] == r.buy_call,
    ),
    (
        r"If the next player calls, the card is their draw, not a buy\.",
        lambda r, m: not r.buys.turn_player_call_is_buy,
    ),
    (
        r"After a buy the card below may be bought the same way, but not by the same player "
        r"twice in a row\.",
        lambda r, m: r.buys.no_twice_in_a_row,
    ),
    (
        r"Nobody may buy once their contract is down\.",
        lambda r, m: r.buys.no_buy_after_contract_down,
    ),
    # the stock
    (
        r"Shuffle the discards, but the top card, into a new stock every time\.",
        lambda r, m: r.reshuffle is ReshufflePolicy.ALWAYS and r.shuffle_on_reform,
    ),
    (
        r"Turn the discards, but the top card, over into a new stock every time, without "
        r"shuffling\.",
        lambda r, m: r.reshuffle is ReshufflePolicy.ALWAYS and not r.shuffle_on_reform,
    ),
    (
        r"The first time, shuffle the discards, but the top card, into a new stock\.",
        lambda r, m: r.reshuffle is ReshufflePolicy.ONCE and r.shuffle_on_reform,
    ),
    (
        r"The first time, turn the discards, but the top card, over into a new stock without "
        r"shuffling\.",
        lambda r, m: r.reshuffle is ReshufflePolicy.ONCE and not r.shuffle_on_reform,
    ),
    (
        r"The second time, the round ends and everybody counts their hand\.",
        lambda r, m: r.reshuffle is ReshufflePolicy.ONCE,
    ),
    # scoring
    (r"Going out scores 0; everybody else counts the cards in hand\.", lambda r, m: True),
    (
        r"Joker: (\d+) points?\.",
        lambda r, m: r.plays_jokers() and r.scoring.values["JK"] == int(m[1]),
    ),
    (r"Ace: (\d+) points?\.", lambda r, m: r.scoring.values["A"] == int(m[1])),
    (
        r"King, queen and jack: (\d+) points? each\.",
        lambda r, m: all(r.scoring.values[code] == int(m[1]) for code in "KQJ"),
    ),
    (r"King: (\d+) points?\.", lambda r, m: r.scoring.values["K"] == int(m[1])),
    (r"Queen: (\d+) points?\.", lambda r, m: r.scoring.values["Q"] == int(m[1])),
    (r"Jack: (\d+) points?\.", lambda r, m: r.scoring.values["J"] == int(m[1])),
    (
        r"(?P<low>\d+)(?: to (?P<high>\d+))?: (?:its|their) face value\.",
        value_said,
    ),
    (r"(?P<low>\d+)(?: to (?P<high>\d+))?: (?P<points>\d+) points?(?: each)?\.", value_said),
    (
        r"The player right of the dealer cuts: exactly the cards for the deal plus the up-card "
        r"\(players × deal \+ 1\) scores −(\d+) for that round\.",
        lambda r, m: r.scoring.cut_bonus == int(m[1]) > 0,
    ),
    (
        r"A round's score may be adjusted, e\.g\. for a short-dealt hand\.",
        lambda r, m: r.scoring.adjustments,
    ),
    (r"The lowest total wins\.", lambda r, m: True),
    (r"Tied players share the win\.", lambda r, m: r.scoring.tiebreak is TiebreakPolicy.SHARED),
    (
        r"Tied players play a tiebreaker round: (.+), (\d+) cards\.",
        tiebreaker_said(TiebreakPolicy.PLAYOFF),
    ),
    (
        r"A tie goes to whoever went out in more rounds; still tied, a tiebreaker round "
        r"\((.+), (\d+) cards\) decides\.",
        tiebreaker_said(TiebreakPolicy.ROUNDS_OUT_THEN_PLAYOFF),
    ),
]


def untrue_sentences(rules: RuleSet) -> list[str]:
    """The card's sentences that no claim knows, or whose claim does not hold for the set."""
    wrong = []
    for section in rules_card(rules):
        for sentence in (section.title.render(), *(line.render() for line in section.lines)):
            found = [
                check(rules, match)
                for pattern, check in CLAIMS
                if (match := re.fullmatch(pattern, sentence))
            ]
            if not any(found):
                wrong.append(sentence)
    return wrong


@settings(max_examples=300, deadline=None)
@given(rule_sets())
def test_every_sentence_of_a_generated_sets_card_is_true_of_it(rules: RuleSet) -> None:
    assert untrue_sentences(rules) == []


def test_every_sentence_of_every_presets_card_is_true_of_it() -> None:
    for preset in PRESETS.values():
        assert untrue_sentences(preset) == [], preset.key


def test_runs_of_three_are_said_to_be_three_or_more_cards() -> None:
    rounds = tuple(
        replace(spec, contract=replace(spec.contract, run_length=3)) for spec in MAY_I.rounds
    )
    tiebreaker = MAY_I.scoring.tiebreaker_round
    scoring = replace(
        MAY_I.scoring,
        tiebreaker_round=replace(tiebreaker, contract=replace(tiebreaker.contract, run_length=3)),
    )
    lines = [
        line.render()
        for line in rules_card(replace(MAY_I, rounds=rounds, scoring=scoring))[1].lines
    ]
    assert "A run is 3 or more cards of one suit in sequence." in lines
    assert "The ace is low only: A-2-3, never Q-K-A." in lines
    assert not any("four or more" in line or "4 or more" in line for line in lines)


def test_decks_without_jokers_say_no_joker_is_wild_or_worth_anything() -> None:
    decks = tuple(replace(rule, jokers_base=0, jokers_per_player=0) for rule in MAY_I.decks)
    rules = replace(MAY_I, decks=decks, melds=replace(MAY_I.melds, joker_swap=True))
    text = "\n".join(line.render() for section in rules_card(rules) for line in section.lines)
    assert "There are no jokers." in text
    assert "2 to 6 players: 2 decks and no jokers." in text
    assert "Jokers are wild" not in text and "Joker:" not in text and "joker in a run" not in text
