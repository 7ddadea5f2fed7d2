"""The scorekeeper plays too: the edit link's phone says once which player it is ("I am Oma"),
remembered for that game in this browser's session, and the round screen shows that seat's pad.
Its hand goes through the seat's own entry path (pages/seat_hands, games/seat_hands.submit), so
the history names the seat and the one-tap save counts it as any phone's hand."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, session, url_for
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from ..games.opening import open_for_change, open_for_read
from ..rules.game_state import GameState
from .game_door import current_access
from .posted import posted_int
from .rendering import go_to
from .seat_hand_form import hand_context, seat_form
from .seat_hands import enter_hand, tap_hand
from .seats import MAX_SEAT

bp = Blueprint("keeper_seat", __name__)
PAGE = "games/show.html"
SESSION_KEY = "keeper_seats"
MOST = 20  # games remembered per browser: the session is a cookie


def remembered_seat(game_id: int) -> int | None:
    """The seat this browser's scorekeeper holds in the game, if it said so."""
    seat = session.get(SESSION_KEY, {}).get(str(game_id))
    return seat if isinstance(seat, int) else None


def _keeper_seat(game_id: int, state: GameState) -> int:
    """The seat the scorekeeper holds in the round being played: 403 for another link, 404
    when it holds none (nothing to enter a hand for)."""
    if not current_access().can_edit:
        abort(403)
    seat = remembered_seat(game_id)
    if seat is None or state.current is None or seat not in state.current.seats:
        abort(404)
    return seat


@bp.post("/keeper-seat")
def choose(game_id: int) -> Response:
    """Remember which player this scorekeeper's phone is for this game (none: forget it)."""
    if not current_access().can_edit:
        abort(403)
    state = open_for_read(game_id, current_access())
    seat = posted_int("seat", high=MAX_SEAT)
    kept = {
        key: value for key, value in session.get(SESSION_KEY, {}).items() if key != str(game_id)
    }
    if seat is not None:
        if seat >= len(state.names):
            abort(422)
        kept = {str(game_id): seat, **dict(list(kept.items())[: MOST - 1])}
    session[SESSION_KEY] = kept
    return go_to(url_for("game.show", game_id=game_id) + "#keeper-seat")


@bp.post("/keeper-seat/hand")
def enter(game_id: int) -> Response:
    """Send the scorekeeper's own hand, as the seat's phone would (named as the seat)."""
    state = open_for_change(game_id, current_access())
    seat = _keeper_seat(game_id, state)
    return enter_hand(state, seat, PAGE, url_for("game.show", game_id=game_id))


@bp.post("/keeper-seat/hand/tap")
def tap_card(game_id: int) -> Response:
    """Add a tapped card to the scorekeeper's own pad (or clear it), with the running sum."""
    state = open_for_read(game_id, current_access())
    return tap_hand(state, _keeper_seat(game_id, state), PAGE)


@bp.app_template_global()
def keeper_pad(state: GameState, form: FlaskForm | None = None) -> dict[str, Any] | None:
    """The scorekeeper's own seat and its pad (as posted, or from its entry), if it holds one
    in the round being played."""
    seat = remembered_seat(state.facts.id)
    if seat is None or state.current is None or seat not in state.current.seats:
        return None
    form = form if form is not None else seat_form(state, seat)
    return {"seat": seat, **hand_context(state, seat, form)}
