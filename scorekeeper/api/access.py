"""Which game or table a request may read or change: its edit or view link, as a bearer token."""

from __future__ import annotations

from flask import request

from ..games import game_links
from ..games.game_links import GameAccess
from ..link_tokens import Access, LinkRefused
from ..models import CardTable
from ..tables import table_links
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


def game_access(game_id: int, *, change: bool) -> GameAccess:
    """What this request's link may do with the game (games.game_links.check_link), as the pages
    check it; the view then opens the game (games.opening).

    401 without a link or with one that opens no such game, 410 for a replaced link, 403 when
    a view link asks for a change. One query: a change's takes the game's lock.
    """
    try:
        return game_links.check_link(game_id, bearer_token(), change=change)
    except LinkRefused as refusal:
        raise _problem(refusal) from None


def open_table(table_id: int, *, change: bool) -> tuple[CardTable, Access]:
    """The table this request's link opens, as the pages open it (tables.table_links.open_table),
    and which link it is; refused as game_access refuses, and a change locks the table first."""
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
