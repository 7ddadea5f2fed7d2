"""Which game a request may read or change: the game's edit or view link, as a bearer token."""

from __future__ import annotations

from flask import request
from werkzeug.exceptions import NotFound

from ..database import lock_game
from ..extensions import db
from ..games.links import SAFE_METHODS, role_of, was_retired
from ..games.state import load_game
from ..models import Game
from ..rules.messages import N_, msg
from .problems import Problem

LARGEST_ID = 2**31 - 1  # the id column's range: a larger id names no game
CHALLENGE = ("WWW-Authenticate", 'Bearer realm="scorekeeper"')
REPLACED = N_("This link was replaced; ask the table for the new one.")


def bearer_token() -> str | None:
    """The token of an "Authorization: Bearer ..." header, if the request sent one."""
    auth = request.authorization
    if auth is None or auth.type != "bearer" or not auth.token:
        return None
    return auth.token


def lock_before_change() -> None:
    """Lock the game a change names before anything reads it, as the pages do (links.protect).

    Every other method than GET takes the lock, whatever the link turns out to be: a second
    client's change then waits for the first and sees it, so its version check is sound.
    """
    game_id = (request.view_args or {}).get("game_id")
    if request.method not in SAFE_METHODS and game_id is not None and game_id <= LARGEST_ID:
        lock_game(game_id)


def open_game(game_id: int, *, change: bool, facts: bool = True) -> Game:
    """The game this request's link opens: 401 without one, 404 if it opens no such game,
    410 for a replaced link, 403 when a view link asks for a change. Links work as in the
    browser (games.links). Without `facts` only the game's own row is read: one query."""
    token = bearer_token()
    if token is None:
        message = msg(N_("Send the game's link token in an Authorization: Bearer header."))
        raise Problem(401, message, headers=[CHALLENGE])
    game = _load(game_id, facts)
    role = None if game is None else role_of(game, token)
    if game is not None and role is None and was_retired(game.id, token):
        raise Problem(410, msg(REPLACED))
    if game is None or role is None:
        # The same answer for a missing game and a wrong link: ids are no secret, links are.
        raise Problem(404, msg(N_("No game %(id)s opens with that link."), id=game_id))
    if change and role != "edit":
        raise Problem(403, msg(N_("A view link cannot change the game.")))
    return game


def _load(game_id: int, facts: bool) -> Game | None:
    """The game with everything its state needs (or its row alone), or None."""
    if game_id > LARGEST_ID:
        return None
    if not facts:
        return db.session.get(Game, game_id)
    try:
        return load_game(game_id)
    except NotFound:
        return None
