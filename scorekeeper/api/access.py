"""Which game a request may read or change: the game's edit or view link, as a bearer token."""

from __future__ import annotations

from flask import request
from werkzeug.exceptions import NotFound

from ..games.links import role_of
from ..games.state import load_game
from ..models import Game
from ..rules.messages import N_, msg
from .problems import Problem

LARGEST_ID = 2**31 - 1  # the id column's range: a larger id names no game
CHALLENGE = ("WWW-Authenticate", 'Bearer realm="scorekeeper"')


def bearer_token() -> str | None:
    """The token of an "Authorization: Bearer ..." header, if the request sent one."""
    auth = request.authorization
    if auth is None or auth.type != "bearer" or not auth.token:
        return None
    return auth.token


def open_game(game_id: int, *, change: bool) -> Game:
    """The game this request's link opens: 401 without one, 404 if it opens no such game,
    403 when a view link asks for a change. Links work as in the browser (games.links)."""
    token = bearer_token()
    if token is None:
        message = msg(N_("Send the game's link token in an Authorization: Bearer header."))
        raise Problem(401, message, headers=[CHALLENGE])
    game = _load(game_id)
    role = None if game is None else role_of(game, token)
    if game is None or role is None:
        # The same answer for a missing game and a wrong link: ids are no secret, links are.
        raise Problem(404, msg(N_("No game %(id)s opens with that link."), id=game_id))
    if change and role != "edit":
        raise Problem(403, msg(N_("A view link cannot change the game.")))
    return game


def _load(game_id: int) -> Game | None:
    """The game with everything its state needs, or None."""
    if game_id > LARGEST_ID:
        return None
    try:
        return load_game(game_id)
    except NotFound:
        return None
