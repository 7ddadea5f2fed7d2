"""A round's end: who went out, each other hand, the cut; every rule it must pass (RULES.md 5-7).

Live entry (both front doors, through games/round_end.save_result) and a restore's replay
(tables/backup/replay.py) check a round here, against the game's state, and get the facts the
history stores; a refusal is a RuleError at the field it concerns ("hands.2", "went_out").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .deal import Deal, deal_for, tiebreaker_deal
from .errors import RuleError
from .game_facts import EnteredHand
from .game_state import GameState
from .hand_totals import HandLimits, check_total, hand_limits
from .hand_warnings import HandWarning, WarnedHand, hand_warnings
from .messages import N_, msg
from .round_entry import Hand, RoundEnd, cards_of
from .scoring import HandResult, check_cut_bonus
from .stock import stock_ending_refusal
from .tally import cards_points

MAX_POINTS = 10_000  # more than any hand can hold: a typing slip


@dataclass(frozen=True)
class CheckedEnd:
    """A round's end as the rules accept it: who plays it, each hand scored, the stored facts."""

    seats: tuple[int, ...]
    results: list[HandResult]
    facts: dict[str, Any]  # as history.snapshot has it: how it ended and every hand
    limits: dict[int, HandLimits]  # what each hand could hold, by seat


def checked_end(state: GameState, number: int, end: RoundEnd) -> CheckedEnd:
    """Every rule a round's end must pass, and the facts it stores."""
    seats = _round_seats(state, number)
    if sum(hand.went_out for hand in end.hands.values()) > 1:
        raise RuleError(msg(N_("Only one player can go out in a round.")), field="went_out")
    if end.cut_bonus_seat is not None and end.cut_bonus_seat not in seats:
        raise RuleError(msg(N_("That player is not in this round.")), field="cut_bonus_seat")
    check_cut_bonus(state.rules, end.cut_bonus_seat, state.cutter_of(number))
    check_stock_ending(state, number, end.went_out)
    limits = round_limits(state, number)
    results = [_hand_result(state, seat, end, limits[seat]) for seat in seats]
    return CheckedEnd(seats, results, _stored(seats, results, end), limits)


def check_stock_ending(state: GameState, number: int, went_out: int | None) -> None:
    """Nobody goes out of a round the stock ended; the stock ends a round only at its last
    run-out (RULES.md 5)."""
    current = state.current
    if current and number == current.number and current.ended_by_stock and went_out is not None:
        raise RuleError(msg(N_("The stock ended this round: nobody went out.")), field="went_out")
    if went_out is not None:
        return
    record = state.rounds.get(number)
    if record is not None and record.results and record.ended_by_stock:
        return  # a correction keeps a stock ending recorded before this rule was checked
    refusal = stock_ending_refusal(state.rules, record.run_outs if record is not None else 0)
    if refusal is not None:
        raise RuleError(refusal, field="went_out")


def hand_refusals(state: GameState, number: int, end: RoundEnd) -> dict[int, RuleError]:
    """Every hand's refusal at once, by seat, so a form shows them all instead of the first."""
    refusals: dict[int, RuleError] = {}
    limits = round_limits(state, number)
    for seat in _round_seats(state, number):
        try:
            _hand_result(state, seat, end, limits[seat])
        except RuleError as error:
            refusals[seat] = error
    return refusals


def end_warnings(state: GameState, number: int, end: CheckedEnd) -> tuple[HandWarning, ...]:
    """The hands worth a second look (a zero without going out, a high hand), each named."""
    hands = [
        WarnedHand(seat, state.names[seat], result, end.limits[seat])
        for seat, result in zip(end.seats, end.results, strict=True)
    ]
    return hand_warnings(hands)


def check_entry(
    state: GameState, number: int, seat: int, end: RoundEnd, entered: Mapping[int, EnteredHand]
) -> None:
    """A hand entered on that player's own phone (docs/RULES.md 11), for the round being
    played, checked alone as a round's end checks it among the others: the cards in play, the
    most a hand can be worth (§6), no cards for who went out, the cut bonus for the round's
    cutter alone; and one player out at most, the stock's ending allowing."""
    _check_playing(state, number, seat)
    if end.went_out == seat:
        check_stock_ending(state, number, seat)
        other = next((o for o, hand in entered.items() if o != seat and hand.went_out), None)
        if other is not None and entered[other].waiting:
            message = msg(N_("%(name)s already said they went out."), name=state.names[other])
            raise RuleError(message, field="went_out")
    try:
        check_cut_bonus(state.rules, end.cut_bonus_seat, state.cutter_of(number))
        _hand_result(state, seat, end, limits_for(state, number, seat))
    except RuleError as error:  # at the fields of the seat's pad, not the round form's
        field = "cut_bonus" if error.field == "cut_bonus_seat" else "points"
        raise RuleError(error.message, field=field) from error


def _check_playing(state: GameState, number: int, seat: int) -> None:
    """The round being played, which must be the one a phone entered its hand for."""
    current = state.current
    if current is None:
        raise RuleError(msg(N_("This game is over.")), field="game")
    if number > current.number:
        raise RuleError(msg(N_("That round has not been played yet.")), field="round")
    if number != current.number:
        message = N_("Round %(number)s is saved already: enter your hand for round %(now)s.")
        raise RuleError(msg(message, number=number, now=current.number), field="round")
    if seat not in current.seats:
        raise RuleError(msg(N_("That player is not in this round.")), field="seat")


