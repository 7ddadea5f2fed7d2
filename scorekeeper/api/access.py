"""Which game a request may read or change: the game's edit or view link, as a bearer token."""

from __future__ import annotations

from flask import request

from ..games import links
from ..models import Game
from .problems import Problem

CHALLENGE = ("WWW-Authenticate", 'Bearer realm="scorekeeper"')


def bearer_token() -> str | None:
    """The token of an "Authorization: Bearer ..." header, if the request sent one."""
    auth = request.authorization
    if auth is None or auth.type != "bearer" or not auth.token:
        return None
    return auth.token


def open_game(game_id: int, *, change: bool, facts: bool = True) -> Game:
    """The game this request's link opens, as the pages open it (games.links.open_game).

    401 without a link, 404 for no such game, 410 for a replaced link, 403 when a view link
    asks for a change. Without `facts` only the game's own row is read: one query.
    """
    try:
        game, _access = links.open_game(game_id, bearer_token(), change=change, facts=facts)
    except links.LinkRefused as refusal:
        headers = [CHALLENGE] if refusal.status == 401 else []
        raise Problem(refusal.status, refusal.message, headers=headers) from None
    return game
