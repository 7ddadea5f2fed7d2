"""Saving a round's end, or a correction: its rules checked (rules/round_end), then written
with its history entry in one transaction of plain statements (games/writes.end_round), and
the game's state derived once from the facts that makes in memory (`dataclasses.replace` of
the ones read with the lock, as for every change of a round): nothing is read back, no ORM
object is made."""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.hand_warnings import HandWarning, acknowledged
from ..rules.messages import N_, msg
from ..rules.round_end import checked_end, end_warnings
from ..rules.round_entry import RoundEnd, unchanged_from_phones
from . import history, pending_hands, writes
from .refusals import Conflict


class Saved(NamedTuple):
    """A saved round's end: the game's state after it (None for a repeated action id), and
    the warnings the table saw."""

    state: GameState | None
    warnings: tuple[HandWarning, ...]


class Unconfirmed(RuleError):
    """Hands worth a second look that the table has not confirmed: nothing was saved."""

    def __init__(self, warnings: tuple[HandWarning, ...]) -> None:
        first = warnings[0]
        super().__init__(first.message, field=f"hands.{first.seat}")
        self.warnings = warnings


def save_result(
    state: GameState,
    number: int,
    end: RoundEnd,
    action_id: str | None = None,
    base_version: int | None = None,
    confirmed: bool | str = True,
) -> Saved:
    """Save or correct how a round ended; answers the new state and its warnings (a zero,
    a high hand).

    `confirmed` True saves whatever the warnings; False or a form's token saves only when
    there are none or the token acknowledges exactly these, else raises Unconfirmed.
    Every refusal comes before anything is read from storage beyond `state`.
    """
    if history.already_done(state.facts, action_id):
        return Saved(None, ())
    if base_version is not None and history.changes_since(state.facts, base_version, number):
        message = msg(
            N_(
                "Round %(number)s was changed on another phone meanwhile. The form shows "
                "its values now: check them and save again."
            ),
            number=number,
        )
        raise Conflict(message, field="round")
    game = state.facts
    # Who entered each hand: the phones' entries saved unchanged are named in the history.
    phones = unchanged_from_phones(end, game.entered_in(number))
    checked = checked_end(state, number, replace(end, phones=phones))
    warnings = end_warnings(state, number, checked)
    if confirmed is not True and not acknowledged(warnings, confirmed or None):
        raise Unconfirmed(warnings)
    record = game.round(number) or writes.round_to_change(state)  # not stored: the current one
    before = history.snapshot(record)
    ended = writes.end_round(record, checked.facts)
    pending_hands.settle(game.id, number, game.entered_in(number))
    # The rules check the whole game again (a correction can change later rounds), from the
    # facts in memory: the state they make is the answer, and a refusal writes nothing.
    after = writes.commit(
        state,
        ended,
        "result",
        action_id,
        entered=tuple(hand for hand in game.entered if hand.round_number != number),
        before=before,
        after=checked.facts,
    )
    return Saved(after, warnings)
