"""The change history as a front door: undo the last change from the round screen or sheet."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, url_for
from werkzeug.wrappers import Response

from ..games import actions
from ..games.opening import open_for_change
from ..i18n import translate
from ..rules.errors import RuleError
from .links import GAME, current_access, protect
from .posted import local_target, posted_action_id, posted_version

bp = Blueprint("changes", __name__, url_prefix=GAME)
protect(bp)


@bp.post("/undo")
def undo(game_id: int) -> Response:
    """Undo the last change made to the game, if it is still the one this phone saw."""
    state = open_for_change(game_id, current_access())
    try:
        actions.undo_last(state, posted_action_id(), posted_version())
    except RuleError as error:
        flash(translate(error.message), "error")
    return redirect(local_target(url_for("games.show", game_id=game_id)), code=303)
