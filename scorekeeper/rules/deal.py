"""A round's deal: decks, cards dealt, dealer, leader, cutter (docs/RULES.md 2-3, 6, 8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .errors import RuleError
from .messages import N_, Message, msg, nmsg
from .ruleset import Contract, DealPasses, DeckRule, ReshufflePolicy, RoundSpec, RuleSet
from .sheet_words import set_name

TIEBREAK_MIN_PLAYERS = 2
_PLAIN = Contract()  # the default meld lengths, which a contract's name leaves unsaid


@dataclass(frozen=True)
class Deal:
    """A round's deal, what the players need before the cards go round (`deal`: the cards each
    player is dealt); rounds past total_rounds are tiebreaker rounds."""

    round_number: int
    total_rounds: int
    contract: Contract
    deal: int
    final_discard: bool
    decks: int
    jokers: int
    total_cards: int
    dealer: int
    first_player: int
    cutter: int | None
    buy_cap: int | None
    reshuffle: ReshufflePolicy
    warnings: tuple[Message, ...] = ()

    @property
    def is_tiebreaker(self) -> bool:
        """A round after the last is a tiebreaker among the tied players (docs/RULES.md 6)."""
        return self.round_number > self.total_rounds


def round_spec_for(rules: RuleSet, round_number: int) -> RoundSpec:
    """The spec of a round; every round after the last is the tiebreaker round (docs/RULES.md 6)."""
    if round_number < 1:
        raise RuleError(msg(N_("Rounds are counted from 1.")), field="round_number")
    if round_number > len(rules.rounds):
        return rules.scoring.tiebreaker_round
    return rules.round_spec(round_number)


def round_buy_cap(rules: RuleSet, round_number: int) -> int | None:
    """Buys allowed per player in a round: its own cap, else the rule set's; None is unlimited."""
    spec = round_spec_for(rules, round_number)
    return spec.buy_cap if spec.buy_cap is not None else rules.buys.cap_per_round


def deal_for(
    rules: RuleSet,
    players: int,
    round_number: int,
    first_dealer: int,
    decks: int | None = None,
    previous_winners: Sequence[int | None] = (),
) -> Deal:
    """A round's deal: the deal passes clockwise (or to the last winner), dealer's left leads."""
    _check_players(rules, players, rules.min_players)
    if not 1 <= round_number <= len(rules.rounds):
        message = msg(N_("There is no round %(number)s in this game."), number=round_number)
        raise RuleError(message, field="round_number")
    _check_seat(first_dealer, players, "first_dealer")
    dealer = _dealer(rules, players, round_number, first_dealer, previous_winners)
    deal = _deal(rules, round_number, players, dealer, _deck_rule(rules, players, decks))
    if players >= rules.recommended_min_players:
        return deal
    warning = nmsg(
        "The out-of-turn call rarely triggers with %(count)s player.",
        "The out-of-turn call rarely triggers with %(count)s players.",
        players,
    )
    return replace(deal, warnings=(warning,))


def tiebreaker_deal(
    rules: RuleSet, players: int, first_dealer: int, *, playoff: int = 1, decks: int | None = None
) -> Deal:
    """The tiebreaker round's deal (2 runs, deal 10) among the tied players (docs/RULES.md 6)."""
    # Seats here are the tied players' places in their own seat order, 0 to players - 1.
    _check_players(rules, players, TIEBREAK_MIN_PLAYERS)
    if playoff < 1:
        raise RuleError(msg(N_("Tiebreaker rounds are counted from 1.")), field="playoff")
    _check_seat(first_dealer, players, "first_dealer")
    # Another playoff follows only one the stock ended in a tie, so nobody went out: pass left.
    dealer = (first_dealer + playoff - 1) % players
    deck_rule = _deck_rule(rules, players, decks, smaller_table_ok=True)
    return _deal(rules, len(rules.rounds) + playoff, players, dealer, deck_rule)


def seats_around(dealer: int, players: int, *, cuts: bool) -> tuple[int, int | None]:
    """The player on the dealer's left plays first; on their right cuts, when the game cuts."""
    return (dealer + 1) % players, (dealer - 1) % players if cuts else None


