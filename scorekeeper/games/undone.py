"""What an undo took back, in words, and the round's end it took back for the form to refill."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import Change
from ..rules.messages import N_, Message, msg
from .history import describe, round_label


def undone_message(change: Change, names: tuple[str, ...], regular_rounds: int) -> Message:
    """What an undo took back: "Undone: Round 3 saved (Anna went out, Ben 35, …)"."""
    name = names[change.seat] if change.seat is not None and change.seat < len(names) else ""
    label = round_label(change.round_number, regular_rounds)
    if change.kind == "buy":
        return msg(N_("Undone: %(round)s, a buy by %(name)s"), round=label, name=name)
    if change.kind == "result" and change.after is not None:
        hands = _hands(change.after, names)
        if change.before is None:
            return msg(N_("Undone: %(round)s saved (%(hands)s)"), round=label, hands=hands)
        return msg(N_("Undone: the correction of %(round)s (%(hands)s)"), round=label, hands=hands)
    return msg(N_("Undone: %(change)s"), change=describe(change, names, regular_rounds))


def _hands(end: dict[str, Any], names: tuple[str, ...]) -> tuple[Message | str, ...]:
    """The round's end as entered: who went out (or the stock ending it), then each hand."""
    said: list[Message | str] = []
    if end["ended_by_stock"]:
        said.append(msg(N_("the stock ended it")))
    for result in end["results"]:
        who = names[result["seat"]] if result["seat"] < len(names) else "?"
        if result["went_out"]:
            said.insert(0, msg(N_("%(name)s went out"), name=who))
        else:
            said.append(f"{who} {result['points']}")
    return tuple(said)


def undone_round_end(game_id: int, change_id: int | None, number: int) -> dict[str, Any] | None:
    """The round's end an undo took back, as it was entered, to put back into its form.

    Only a saved round of this game and round that is undone counts: anything else is None.
    """
    if change_id is None:
        return None
    change = db.session.scalar(
        select(Change).where(
            Change.id == change_id,
            Change.game_id == game_id,
            Change.kind == "result",
            Change.round_number == number,
            Change.undone_at.is_not(None),
        )
    )
    return None if change is None else change.after
