"""Hands entered on the seats' own phones, as stored: pending until the scorekeeper saves the
round, or sent back with a note (docs/RULES.md 11).

A pending hand is no fact of the game: entering or sending one back moves the game's version on
without a history entry (as a call does, games/calls.py), so every poll shows it within 2 s.
Saving the round clears the round's pending hands in the same transaction (`settle`); its history
entry names the hands that came from the phones unchanged (rules/round_entry.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import delete, insert, select, update

from ..extensions import db
from ..models import Game, SeatHand, utcnow
from ..rules.game_facts import EnteredHand

PENDING, SENT_BACK = "pending", "sent_back"
NOTE_LENGTH = 140  # a word or two for the player, not a letter


PendingHand = EnteredHand  # the name the service and its doors use


def _as_hand(row: SeatHand) -> PendingHand:
    return PendingHand(
        row.seat,
        row.round_number,
        row.went_out,
        row.points,
        dict(row.cards) if row.cards else None,
        row.cut_bonus,
        row.status,
        row.note,
        row.action_id,
    )


def of_round(game_id: int, round_number: int | None) -> dict[int, PendingHand]:
    """The round's entries from the phones, by seat, read afresh (one indexed query): for a
    change under the game's lock; pages read them from the game's facts (`entered_in`)."""
    if round_number is None:
        return {}
    query = select(SeatHand).where(
        SeatHand.game_id == game_id, SeatHand.round_number == round_number
    )
    return {row.seat: _as_hand(row) for row in db.session.scalars(query.order_by(SeatHand.seat))}


def enter(game_id: int, round_number: int, seat: int, values: dict[str, Any]) -> None:
    """Store a seat's entry for the round in place of its earlier one, pending again, and
    move the game's version on (the caller holds the game's lock and commits)."""
    db.session.execute(
        delete(SeatHand).where(
            SeatHand.game_id == game_id,
            SeatHand.round_number == round_number,
            SeatHand.seat == seat,
        )
    )
    version = _bump(game_id)
    row = {"game_id": game_id, "round_number": round_number, "seat": seat, "status": PENDING}
    db.session.execute(
        insert(SeatHand), [row | values | {"version": version, "submitted_at": utcnow()}]
    )


def send_back(game_id: int, round_number: int, seat: int, note: str | None) -> None:
    """Mark a seat's entry sent back with the scorekeeper's note (the caller commits)."""
    db.session.execute(
        update(SeatHand)
        .where(
            SeatHand.game_id == game_id,
            SeatHand.round_number == round_number,
            SeatHand.seat == seat,
        )
        .values(status=SENT_BACK, note=note or None)
    )
    _bump(game_id)


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


def _bump(game_id: int) -> int:
    """Move the game's version on, under its lock, so every poll shows the entry now."""
    bumped = db.session.execute(
        update(Game)
        .where(Game.id == game_id)
        .values(version=Game.version + 1, updated_at=utcnow())
        .returning(Game.version)
    ).scalar_one()
    return int(bumped)
