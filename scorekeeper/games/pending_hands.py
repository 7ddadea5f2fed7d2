"""Hands entered on the seats' own phones, as stored: pending until the scorekeeper saves the
round, or sent back with a note (docs/RULES.md 11).

A pending hand is no fact of the round's play, but a fact of the game's version: entering or
sending one back is a change like any other (games/writes.change: a history entry naming the
seat, or the scorekeeper's note, and the version moved once), so every poll shows it within 2 s.
Saving the round clears the round's pending hands in the same transaction (`settle`); its history
entry names the hands that came from the phones unchanged (rules/round_entry.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy import delete, insert, update

from ..extensions import db
from ..models import SeatHand, utcnow
from ..rules.game_facts import EnteredHand, GameFacts

PENDING, SENT_BACK = "pending", "sent_back"
NOTE_LENGTH = 140  # a word or two for the player, not a letter


PendingHand = EnteredHand  # the name the service and its doors use


def enter(
    game: GameFacts, number: int, seat: int, values: dict[str, Any]
) -> tuple[PendingHand, tuple[PendingHand, ...]]:
    """Store a seat's entry for the round in place of its earlier one, pending again, at the
    version the change makes (the caller holds the game's lock and writes the change); the
    entry, and the game's entries with it."""
    db.session.execute(
        delete(SeatHand).where(
            SeatHand.game_id == game.id, SeatHand.round_number == number, SeatHand.seat == seat
        )
    )
    row = {"game_id": game.id, "round_number": number, "seat": seat, "status": PENDING}
    stored = row | values | {"version": game.version + 1, "submitted_at": utcnow()}
    db.session.execute(insert(SeatHand), [stored])
    hand = PendingHand(seat, number, values["went_out"], values["points"], values["cards"],
                       values["cut_bonus"], PENDING, None, values["action_id"])  # fmt: skip
    return hand, _with(game, hand)


def send_back(
    game: GameFacts, hand: PendingHand, note: str | None
) -> tuple[PendingHand, tuple[PendingHand, ...]]:
    """Mark a seat's entry sent back with the scorekeeper's note (the caller writes the
    change); the entry as sent back, and the game's entries with it."""
    db.session.execute(
        update(SeatHand)
        .where(
            SeatHand.game_id == game.id,
            SeatHand.round_number == hand.round_number,
            SeatHand.seat == hand.seat,
        )
        .values(status=SENT_BACK, note=note or None)
    )
    sent = replace(hand, status=SENT_BACK, note=note or None)
    return sent, _with(game, sent)


def _with(game: GameFacts, hand: PendingHand) -> tuple[PendingHand, ...]:
    """The game's entries with this one in place of its seat's earlier one of the round, in
    order of round and seat (as games/facts.py reads them)."""
    others = [h for h in game.entered if (h.round_number, h.seat) != (hand.round_number, hand.seat)]
    return tuple(sorted([*others, hand], key=lambda h: (h.round_number, h.seat)))


def settle(game_id: int, round_number: int, entered: Mapping[int, PendingHand]) -> None:
    """Clear the round's entries as it is saved. `entered`: the round's entries in the facts
    read with the game's lock (an entry moves the version on, so they are all of them). The
    caller commits."""
    if entered:
        db.session.execute(
            delete(SeatHand).where(
                SeatHand.game_id == game_id, SeatHand.round_number == round_number
            )
        )
