"""A seat's own hand for the round being played, on its page (/s/<id>/<seat token>/hand): the
end-of-round form's hand pad for one player, entered through games/seat_hands. The seat is
always the link's, never the form's; the scorekeeper's own seat (pages/keeper_seat) enters its
hand through the same two functions, `enter_hand` and `tap_hand`."""

from __future__ import annotations

from flask import Blueprint, request, url_for
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response

from ..games import seat_hands
from ..games.opening import open_for_change, open_for_read
from ..games.refusals import status_of
from ..i18n import translate
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.sheet_words import worded
from .rendering import go_to, respond
from .round_end_form import add_tap, read_form
from .seat_hand_form import hand_context, seat_form
from .seats import PAGE, current_seat, screen, seat_access

bp = Blueprint("hand", __name__)
PAD = "seats/_own_hand.html"


def _hand_page(
    page: str, state: GameState, seat: int, form: FlaskForm, status: int = 200
) -> Response:
    """The seat's pad as posted (a tap, a refusal), or the whole page without htmx."""
    context = {"state": state, "seat": seat, "on": screen(state)}
    return respond(page, PAD, status, **context, **hand_context(state, seat, form))


def enter_hand(state: GameState, seat: int, page: str, done: str) -> Response:
    """Send a seat's hand from its pad, pending until the scorekeeper saves the round, then
    go to `done`; refused at its field with the rules' reason, on `page` without htmx."""
    form = seat_form(state, seat, posted=True)
    if not form.validate():
        return _hand_page(page, state, seat, form, 422)
    try:
        seat_hands.submit(state, seat, form.number.data, read_form(form), form.action_id.data)
    except RuleError as error:
        _refused_at(form, seat, translate(worded(state.rules, error.message)), error.field)
        return _hand_page(page, state, seat, form, status_of(error))
    return go_to(done)


def tap_hand(state: GameState, seat: int, page: str) -> Response:
    """Add a tapped card to a seat's pad (or take one back, or clear it); show the sum."""
    form = seat_form(state, seat, posted=True)
    add_tap(form, request.form.get("tap", ""))  # the pad has the seat's own hand alone
    return _hand_page(page, state, seat, form)


@bp.post("/hand")
def enter(game_id: int) -> Response:
    """Send this seat's hand for the round, pending until the scorekeeper saves the round;
    refused at its field with the rules' reason. The seat is the link's, never the form's."""
    state = open_for_change(game_id, seat_access())
    return enter_hand(state, current_seat(), PAGE, url_for("seat.show", game_id=game_id))


@bp.post("/hand/tap")
def tap_card(game_id: int) -> Response:
    """Add a tapped card to this seat's pad (or take one back, or clear it); show the sum."""
    return tap_hand(open_for_read(game_id, seat_access()), current_seat(), PAGE)


def _refused_at(form: FlaskForm, seat: int, message: str, field: str | None) -> None:
    """Show a refusal of the seat's entry under the field it is about."""
    named = {"points": form.hands[seat].points, "went_out": form.went_out}
    target = named.get(field or "") or (form.cut_bonus if field == "cut_bonus" else None)
    if target is None:
        form.form_errors.append(message)
    else:
        target.errors = [*target.errors, message]
