"""A change that lost a race to another client: 409, with the game as it now stands."""

from __future__ import annotations

from flask import Blueprint, Response, request
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..games.opening import as_it_stands
from ..games.refusals import Conflict
from ..rules.messages import N_, Message, msg
from .game_answers import Game
from .problems import WHOLE_REQUEST, Errors, Problem, answer_problem


def answer_stale(error: Conflict) -> Response:
    """The same buy, round or undo changed since the client's `version`: 409 and the game now."""
    return _conflict(error.message, {error.field or WHOLE_REQUEST: [error.message]})


def answer_race(error: IntegrityError) -> Response:
    """Two clients changed the same thing at once and the database kept one: try again."""
    # Only a unique constraint means a race; any other integrity error is a bug, and a 500.
    unique = getattr(error.orig, "sqlstate", None) == "23505" or "UNIQUE" in str(error.orig)
    if not unique:
        raise error
    message = msg(N_("Someone changed this game at the same moment. Reload and try again."))
    return _conflict(message)


def _conflict(message: Message, errors: Errors | None = None) -> Response:
    """A 409 problem; on a game's URL it carries the game under "game" so the client can redo.

    The game is read once, by its version: a refused change wrote nothing, so the state its
    request opened with the lock (kept for that version) is the game now, unless another
    change came in since the rollback let go of the lock."""
    db.session.rollback()  # nothing of the refused change may show in the game sent back
    game_id = (request.view_args or {}).get("game_id")
    game = None if game_id is None else Game.of(as_it_stands(game_id))
    return answer_problem(Problem(409, message, errors, game=game))


def register(bp: Blueprint) -> None:
    """Answer both kinds of lost race as 409 (Conflict is a RuleError, answered 422 otherwise)."""
    bp.register_error_handler(Conflict, answer_stale)
    bp.register_error_handler(IntegrityError, answer_race)
