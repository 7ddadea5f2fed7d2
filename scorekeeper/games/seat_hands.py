"""Each player counts their own hand: a seat enters it on its phone, the scorekeeper saves the
round, changes an entry first, or sends it back with a note (docs/RULES.md 11).

A seat's entry is checked by the rules the end-of-round form checks a hand by
(`rules.round_end.check_hand`: the cards in play, the bound on a hand, the cut bonus only for the
cutter), and only one player may say they went out. The seat always comes from the link.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from ..rules.errors import RuleError
from ..rules.game_state import CurrentRound, GameState
from ..rules.messages import N_, msg
from ..rules.round_end import Hand, check_hand, setup_for
from ..rules.tally import points_from_counts
from . import pending_hands, writes
from .pending_hands import NOTE_LENGTH, PendingHand


@dataclass(frozen=True)
class Entry:
    """What a seat sends for its hand: went out, typed points, or cards counted per rank."""

    went_out: bool = False
    points: int | None = None
    counts: Mapping[str, int] | None = None
    cut_bonus: bool = False


def _current(state: GameState, number: int, seat: int) -> CurrentRound:
    """The round being played, which must be the one the phone entered its hand for."""
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
    return current


def submit(
    state: GameState, seat: int, number: int, entry: Entry, action_id: str | None = None
) -> PendingHand:
    """Enter a seat's hand for the round (its game locked), in place of its earlier entry,
    pending until the scorekeeper saves the round; a double tap enters it once."""
    current = _current(state, number, seat)
    entered = state.facts.entered_in(number)  # the version read with the game's lock
    earlier = entered.get(seat)
    if action_id and earlier is not None and earlier.action_id == action_id:
        return earlier
    _check(state, current, seat, entry, entered)
    values = {
        "went_out": entry.went_out,
        "points": None if entry.went_out or entry.counts else entry.points,
        "cards": None if entry.went_out or not entry.counts else dict(entry.counts),
        "cut_bonus": entry.cut_bonus,
        "note": None,
        "action_id": action_id or None,
    }
    hand, entries = pending_hands.enter(state.facts, number, seat, values)
    after = {"went_out": entry.went_out, "points": points_of(state, hand)}
    made = {"entered": entries}
    writes.change(state, made, "hand_entered", None, number, seat=seat, after=after)
    return hand


def _check(
    state: GameState,
    current: CurrentRound,
    seat: int,
    entry: Entry,
    entered: Mapping[int, PendingHand],
) -> None:
    """The same rules as the end-of-round form's, for this one hand; one player out at most."""
    if entry.went_out:
        if current.ended_by_stock:
            message = msg(N_("The stock ended this round: nobody went out."))
            raise RuleError(message, field="went_out")
        other = next(
            (hand.seat for hand in entered.values() if hand.went_out and hand.seat != seat),
            None,
        )
        if other is not None and entered[other].waiting:
            message = msg(N_("%(name)s already said they went out."), name=state.names[other])
            raise RuleError(message, field="went_out")
    hand = Hand(points=entry.points, counts=entry.counts or None)
    try:
        check_hand(state, current.number, seat, hand, entry.went_out, entry.cut_bonus)
    except RuleError as error:
        field = "cut_bonus" if error.field == "cut_bonus_seat" else "points"
        raise RuleError(error.message, field=field) from error


def points_of(state: GameState, hand: PendingHand) -> int | None:
    """What an entry counts: 0 for going out, its typed points, or its cards' sum (None when
    the cards no longer fit the round, which the save then refuses)."""
    if hand.went_out:
        return 0
    if not hand.cards:
        return hand.points
    setup = setup_for(state, hand.round_number)
    try:
        return points_from_counts(hand.cards, state.rules, setup.decks, setup.jokers)
    except RuleError:
        return None


def ready_to_save(state: GameState, entries: Mapping[int, PendingHand]) -> bool:
    """Whether every hand of the round being played is in from the phones, waiting, with one
    player out (or none, when the stock ended the round): the round saves with one tap."""
    current = state.current
    if current is None or any(
        seat not in entries or not entries[seat].waiting for seat in current.seats
    ):
        return False
    out = sum(entries[seat].went_out for seat in current.seats)
    return out == (0 if current.ended_by_stock else 1)


def send_back(state: GameState, seat: int, number: int, note: str) -> PendingHand:
    """Send a seat's entry for round `number` back to its phone with a short note (edit link,
    game locked); only the round being played has entries."""
    current = state.current
    playing = current is not None and current.number == number
    entered = state.facts.entered_in(number) if playing else {}
    if seat not in entered:
        name = state.names[seat] if 0 <= seat < len(state.names) else str(seat)
        raise RuleError(msg(N_("%(name)s has no hand waiting."), name=name), field="seat")
    cleaned = clean_note(note)
    sent, entries = pending_hands.send_back(state.facts, entered[seat], cleaned)
    made, after = {"entered": entries}, {"note": cleaned or None}
    writes.change(state, made, "hand_sent_back", None, number, seat=seat, after=after)
    return sent


def clean_note(note: str) -> str:
    """A note for a player: one short line of visible text, or refused with the reason."""
    cleaned = " ".join(note.split())
    if len(cleaned) > NOTE_LENGTH:
        message = msg(N_("A note is at most %(most)s characters."), most=NOTE_LENGTH)
        raise RuleError(message, field="note")
    if any(unicodedata.category(char)[0] == "C" for char in cleaned):
        raise RuleError(msg(N_("A note holds only visible characters.")), field="note")
    return cleaned
