"""The change history as a front door: undo the last change from the round screen or sheet."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, url_for
from werkzeug.wrappers import Response

from ..games import actions
from ..games.state import load_game
from ..i18n import translate
from ..rules.errors import RuleError
from .links import GAME, protect
from .posted import local_target, posted_action_id, posted_version

bp = Blueprint("changes", __name__, url_prefix=GAME)
protect(bp)


@bp.post("/undo")
def undo(game_id: int) -> Response:
    """Undo the last change made to the game, if it is still the one this phone saw."""
    game = load_game(game_id)
    try:
        actions.undo_last(game, posted_action_id(), posted_version())
    except RuleError as error:
        flash(translate(error.message), "error")
    return redirect(local_target(url_for("games.show", game_id=game_id)), code=303)
