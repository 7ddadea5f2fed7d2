"""Each player counts their own hand: a seat enters it on its phone, the scorekeeper saves the
round, changes an entry first, or sends it back with a note (docs/RULES.md 11).

A seat's entry is a round's end of one hand (`rules.round_entry.RoundEnd`), checked by the rules
the end-of-round form checks a hand by (`rules.round_end.check_entry`), and only one player may
say they went out. The seat always comes from the link.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.messages import N_, msg
from ..rules.round_end import check_entry, entered_points
from ..rules.round_entry import RoundEnd
from . import pending_hands, writes
from .pending_hands import NOTE_LENGTH, PendingHand


def submit(
    state: GameState, seat: int, number: int, end: RoundEnd, action_id: str | None = None
) -> PendingHand:
    """Enter a seat's hand for the round (its game locked), in place of its earlier entry,
    pending until the scorekeeper saves the round; a double tap enters it once."""
    entered = state.facts.entered_in(number)  # the version read with the game's lock
    earlier = entered.get(seat)
    if action_id and earlier is not None and earlier.action_id == action_id:
        return earlier
    check_entry(state, number, seat, end, entered)
    hand = end.hands[seat]
    values = {
        "went_out": hand.went_out,
        "points": None if hand.went_out or hand.cards else hand.points,
        "cards": None if hand.went_out else hand.counts(),
        "cut_bonus": end.cut_bonus_seat == seat,
        "note": None,
        "action_id": action_id or None,
    }
    made, entries = pending_hands.enter(state.facts, number, seat, values)
    after = {"went_out": hand.went_out, "points": entered_points(state, made)}
    writes.change(state, {"entered": entries}, "hand_entered", None, number, seat=seat, after=after)
    return made


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
