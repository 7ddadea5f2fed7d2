"""Which game or table a request may read or change: its edit or view link, as a bearer token."""

from __future__ import annotations

from flask import request

from ..capability_links import Access, LinkRefused
from ..games import links
from ..games.state import GameState
from ..models import CardTable, Game
from ..tables import links as table_links
from .problems import Problem

CHALLENGE = ("WWW-Authenticate", 'Bearer realm="scorekeeper"')
# RFC 6750: a token that opens nothing is an invalid token, whether or not the game exists
# (the same answer for both, so no one learns which ids are games).
INVALID = ("WWW-Authenticate", 'Bearer realm="scorekeeper", error="invalid_token"')


def bearer_token() -> str | None:
    """The token of an "Authorization: Bearer ..." header, if the request sent one."""
    auth = request.authorization
    if auth is None or auth.type != "bearer" or not auth.token:
        return None
    return auth.token


def open_game(game_id: int, *, change: bool, facts: bool = True) -> Game:
    """The game this request's link opens, as the pages open it (games.links.open_game).

    401 without a link or with one that opens no such game, 410 for a replaced link, 403 when
    a view link asks for a change. Without `facts` only the game's own row is read: one query.
    """
    try:
        game, _access = links.open_game(game_id, bearer_token(), change=change, facts=facts)
    except LinkRefused as refusal:
        raise _problem(refusal) from None
    return game


def open_change(game_id: int) -> GameState:
    """The game this request's link opens for a change to the round being played: locked,
    then its state at the version read with the lock (games.links.open_change); refused as
    open_game refuses."""
    try:
        state, _access = links.open_change(game_id, bearer_token())
    except LinkRefused as refusal:
        raise _problem(refusal) from None
    return state


def open_version(game_id: int) -> int:
    """The version of the game this request's link opens, from one light query."""
    try:
        version, _access = links.open_version(game_id, bearer_token())
    except LinkRefused as refusal:
        raise _problem(refusal) from None
    return version


def open_table(table_id: int, *, change: bool) -> tuple[CardTable, Access]:
    """The table this request's link opens, as the pages open it (tables.links.open_table),
    and which link it is; refused as open_game refuses, and a change locks the table first."""
    try:
        return table_links.open_table(table_id, bearer_token(), change=change)
    except LinkRefused as refusal:
        raise _problem(refusal) from None


def refused(refusal: LinkRefused) -> Problem:
    """A refused link as the API answers it (a seat link's too, api/seats.py)."""
    return _problem(refusal)


def _problem(refusal: LinkRefused) -> Problem:
    """A refused link as the API answers it; 401 says how to send one, or that it opens nothing."""
    if refusal.status == 404:
        return Problem(401, refusal.message, headers=[INVALID])
    headers = [CHALLENGE] if refusal.status == 401 else []
    return Problem(refusal.status, refusal.message, headers=headers)
