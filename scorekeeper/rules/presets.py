"""The named rule sets a table can start from (docs/RULES.md sections 3, 7 and 8)."""

from __future__ import annotations

from dataclasses import replace

from .messages import N_
from .ruleset import (
    AceRule,
    BuyRules,
    Contract,
    DeckRule,
    MeldRules,
    ReshufflePolicy,
    RoundSpec,
    RuleSet,
    ScoringRules,
)

STANDARD_ROUNDS: tuple[RoundSpec, ...] = (
    RoundSpec(Contract(books=2), deal=10),
    RoundSpec(Contract(books=1, runs=1), deal=10),
    RoundSpec(Contract(runs=2), deal=10),
    RoundSpec(Contract(books=3), deal=10),
    RoundSpec(Contract(books=2, runs=1), deal=12),
    RoundSpec(Contract(books=1, runs=2), deal=12),
    RoundSpec(Contract(runs=3), deal=12, final_discard=False),
)

# The marathon adds "4 books" after round 4 and "3 runs of 5" after round 6 (docs/RULES.md 8).
NINE_ROUNDS: tuple[RoundSpec, ...] = (
    *STANDARD_ROUNDS[:4],
    RoundSpec(Contract(books=4), deal=12),
    *STANDARD_ROUNDS[4:6],
    RoundSpec(Contract(runs=3, run_length=5), deal=15),
    STANDARD_ROUNDS[6],
)

# Shanghai's ten deals as commonly published (docs/RULES.md 8); the sources give none.
SHANGHAI_ROUNDS: tuple[RoundSpec, ...] = tuple(
    RoundSpec(contract, deal=11)
    for contract in (
        Contract(books=2),
        Contract(books=1, runs=1),
        Contract(runs=2),
        Contract(books=3),
        Contract(books=1, runs=1, run_length=7),
        Contract(books=2, runs=1, run_length=5),
        Contract(runs=3),
        Contract(books=1, runs=1, run_length=10),
        Contract(books=3, runs=1, run_length=5),
        Contract(runs=3, run_length=5),
    )
)

MAY_I_DECKS: tuple[DeckRule, ...] = (
    DeckRule(min_players=2, max_players=6, decks=2, jokers_base=4),
    DeckRule(min_players=7, max_players=8, decks=3, jokers_base=6),
)

# The sheet: one joker fewer than players; 6-8 players choose three or four decks.
SHEET_DECKS: tuple[DeckRule, ...] = (
    DeckRule(min_players=3, max_players=5, decks=2, jokers_base=-1, jokers_per_player=1),
    DeckRule(min_players=6, max_players=8, decks=3, jokers_base=-1, jokers_per_player=1),
    DeckRule(min_players=6, max_players=8, decks=4, jokers_base=-1, jokers_per_player=1),
)

MAY_I = RuleSet(key="may-i", name=N_("May I?"), rounds=STANDARD_ROUNDS, decks=MAY_I_DECKS)

CONTRACT_RUMMY = RuleSet(
    key="contract-rummy",
    name=N_("Contract Rummy"),
    rounds=STANDARD_ROUNDS,
    decks=SHEET_DECKS,
    buys=BuyRules(cap_per_round=None, no_twice_in_a_row=True, turn_player_call_is_buy=False),
    melds=MeldRules(
        aces=AceRule.HIGH_OR_LOW,
        exact_laydown=True,
        abutting_runs=False,
        layoff_same_turn=False,
        joker_swap=True,
    ),
    reshuffle=ReshufflePolicy.ALWAYS,
    min_players=3,
)

# The parent game (docs/RULES.md 8): the sheet's rounds and meld rules with open buying.
# The sources give no card values; the table enters its own, May I?'s stand until then.
CONTRACT_RUMMY_PROPER = replace(
    CONTRACT_RUMMY,
    key="contract-rummy-proper",
    name=N_("Contract Rummy proper"),
    buys=BuyRules(cap_per_round=None, turn_player_call_is_buy=False),
)

LIVERPOOL = replace(
    CONTRACT_RUMMY,
    key="liverpool",
    name=N_("Liverpool Rummy"),
    scoring=ScoringRules(cut_bonus=50),
)

SHANGHAI = replace(
    CONTRACT_RUMMY,
    key="shanghai",
    name=N_("Shanghai Rummy"),
    rounds=SHANGHAI_ROUNDS,
    buys=replace(CONTRACT_RUMMY.buys, cap_per_round=2),
    scoring=ScoringRules(values={**ScoringRules().values, "JK": 50}),
)

NINE_ROUND_MARATHON = replace(
    MAY_I, key="nine-rounds", name=N_("Nine-round marathon"), rounds=NINE_ROUNDS
)
NO_BUYS = replace(
    MAY_I, key="no-buys", name=N_("May I? without buys"), buys=BuyRules(cap_per_round=0)
)
UNLIMITED_BUYS = replace(
    MAY_I,
    key="unlimited-buys",
    name=N_("May I? with unlimited buys"),
    buys=BuyRules(cap_per_round=None),
)
ACES_HIGH = replace(
    MAY_I,
    key="aces-high",
    name=N_("May I? with aces high"),
    melds=MeldRules(aces=AceRule.HIGH_OR_LOW),
)
ACES_AROUND = replace(
    MAY_I,
    key="aces-around",
    name=N_("May I? with K-A-2 runs"),
    melds=MeldRules(aces=AceRule.AROUND),
)
NO_JOKERS = replace(
    MAY_I,
    key="no-jokers",
    name=N_("May I? without jokers"),
    decks=tuple(replace(rule, jokers_base=0) for rule in MAY_I_DECKS),
    melds=MeldRules(jokers_wild=False),
)
FAMILY_SPEED = replace(
    MAY_I,
    key="family-speed",
    name=N_("May I? family speed rules"),
    melds=MeldRules(layoff_without_drawing=True),
)
FREE_LAYDOWN = replace(
    CONTRACT_RUMMY,
    key="free-laydown",
    name=N_("Contract Rummy free laydown"),
    melds=replace(CONTRACT_RUMMY.melds, exact_laydown=False, abutting_runs=True),
)

HOUSE_KEY = "house"  # a table's own set, whatever key it was sent under


def preset_of(rules: RuleSet) -> RuleSet | None:
    """The preset a rule set is, setting for setting; None for a table's own set."""
    preset = PRESETS.get(rules.key)
    return preset if preset == rules else None


def own_identity(rules: RuleSet) -> RuleSet:
    """A rule set a client sent, under a preset's key only if it is that preset (RULES.md 9).

    A custom set never borrows a preset's identity: its rules card would open with the
    preset's description ("seven rounds") and the record would count it as the preset.
    """
    if rules.key in PRESETS and preset_of(rules) is None:
        return replace(rules, key=HOUSE_KEY)
    return rules


PRESETS: dict[str, RuleSet] = {
    preset.key: preset
    for preset in (
        MAY_I,
        CONTRACT_RUMMY,
        CONTRACT_RUMMY_PROPER,
        LIVERPOOL,
        SHANGHAI,
        NINE_ROUND_MARATHON,
        NO_BUYS,
        UNLIMITED_BUYS,
        ACES_HIGH,
        ACES_AROUND,
        NO_JOKERS,
        FAMILY_SPEED,
        FREE_LAYDOWN,
    )
}
