"""Saving a round's end, or a correction: its rules checked (rules/round_end), then written
with its history entry in one transaction of plain statements (games/writes.end_round), and
the game's state derived once from the facts that makes in memory (`dataclasses.replace` of
the ones read with the lock, as for every change of a round): nothing is read back, no ORM
object is made."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.hand_warnings import HandWarning, acknowledged
from ..rules.messages import N_, msg
from ..rules.round_end import checked_end, end_warnings, entered_points
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
    if base_version is not None:
        _check_entries_unchanged(state, number, checked.facts, phones, base_version)
    warnings = end_warnings(state, number, checked)
    if confirmed is not True and not acknowledged(warnings, confirmed or None):
        raise Unconfirmed(warnings)
    record = game.round(number) or writes.round_to_change(state)  # not stored: the current one
    before = history.snapshot(record)
    ended = writes.end_round(record, checked.facts)
    pending_hands.settle(game.id, number, game.entered_in(number))
    playing = state.current is not None and state.current.number == number
    # A call of the round still open is answered by its end: dismissed, in this transaction.
    calls = writes.close_calls(state, None) if playing else None
    # The rules check the whole game again (a correction can change later rounds), from the
    # facts in memory: the state they make is the answer, and a refusal writes nothing.
    after = writes.commit(
        state,
        ended,
        "result",
        action_id,
        calls=calls,
        entered=tuple(hand for hand in game.entered if hand.round_number != number),
        before=before,
        after=checked.facts,
    )
    return Saved(after, warnings)


def _check_entries_unchanged(
    state: GameState,
    number: int,
    saved: Mapping[str, Any],
    phones: tuple[int, ...],
    base_version: int,
) -> None:
    """Refuse a save drawn before a phone entered a hand that the save would replace with
    another (docs/RULES.md 11: the newer entry stands, and the writer is shown it). `phones`:
    the seats whose saved hand is their entry."""
    since = history.changes_since(state.facts, base_version, number, kinds=history.HANDS)
    entered = state.facts.entered_in(number)
    posted = {result["seat"]: result for result in saved["results"]}
    for seat in sorted({change.seat for change in since if change.seat in posted}):
        hand = entered.get(seat)
        if hand is None or not hand.waiting or seat in phones:
            continue
        shown = entered_points(state, hand)
        message = N_("%(name)s changed their hand on their phone: %(now)s, not %(posted)s.")
        said = msg(
            message,
            name=state.names[seat],
            now="?" if shown is None else str(shown),
            posted=str(posted[seat]["points"]),
        )
        raise Conflict(said, field=f"hands.{seat}")