def entered_points(state: GameState, entry: EnteredHand) -> int | None:
    """What a hand entered on a phone counts: 0 for going out, its typed points, or its
    cards' sum (None when the cards no longer fit the round, which the save then refuses)."""
    if entry.went_out or not entry.cards:
        return 0 if entry.went_out else entry.points
    setup = setup_for(state, entry.round_number)
    try:
        return cards_points(cards_of(entry.cards), state.rules, setup.decks, setup.jokers)
    except RuleError:
        return None


def _round_seats(state: GameState, number: int) -> tuple[int, ...]:
    """Who plays round `number`; a round not reached yet is refused."""
    seats = state.seats_of(number)
    if seats is None:
        raise RuleError(msg(N_("That round has not been played yet.")), field="round")
    return seats


def _hand_result(state: GameState, seat: int, end: RoundEnd, limits: HandLimits) -> HandResult:
    """One hand's points: none for who went out, else typed or counted from the cards tapped,
    within the cards in play (`limits`, the seat's); typed points and tapped cards must agree."""
    cut = end.cut_bonus_seat == seat
    hand = end.hands.get(seat)
    if seat == end.went_out:
        if hand is not None and (hand.points or hand.cards):
            message = msg(
                N_("%(name)s went out and holds no cards: clear the points entered for them."),
                name=state.names[seat],
            )
            raise RuleError(message, field=f"hands.{seat}")
        return HandResult(went_out=True, cut_bonus=cut)
    if hand is None or (hand.points is None and hand.cards is None):
        raise RuleError(
            msg(N_("Enter the points or the cards left in hand.")), field=f"hands.{seat}"
        )
    points = _points(state, limits, seat, hand)
    if not 0 <= points <= MAX_POINTS:
        message = msg(N_("Points are a whole number from 0 to %(most)s."), most=MAX_POINTS)
        raise RuleError(message, field=f"hands.{seat}")
    check_total(limits, points, field=f"hands.{seat}")
    return HandResult(points=points, cut_bonus=cut)


def _points(state: GameState, limits: HandLimits, seat: int, hand: Hand) -> int:
    """A hand's points as typed, or as its tapped cards count."""
    if hand.cards is None:
        return hand.points or 0
    try:
        points = cards_points(hand.cards, state.rules, limits.decks, limits.jokers)
    except RuleError as error:
        raise RuleError(error.message, field=f"hands.{seat}") from error
    if hand.points is not None and hand.points != points:
        # Two answers for one hand: the table decides which, the app never picks one.
        message = msg(
            N_("%(typed)s points were typed but the tapped cards count %(counted)s: keep one."),
            typed=hand.points,
            counted=points,
        )
        raise RuleError(message, field=f"hands.{seat}")
    return points


def limits_for(state: GameState, number: int, seat: int) -> HandLimits:
    """What this player's hand can hold at the end of round `number`: the decks and jokers
    of this table, and the buys they made in that round."""
    setup = setup_for(state, number)
    buys = state.buys_in(number)[seat]
    return hand_limits(state.rules, number, setup.decks, setup.jokers, buys)


def round_limits(state: GameState, number: int) -> dict[int, HandLimits]:
    """limits_for every seat of round `number` at once: the set-up found once, the limits
    once for each number of buys (a round's end with 8 hands, each checked and then warned
    about, made 1,890 function calls finding them 16 times; now 147)."""
    setup = setup_for(state, number)
    buys = state.buys_in(number)
    made: dict[int, HandLimits] = {}
    for count in {buys[seat] for seat in _round_seats(state, number)}:
        made[count] = hand_limits(state.rules, number, setup.decks, setup.jokers, count)
    return {seat: made[buys[seat]] for seat in _round_seats(state, number)}


def setup_for(state: GameState, number: int) -> Deal:
    """The deck set-up a round was played with, to check tapped cards against."""
    if number > len(state.rules.rounds):
        seats = len(_round_seats(state, number))
        return tiebreaker_deal(state.rules, seats, 0, decks=state.facts.decks)
    # Decks and jokers depend on the table, not the round: round 1's set-up answers for all.
    return deal_for(state.rules, state.players, 1, state.facts.first_dealer, state.facts.decks)


def _stored(seats: Sequence[int], results: Sequence[HandResult], end: RoundEnd) -> dict[str, Any]:
    """A round's end as the history stores it; tapped cards are kept to settle disputes, and
    the seats whose own phones entered their hands unchanged are named."""
    went_out = end.went_out
    stored: dict[str, Any] = {
        "ended_by_stock": went_out is None,
        "cut_bonus_seat": end.cut_bonus_seat,
        "results": [
            {
                "seat": seat,
                "went_out": seat == went_out,
                "points": result.points,
                "cards": end.hands[seat].counts() if seat in end.hands else None,  # none out
            }
            for seat, result in zip(seats, results, strict=True)
        ],
    }
    phones = [seat for seat in seats if seat in end.phones]
    return stored | {"from_phones": phones} if phones else stored
