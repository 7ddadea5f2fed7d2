"""Rule sets as data: every setting docs/RULES.md section 9 lets a table change."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from .messages import N_
from .playing_cards import Rank

RANKS, SUITS = 13, 4
CARDS_PER_DECK = RANKS * SUITS
MAY_I_CALL = N_("May I?")  # the standard call: ours, so shown in the table's language


class AceRule(enum.StrEnum):
    """Where an ace may stand in a run."""

    LOW = "low"  # A-2-3-4 only (May I? base game)
    HIGH_OR_LOW = "high_or_low"  # A-2-3-4 or J-Q-K-A, never both
    AROUND = "around"  # also round the corner: Q-K-A-2


class ReshufflePolicy(enum.StrEnum):
    """What happens when the stock runs out."""

    ONCE = "once"  # May I?: re-form once; the second run-out ends the round
    ALWAYS = "always"  # Contract Rummy sheet: re-form every time


class TiebreakPolicy(enum.StrEnum):
    """How a tie on the lowest total is settled."""

    ROUNDS_OUT_THEN_PLAYOFF = "rounds_out_then_playoff"  # May I?
    PLAYOFF = "playoff"  # straight to a tiebreaker round
    SHARED = "shared"  # tied players share the win


class BuyPrecedence(enum.StrEnum):
    """Who gets a discard among several callers."""

    NEAREST_CLOCKWISE = "nearest_clockwise"  # nearest to the discarder's left


class FirstDealer(enum.StrEnum):
    """How the first dealer is chosen."""

    HIGH_CARD = "high_card"
    LOW_CARD = "low_card"
    RANDOM = "random"


class DealPasses(enum.StrEnum):
    """Who deals the next round."""

    LEFT = "left"  # clockwise rotation
    WINNER = "winner"  # the player who went out last round


@dataclass(frozen=True)
class Contract:
    """What must be laid down in a round: books of book_length+ and runs of run_length+."""

    books: int = 0
    runs: int = 0
    book_length: int = 3
    run_length: int = 4

    @property
    def cards_needed(self) -> int:
        """Fewest cards that make this contract (2 books + 1 run = 10)."""
        return self.books * self.book_length + self.runs * self.run_length


@dataclass(frozen=True)
class RoundSpec:
    """One round of the game: contract, cards dealt, final discard, optional buy cap."""

    contract: Contract
    deal: int
    final_discard: bool = True
    buy_cap: int | None = None  # None: the rule set's per-round cap


@dataclass(frozen=True)
class DeckRule:
    """Decks and jokers for a range of player counts; jokers = base + per_player × players."""

    min_players: int
    max_players: int
    decks: int
    jokers_base: int
    jokers_per_player: int = 0

    def jokers_for(self, players: int) -> int:
        """Jokers in play for this many players (the sheet: players − 1)."""
        return max(0, self.jokers_base + self.jokers_per_player * players)


@dataclass(frozen=True)
class BuyRules:
    """The "May I?" buy: caps, penalty cards, precedence."""

    cap_per_round: int | None = 3  # None: unlimited
    cap_per_game: int | None = None  # None: no game-wide cap
    penalty_cards: int = 1
    precedence: BuyPrecedence = BuyPrecedence.NEAREST_CLOCKWISE
    no_twice_in_a_row: bool = False
    turn_player_call_is_buy: bool = True  # May I?: next player calling instead of drawing
    no_buy_after_contract_down: bool = False


@dataclass(frozen=True)
class MeldRules:
    """What makes a legal book, run and laydown."""

    aces: AceRule = AceRule.LOW
    exact_laydown: bool = False
    abutting_runs: bool = True  # same-suit runs may continue each other
    jokers_wild: bool = True
    wild_twos: bool = False
    max_wilds_per_meld: int | None = None
    wilds_never_outnumber_naturals: bool = False
    layoff_same_turn: bool = True  # May I?: lay off from the turn the contract goes down
    layoff_without_drawing: bool = False  # family speed rules
    joker_swap: bool = False


@dataclass(frozen=True)
class ScoringRules:
    """Card values, bonuses and the tiebreak."""

    values: dict[str, int] = field(
        default_factory=lambda: {
            "JK": 15,
            "A": 15,
            **{str(n): n for n in range(2, 11)},
            "J": 10,
            "Q": 10,
            "K": 10,
        }
    )
    cut_bonus: int = 0  # Liverpool: 50 off for an exact cut
    adjustments: bool = False  # signed adjustments (e.g. a short-dealt hand)
    tiebreak: TiebreakPolicy = TiebreakPolicy.ROUNDS_OUT_THEN_PLAYOFF
    tiebreaker_round: RoundSpec = field(
        default_factory=lambda: RoundSpec(Contract(runs=2), deal=10)
    )

    def value_of(self, rank: Rank) -> int:
        """Penalty points of one card of this rank left in hand."""
        return self.values[rank.code]


@dataclass(frozen=True)
class RuleSet:
    """A named, complete set of rules a game is played under."""

    key: str
    name: str
    rounds: tuple[RoundSpec, ...]
    decks: tuple[DeckRule, ...]
    buys: BuyRules = field(default_factory=BuyRules)
    melds: MeldRules = field(default_factory=MeldRules)
    scoring: ScoringRules = field(default_factory=ScoringRules)
    reshuffle: ReshufflePolicy = ReshufflePolicy.ONCE
    shuffle_on_reform: bool = True  # False: turn the discards over unshuffled
    first_dealer: FirstDealer = FirstDealer.HIGH_CARD
    deal_passes: DealPasses = DealPasses.LEFT
    min_players: int = 2
    max_players: int = 8
    recommended_min_players: int = 3
    buy_call: str = MAY_I_CALL  # what the table calls out (a table's own is shown as typed)

    def round_spec(self, number: int) -> RoundSpec:
        """The spec of round `number` (1-based)."""
        return self.rounds[number - 1]

    def buy_cap(self, number: int) -> int | None:
        """Buys allowed per player in round `number`; None means unlimited."""
        spec = self.round_spec(number)
        return spec.buy_cap if spec.buy_cap is not None else self.buys.cap_per_round

    def deck_rule(self, players: int, decks: int | None = None) -> DeckRule | None:
        """The deck rule for this table size, honouring a deck count the table chose."""
        matching = [r for r in self.decks if r.min_players <= players <= r.max_players]
        chosen = [r for r in matching if decks is None or r.decks == decks]
        return chosen[0] if chosen else None

    def jokers_in_play(self, rule: DeckRule, players: int) -> int:
        """Jokers on the table: the deck rule's where jokers are wild, else none (RULES.md 8)."""
        return rule.jokers_for(players) if self.melds.jokers_wild else 0

    def plays_jokers(self) -> bool:
        """Whether any table the set allows plays with jokers (wild, and some deck rule's)."""
        return self.melds.jokers_wild and any(
            rule.jokers_for(players) > 0
            for rule in self.decks
            for players in range(
                max(rule.min_players, self.min_players), min(rule.max_players, self.max_players) + 1
            )
        )

    def cards_in_play(self, rule: DeckRule, players: int) -> int:
        """Every card on the table: 52 a deck and the jokers in play."""
        return CARDS_PER_DECK * rule.decks + self.jokers_in_play(rule, players)

    def with_changes(self, **changes: object) -> RuleSet:
        """A copy with some top-level settings changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def exact_lifted(self, spec: RoundSpec) -> bool:
        """Exact laydown is lifted where every card must go down but the contract holds fewer.

        Contract Rummy round 7: 12 dealt + 1 drawn = 13 cards cannot go down as three runs
        of exactly four with no discard, so one run may be longer (docs/RULES.md 7).
        """
        needed = spec.contract.cards_needed
        return self.melds.exact_laydown and not spec.final_discard and spec.deal + 1 != needed

    def exact_in(self, spec: RoundSpec) -> bool:
        """Whether a round is laid down at exact lengths (docs/RULES.md 7)."""
        return self.melds.exact_laydown and not self.exact_lifted(spec)