def describe_contract(contract: Contract, *, lengths: bool = False) -> tuple[Message, ...]:
    """Name a contract, one part per meld kind ("2 books", "3 runs of 5"); join with " + ".

    Plain lengths go unsaid unless `lengths` asks for every length ("2 books of 3").
    """
    parts: list[Message] = []
    if contract.books and contract.book_length == _PLAIN.book_length and not lengths:
        parts.append(nmsg("%(count)s book", "%(count)s books", contract.books))
    elif contract.books:
        parts.append(
            nmsg(
                "%(count)s book of %(length)s",
                "%(count)s books of %(length)s",
                contract.books,
                length=contract.book_length,
            )
        )
    if contract.runs and contract.run_length == _PLAIN.run_length and not lengths:
        parts.append(nmsg("%(count)s run", "%(count)s runs", contract.runs))
    elif contract.runs:
        parts.append(
            nmsg(
                "%(count)s run of %(length)s",
                "%(count)s runs of %(length)s",
                contract.runs,
                length=contract.run_length,
            )
        )
    return tuple(parts)


def contract_message(contract: Contract, *, lengths: bool = False) -> Message:
    """A contract as one message: "2 books + 1 run", for quoting in a sentence."""
    parts = describe_contract(contract, lengths=lengths)
    if len(parts) == 1:
        return parts[0]
    return msg(N_("%(books)s + %(runs)s"), books=parts[0], runs=parts[1])


def _deal(
    rules: RuleSet, round_number: int, players: int, dealer: int, deck_rule: DeckRule
) -> Deal:
    """Assemble the deal; the Liverpool cut is made by the player to the dealer's right."""
    spec = round_spec_for(rules, round_number)
    leader, cutter = seats_around(dealer, players, cuts=rules.scoring.cut_bonus > 0)
    jokers = rules.jokers_in_play(deck_rule, players)
    return Deal(
        round_number=round_number,
        total_rounds=len(rules.rounds),
        contract=spec.contract,
        deal=spec.deal,
        final_discard=spec.final_discard,
        decks=deck_rule.decks,
        jokers=jokers,
        total_cards=rules.cards_in_play(deck_rule, players),
        dealer=dealer,
        first_player=leader,
        cutter=cutter,
        buy_cap=round_buy_cap(rules, round_number),
        reshuffle=rules.reshuffle,
    )


def _check_players(rules: RuleSet, players: int, fewest: int) -> None:
    """A rule set is played by its own range of table sizes (May I? 2-8, the sheet 3-8)."""
    if not fewest <= players <= rules.max_players:
        message = msg(
            N_("%(name)s is played by %(min)s to %(max)s players, not %(players)s."),
            name=set_name(rules),
            min=fewest,
            max=rules.max_players,
            players=players,
        )
        raise RuleError(message, field="players")


def _check_seat(seat: int, players: int, field: str) -> None:
    """Seats are numbered 0 to players - 1 clockwise."""
    if not 0 <= seat < players:
        message = msg(
            N_("There is no seat %(seat)s at a table of %(players)s."), seat=seat, players=players
        )
        raise RuleError(message, field=field)


def _deck_rule(
    rules: RuleSet, players: int, decks: int | None, *, smaller_table_ok: bool = False
) -> DeckRule:
    """The decks for this table size, or for the smallest table when a tiebreak is smaller still."""
    rule = rules.deck_rule(players, decks)
    if rule is None and smaller_table_ok:
        # Two tied players under the sheet (3-8): they play with the 3-player cards.
        larger = [r for r in rules.decks if players < r.min_players and decks in (None, r.decks)]
        rule = min(larger, key=lambda r: r.min_players, default=None)
    if rule is not None:
        return rule
    params = {"name": set_name(rules), "players": players, "decks": decks}
    if decks is None:
        message = msg(N_("%(name)s has no decks for %(players)s players."), **params)
    else:
        message = msg(N_("%(name)s is not played with %(decks)s decks by %(players)s."), **params)
    raise RuleError(message, field="decks")


def _dealer(
    rules: RuleSet,
    players: int,
    round_number: int,
    first_dealer: int,
    previous_winners: Sequence[int | None],
) -> int:
    """The deal passes left each round, or to whoever went out last round (docs/RULES.md 3, 9)."""
    if rules.deal_passes is DealPasses.LEFT:
        return (first_dealer + round_number - 1) % players
    if len(previous_winners) < round_number - 1:
        message = msg(N_("Who went out in each earlier round decides who deals now."))
        raise RuleError(message, field="previous_winners")
    dealer = first_dealer
    for winner in previous_winners[: round_number - 1]:
        if winner is not None:
            _check_seat(winner, players, "previous_winners")
        # The stock ended that round and nobody went out: the deal passes left as usual.
        dealer = (dealer + 1) % players if winner is None else winner
    return dealer
