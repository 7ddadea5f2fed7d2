"""Hands entered on the seats' phones through the API: a seat puts its own hand under its seat
link's bearer token; the edit link lists the round's entries and sends one back with a note.
Saving the round stays PUT …/rounds/<n>, which names the entries saved unchanged in the history.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify
from pydantic import Field, StrictBool

from ..games import seat_hands
from ..games.opening import open_for_change, open_for_read
from ..games.pending_hands import NOTE_LENGTH
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.messages import N_, msg
from ..rules.round_entry import Hand, RoundEnd, cards_of
from .access import game_access
from .answer_base import answer
from .fields import MAX_NUMBER, Cards, Counts, Whole
from .openapi import documented
from .problems import Problem
from .reading import read
from .request_base import ABSENT, Body
from .requests import Action
from .seat_answers import PendingHand
from .seats import open_seat


class HandEntry(Action):
    """The seat's own hand for the round being played: it went out, or its points, its cards
    or its cards counted per rank; the cutter may claim the exact cut. It replaces the seat's
    earlier entry and waits, pending, until the scorekeeper saves the round."""

    round: Whole
    went_out: StrictBool = False
    points: Whole = ABSENT
    cards: Cards = ABSENT
    counts: Counts = ABSENT
    cut_bonus: StrictBool = False


class SendBack(Body):
    """Send an entry back to its seat's phone with a short note the player reads."""

    note: str = Field("", max_length=NOTE_LENGTH)


def _entry(body: HandEntry, seat: int) -> RoundEnd:
    """What the body says, as a round's end of the seat's own hand: the cards as sent."""
    if body.went_out and (body.points or body.cards or body.counts):
        raise Problem(
            422, errors={"went_out": [msg(N_("The player who went out holds no cards."))]}
        )
    try:
        cards = cards_of(body.cards or body.counts or {}) or None
    except RuleError as error:
        raise RuleError(error.message, field="points") from error
    hand = Hand(body.went_out, body.points, cards)
    return RoundEnd({seat: hand}, cut_bonus_seat=seat if body.cut_bonus else None)


@documented({200: PendingHand}, HandEntry)
def seat_hand_update(game_id: int) -> tuple[Response, int]:
    """Enter the seat's own hand for the round (replacing its earlier entry); 422 with the
    rules' reason at its field, as the end-of-round form refuses a hand."""
    opened = open_seat(game_id, change=True)
    body = read(HandEntry)
    state = open_for_change(game_id, opened)
    end = _entry(body, opened.seat)
    entered = seat_hands.submit(state, opened.seat, body.round, end, body.action_id)
    return answer(PendingHand.of(state, entered))


def _edit_state(game_id: int, *, change: bool) -> GameState:
    """The game through its edit link (the scorekeeper's): 403 for its view link."""
    access = game_access(game_id, change=change)
    if not access.can_edit:
        raise Problem(403, msg(N_("Only the edit link sees the hands from the phones.")))
    return open_for_change(game_id, access) if change else open_for_read(game_id, access)


@documented({200: list[PendingHand]}, errors=(403,))
def pending_index(game_id: int, number: int) -> tuple[Response, int]:
    """List the hands entered on the seats' phones for round `number` (the round being played;
    any other has none), by seat (edit link only)."""
    state = _edit_state(game_id, change=False)
    current = state.current
    playing = current is not None and current.number == number
    entries = state.facts.entered_in(number) if playing else {}
    listed = [PendingHand.of(state, entry).model_dump(mode="json") for entry in entries.values()]
    return jsonify(listed), 200


@documented({200: PendingHand}, SendBack, errors=(403,))
def pending_send_back(game_id: int, number: int, seat: int) -> tuple[Response, int]:
    """Send a seat's entry back to its phone with a note (edit link only); 422 when the seat
    has no entry waiting in the round being played."""
    state = _edit_state(game_id, change=True)
    body = read(SendBack)
    return answer(PendingHand.of(state, seat_hands.send_back(state, seat, number, body.note)))


def register(bp: Blueprint, game: str) -> None:
    """Add the routes of the hands from the phones to the API, under the game's URL."""
    bp.add_url_rule(f"{game}/seat/hand", view_func=seat_hand_update, methods=["PUT"])
    pending = f"{game}/rounds/<int(max={MAX_NUMBER}):number>/pending"
    bp.add_url_rule(pending, view_func=pending_index, methods=["GET"])
    bp.add_url_rule(
        f"{pending}/<int(max={MAX_NUMBER}):seat>/send-back",
        view_func=pending_send_back,
        methods=["POST"],
    )
