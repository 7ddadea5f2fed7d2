"""The hands entered on the seats' phones, for the scorekeeper: listed by name on the round
screen and the end-of-round form, put into that form's blank hands, sent back with a note.

Saving stays the end-of-round form's (rounds.update): the round screen's one tap posts the
entries as that form's fields, so they are checked and saved as typed ones are.
"""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for
from werkzeug.wrappers import Response

from ..games import seat_hands
from ..games.opening import open_for_change, open_for_read, reread
from ..games.pending_hands import PendingHand
from ..games.refusals import status_of
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.round_end import entered_points
from .game_door import GAMES, current_access
from .rendering import field_errors, respond, wants_fragment

bp = Blueprint("pending_hands", __name__, url_prefix="/rounds/<int:number>/pending")
PAGE, REGION = "rounds/edit.html", "seats/_hands.html"


def entries_of(state: GameState, number: int) -> dict[int, PendingHand]:
    """The entries of round `number` from the phones, while it is the round being played."""
    current = state.current
    if current is None or current.number != number:
        return {}
    return state.facts.entered_in(number)


def _region(state: GameState, number: int, status: int = 200, **context: object) -> Response:
    """The entries' region (htmx) on the page it was tapped on, else that page."""
    on_form = request.values.get("on") == "form"
    if not wants_fragment():
        if on_form:
            return redirect(
                url_for("game.rounds.edit", game_id=state.facts.id, number=number), code=303
            )
        return redirect(url_for("game.show", game_id=state.facts.id), code=303)
    return respond(PAGE, REGION, status, state=state, on_form=on_form, **context)


@bp.get("")
def show(game_id: int, number: int) -> Response:
    """The round's entries from the phones, for the end-of-round form to follow live."""
    GAMES.require_edit()
    return _region(open_for_read(game_id, current_access()), number)


@bp.post("/<int(max=999):seat>/send-back")
def send_back(game_id: int, number: int, seat: int) -> Response:
    """Send a seat's entry back to its phone with a short note; the phone shows it at once."""
    GAMES.require_edit()
    state = open_for_change(game_id, current_access())
    try:
        seat_hands.send_back(state, seat, number, request.form.get("note", ""))
    except RuleError as error:
        errors = field_errors(error, state.rules)
        return _region(state, number, status_of(error), hand_errors=errors, refused_seat=seat)
    return _region(reread(game_id), number)


@bp.app_template_global()
def pending_hands_of(state: GameState) -> dict[int, PendingHand]:
    """The round's hands entered on the seats' phones, by seat."""
    current = state.current
    return state.facts.entered_in(None if current is None else current.number)


@bp.app_template_global()
def ready_to_save(state: GameState, entries: dict[int, PendingHand]) -> bool:
    """Whether the round saves with one tap from the phones' entries."""
    return seat_hands.ready_to_save(state, entries)


@bp.app_template_global()
def pending_points(state: GameState, hand: PendingHand) -> int | None:
    """What a hand entered on a phone counts."""
    return entered_points(state, hand)
