"""What the API reads from a game beyond actions and state: hands, decks, the arbiter."""

from __future__ import annotations

from collections import Counter

from ..games.round_end import Hand, setup_for
from ..games.state import GameState
from ..rules.errors import RuleError
from ..rules.laydown import BOOK, MeldCheck, check_book, check_run
from ..rules.messages import N_, msg
from ..rules.playing_cards import Card
from ..rules.ruleset import RuleSet
from ..rules.table import TableSetup
from ..rules.tally import hand_points, points_from_counts
from .parse import MAX_NUMBER, SEAT_OUTSIDE, Body

Tapped = int | list[Card] | dict[str, int]  # typed points, the cards, or counts per rank


def read_tapped(body: Body, kinds: tuple[str, ...]) -> tuple[Tapped | None, str]:
    """Exactly one of the kinds: {"points": n}, {"cards": "KC 7H"} or {"counts": {"K": 1}}."""
    given = [kind for kind in kinds if body.has(kind)]
    if len(given) != 1:
        body.read.update(kinds)
        listed = ", ".join(kinds)
        body.refuse_whole(msg(N_("Give exactly one of: %(choices)s."), choices=listed), kinds[0])
        return None, kinds[0]
    kind = given[0]
    if kind == "points":
        return int(body.integer(kind)), kind
    if kind == "cards":
        return body.cards(kind, body.value(kind)), kind
    counts = body.child(kind, body.value(kind))
    if counts is None:
        return None, kind
    return {code: int(counts.integer(code)) for code in counts.data}, kind


def read_hand(body: Body, name: str) -> Tapped | None:
    """One player's hand: its points, its cards, or its cards counted per rank."""
    hand = body.child(name, body.value(name))
    return None if hand is None else read_tapped(hand, ("points", "cards", "counts"))[0]


def read_hands(body: Body, state: GameState, number: int, went_out: int | None) -> dict[int, Hand]:
    """A round's hands by seat, tapped cards checked against the cards in play."""
    given = body.child("hands", body.value("hands"))
    if given is None:
        return {}
    setup = round_setup(state, number)
    hands: dict[int, Hand] = {}
    for key in given.data:
        tapped = read_hand(given, key)
        seat = int(key) if key.isascii() and key.isdigit() and len(key) < 4 else None
        if seat is None or seat >= state.players:
            given.refuse(key, msg(SEAT_OUTSIDE, value=key))
        elif tapped is None or (seat == went_out and tapped in (0, [], {})):
            continue  # already refused, or the empty hand of the player who went out
        elif seat == went_out:
            given.refuse(key, msg(N_("The player who went out holds no cards.")))
        elif isinstance(tapped, int):
            hands[seat] = Hand(points=tapped)
        else:
            try:
                if setup is not None:  # a round not played yet is refused by the action
                    points_of(tapped, state.rules, setup, key)
            except RuleError as error:
                given.refuse(key, error.message)
            hands[seat] = Hand(counts=_counts(tapped))
    return hands


def _counts(tapped: list[Card] | dict[str, int]) -> dict[str, int]:
    """Cards counted per rank code, as the score sheet stores them."""
    return tapped if isinstance(tapped, dict) else dict(Counter(c.rank.code for c in tapped))


def points_of(
    tapped: list[Card] | dict[str, int], rules: RuleSet, setup: TableSetup, field: str
) -> int:
    """Penalty points of tapped cards within the cards in play; errors under `field`."""
    try:
        if isinstance(tapped, dict):
            points = points_from_counts(tapped, rules, setup.decks, setup.jokers)
        else:
            points = hand_points(tapped, rules, setup.decks, setup.jokers)
    except RuleError as error:
        raise RuleError(error.message, field=field) from error
    if points > MAX_NUMBER:  # only a house rule set with absurd card values gets here
        raise RuleError(msg(N_("That hand is worth more points than a score can hold.")), field)
    return points


def round_setup(state: GameState, number: int) -> TableSetup | None:
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
    contract, exact = rules.round_spec(number).contract, rules.melds.exact_laydown
    if kind == BOOK:
        return check_book(cards, rules, contract.book_length, exact)
    return check_run(cards, rules, contract.run_length, exact)
