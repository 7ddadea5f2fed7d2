"""What the API reads about hands and melds beyond their shape: the cards in play, contracts."""

from __future__ import annotations

from ..rules.deal import Deal, deal_for
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.hand_warnings import HandWarning
from ..rules.laydown import BOOK, MeldCheck, check_book, check_contract, check_run
from ..rules.messages import N_, Message, msg
from ..rules.playing_cards import Card
from ..rules.round_end import setup_for
from ..rules.round_entry import Hand, RoundEnd, cards_of
from ..rules.ruleset import RuleSet
from ..rules.tally import cards_points, in_play_refusal
from .check_requests import Laydown, OneMeld, TallyRequest
from .fields import MAX_NUMBER
from .problems import Problem
from .requests import RoundResult


def warnings_at_hands(warnings: tuple[HandWarning, ...]) -> dict[str, list[Message]]:
    """A round's unconfirmed warnings as a problem's errors, each under its hand."""
    errors: dict[str, list[Message]] = {}
    for warning in warnings:
        errors.setdefault(f"hands.{warning.seat}", []).append(warning.message)
    return errors


def round_end_of(result: RoundResult, state: GameState, number: int) -> RoundEnd:
    """A round's end as the body says it, tapped cards checked against the cards in play;
    else 422 with every hand's refusal."""
    setup = round_setup(state, number)
    out = result.went_out
    hands = {} if out is None else {out: Hand(went_out=True)}  # who went out holds no cards
    errors: dict[str, list[Message]] = {}
    for key, given in result.hands.items():
        if int(key) == out:
            continue
        if given.points is not None:
            hands[int(key)] = Hand(points=given.points)
            continue
        tapped = given.cards if given.cards is not None else given.counts or {}
        try:
            if setup is not None:  # a round not played yet is refused by the action
                points_of(tapped, state.rules, setup, f"hands.{key}")
            hands[int(key)] = Hand(cards=cards_of(tapped))
        except RuleError as error:
            errors[f"hands.{key}"] = [error.message]
    if errors:
        raise Problem(422, errors=errors)
    return RoundEnd(hands, out is None, result.cut_bonus_seat)


def tally(request: TallyRequest) -> int:
    """Penalty points of a hand at a table of this many players and decks."""
    setup = deal_for(request.ruleset, request.players, 1, 0, request.decks)
    if request.cards is not None:
        return points_of(request.cards, request.ruleset, setup, "cards")
    return points_of(request.counts or {}, request.ruleset, setup, "counts")


def points_of(tapped: list[Card] | dict[str, int], rules: RuleSet, setup: Deal, field: str) -> int:
    """Penalty points of tapped cards within the cards in play; errors under `field`."""
    try:
        points = cards_points(cards_of(tapped), rules, setup.decks, setup.jokers)
    except RuleError as error:
        raise RuleError(error.message, field=field) from error
    if points > MAX_NUMBER:  # only a house rule set with absurd card values gets here
        raise RuleError(msg(N_("That hand is worth more points than a score can hold.")), field)
    return points


def round_setup(state: GameState, number: int) -> Deal | None:
    """The decks and jokers a round is played with; None for a round not yet played."""
    current = state.current
    if current is not None and current.number == number:
        return current.setup
    record = state.rounds.get(number)
    if record is None or not record.results:
        return None
    return setup_for(state, number)


def check_meld(rules: RuleSet, kind: str, cards: list[Card], number: int | None) -> MeldCheck:
    """One book or run, at the lengths of a round's contract when a round is named."""
    if number is None:
        return check_book(cards, rules) if kind == BOOK else check_run(cards, rules)
    if not 1 <= number <= len(rules.rounds):
        reason = msg(N_("There is no round %(number)s in this game."), number=number)
        raise RuleError(reason, field="round")
    spec = rules.round_spec(number)
    contract, exact = spec.contract, rules.exact_in(spec)  # lifted in the sheet's round 7
    if kind == BOOK:
        return check_book(cards, rules, contract.book_length, exact)
    return check_run(cards, rules, contract.run_length, exact)


def check_melds(request: OneMeld | Laydown) -> MeldCheck:
    """Check one book or run, or a laydown against a round's contract, with no card more
    often than the decks of a table of `players` hold it."""
    setup = deal_for(request.ruleset, request.players, 1, 0, request.decks)
    melds = [request.meld] if isinstance(request, OneMeld) else request.melds
    cards = [card for meld in melds for card in meld]
    refusal = in_play_refusal(cards, setup.decks, setup.jokers)
    if refusal is not None:
        return MeldCheck(False, refusal)
    if isinstance(request, OneMeld):
        return check_meld(request.ruleset, request.kind, request.meld, request.round)
    return check_contract(request.melds, request.ruleset, request.round)
