"""The change history as a front door: undo the last change from the round screen or sheet."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, url_for
from werkzeug.wrappers import Response

from ..games import actions
from ..games.opening import open_for_change
from ..games.undone import undone_message
from ..i18n import translate
from ..rules.errors import RuleError
from .game_door import current_access
from .posted import local_target, posted_action_id, posted_version

bp = Blueprint("changes", __name__)


@bp.post("/undo")
def undo(game_id: int) -> Response:
    """Undo the last change made to the game, if it is still the one this phone saw, and say
    what it took back; an undone round's end comes back into its form as it was entered."""
    state = open_for_change(game_id, current_access())
    back = local_target(url_for("game.show", game_id=game_id))
    try:
        undone = actions.undo_last(state, posted_action_id(), posted_version())
    except RuleError as error:
        flash(translate(error.message), "error")
        return redirect(back, code=303)
    if undone is None:  # a repeat of an undo already made: it said so the first time
        return redirect(back, code=303)
    change, state = undone
    flash(translate(undone_message(change, state.names, len(state.rules.rounds))), "success")
    if change.kind == "result" and state.seats_of(change.round_number) is not None:
        form = url_for(
            "game.rounds.edit", game_id=game_id, number=change.round_number, undone=change.id
        )
        return redirect(form, code=303)
    return redirect(back, code=303)
