"""Saving a round's end, or a correction: its rules checked (rules/round_end), then written
with its history entry in one transaction, and the game's state derived once from the facts
that makes in memory (`dataclasses.replace` of the ones read with the lock, as games/writes.py
does for the round being played): nothing is read back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any, NamedTuple

from ..extensions import db
from ..models import Round
from ..rules.errors import RuleError
from ..rules.game_facts import GameFacts, ResultFacts, RoundFacts
from ..rules.game_state import GameState
from ..rules.hand_warnings import HandWarning, acknowledged
from ..rules.messages import N_, msg
from ..rules.round_end import Hand, checked_end, end_warnings
from . import game_links, history, pending_hands
from .actions import round_row
from .opening import changed
from .refusals import Conflict
from .state import game_state


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
    went_out: int | None,
    hands: Mapping[int, Hand],
    cut_bonus_seat: int | None = None,
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
    end = checked_end(state, number, went_out, hands, cut_bonus_seat)
    warnings = end_warnings(state, number, end)
    if confirmed is not True and not acknowledged(warnings, confirmed or None):
        raise Unconfirmed(warnings)
    game = game_links.game_row(state.facts.id)
    stored = next((played for played in game.rounds if played.number == number), None)
    row = stored or round_row(game, state.current)
    before = history.snapshot(row)
    history.restore(row, end.facts)
    saved = history.snapshot(row)
    # Who entered each hand: the phones' entries saved unchanged are named in the history.
    phones = pending_hands.settle(game.id, number, state.facts.entered_in(number), end.facts)
    history.add(
        game,
        "result",
        action_id,
        round_number=number,
        before=before,
        after=saved if not phones else {**(saved or {}), "from_phones": phones},
    )
    db.session.flush()  # the new round's id; a refusal of the database comes before the rules'
    facts = _saved_facts(state, _round_of(state, row), end.facts, game.version, game.updated_at)
    # The rules check the whole game again (a correction can change later rounds), from the
    # facts in memory: the state they make is the answer, and a refusal writes nothing.
    try:
        after = game_state(facts, state.rules)
    except RuleError:
        db.session.rollback()
        raise
    db.session.commit()
    changed(after)
    return Saved(after, warnings)


def _round_of(state: GameState, row: Round) -> RoundFacts:
    """The saved round's facts before its end: as read, or its new row's (its first fact)."""
    known = state.facts.round(row.number)
    if known is not None:
        return known
    tied = None if row.tiebreak_seats is None else tuple(row.tiebreak_seats)
    return RoundFacts(id=row.id, number=row.number, dealer=row.dealer, tiebreak_seats=tied)


def _saved_facts(
    state: GameState,
    played: RoundFacts,
    end: Mapping[str, Any],
    version: int,
    updated_at: datetime,
) -> GameFacts:
    """The game's facts once the round's end is written: its hands in order of seat (as
    games/facts.py reads them), the version history.add moved on, the round's entries from the
    phones cleared (pending_hands.settle). The open calls stay as they were: saving closes none."""
    hands = sorted((ResultFacts(**hand) for hand in end["results"]), key=lambda hand: hand.seat)
    ended = replace(
        played,
        ended_by_stock=end["ended_by_stock"],
        cut_bonus_seat=end["cut_bonus_seat"],
        results=tuple(hands),
    )
    game = state.facts
    return replace(
        game,
        version=version,
        updated_at=updated_at,
        rounds=game.with_round(ended),
        entered=tuple(hand for hand in game.entered if hand.round_number != played.number),
    )
