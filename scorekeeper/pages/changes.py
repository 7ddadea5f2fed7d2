"""The change history as a front door: undo the last change from the round screen or sheet."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for
from werkzeug.wrappers import Response

from ..games import actions
from ..games.state import load_game
from ..i18n import translate
from ..rules.errors import RuleError
from .links import GAME, protect

bp = Blueprint("changes", __name__, url_prefix=GAME)
protect(bp)


def local_target(default: str) -> str:
    """The page a form asked to go back to, if it is on this site; else `default`."""
    target = request.form.get("next", "")
    if not target.startswith("/") or target.startswith("//"):
        return default
    return target


@bp.post("/undo")
def undo(game_id: int) -> Response:
    """Undo the last change made to the game, if it is still the one this phone saw."""
    game = load_game(game_id)
    try:
        actions.undo_last(
            game, request.form.get("action_id"), request.form.get("version", type=int)
        )
    except RuleError as error:
        flash(translate(error.message), "error")
    return redirect(local_target(url_for("games.show", game_id=game_id)), code=303)
