"""A seat's own link: one per player of a game, opening that player's page (docs/RULES.md 11).

As strong as the edit and view links (link_tokens.new_token), compared in constant time,
refused the same way (404 unknown, 410 replaced), and replaced the same way: the old one stops
working at once. A seat link opens only its own seat's page and changes only that seat's facts.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import insert, select, update

from .. import version_map
from ..database import lock_game_row
from ..extensions import db
from ..link_tokens import REPLACED, LinkRefused, new_token
from ..models import LARGEST_INTEGER, Game, SeatLink, utcnow
from ..rules.messages import N_, msg
from .game_links import GameAccess

NO_LINK = N_("Send the seat's link token in an Authorization: Bearer header.")
UNKNOWN = N_("No seat of game %(id)s opens with that link.")
# Replaced links a miss is compared with, newest first: a check reads a bounded number of rows
# however often links were replaced (an older one answers 404, not 410).
RETIRED_CHECKED = 100


@dataclass(frozen=True)
class SeatAccess(GameAccess):
    """Which game and seat a seat link opens: a view of the game (games.opening opens it as
    any link's), and the one seat whose own facts it may change."""

    seat: int = 0


def create_for(game_id: int, seats: int) -> None:
    """Give each seat of a new game its own link (the caller commits)."""
    create_missing({game_id: seats})


def create_missing(seats_of: dict[int, int]) -> None:
    """A link for each seat of these games that has no current one (a new or restored game)."""
    if not seats_of:
        return
    query = select(SeatLink.game_id, SeatLink.seat).where(
        SeatLink.game_id.in_(seats_of), SeatLink.retired_at.is_(None)
    )
    have = set(db.session.execute(query).tuples())
    now = utcnow()
    rows = [
        {"game_id": game_id, "seat": seat, "token": new_token(), "created_at": now}
        for game_id, count in seats_of.items()
        for seat in range(count)
        if (game_id, seat) not in have
    ]
    if rows:
        db.session.execute(insert(SeatLink), rows)


def links_of(game_id: int) -> dict[int, str]:
    """Each seat's current link token, by seat."""
    query = select(SeatLink.seat, SeatLink.token).where(
        SeatLink.game_id == game_id, SeatLink.retired_at.is_(None)
    )
    return dict(db.session.execute(query.order_by(SeatLink.seat)).tuples().all())


def open_seat(game_id: int, token: str | None, *, change: bool) -> SeatAccess:
    """The seat a link opens; a change locks the game before anything reads it."""
    if token is None:
        raise LinkRefused(401, msg(NO_LINK))
    if game_id > LARGEST_INTEGER:
        raise LinkRefused(404, msg(UNKNOWN, id=game_id))
    if change:  # whatever the link turns out to be, as link_tokens does
        found = lock_game_row(game_id)
        version = None if found is None else found.version
    else:
        version = db.session.scalar(select(Game.version).where(Game.id == game_id))
    query = select(SeatLink.seat, SeatLink.token).where(SeatLink.game_id == game_id)
    live = db.session.execute(query.where(SeatLink.retired_at.is_(None))).tuples().all()
    seat = matching_seat(token, live)
    if seat is not None and version is not None:
        return SeatAccess(game_id, token, "view", int(version), locked=change, seat=seat)
    replaced = query.where(SeatLink.retired_at.is_not(None)).order_by(SeatLink.retired_at.desc())
    rows = db.session.execute(replaced.limit(RETIRED_CHECKED)).tuples().all()
    if matching_seat(token, rows) is not None:
        raise LinkRefused(410, msg(REPLACED))
    raise LinkRefused(404, msg(UNKNOWN, id=game_id))


def matching_seat(token: str, rows: Collection[tuple[int, str]]) -> int | None:
    """The seat of the row this token is: every row compared, each in constant time, so the
    time says nothing of which seat or how much matched."""
    seat = None
    given = token.encode()
    for row_seat, row_token in rows:
        if secrets.compare_digest(given, row_token.encode()):
            seat = row_seat
    return seat


def rotate(game_id: int, seat: int) -> str:
    """Replace one seat's link and commit; the old one answers 410 from now on (the caller
    holds the game's lock)."""
    now = utcnow()
    db.session.execute(
        update(SeatLink)
        .where(SeatLink.game_id == game_id, SeatLink.seat == seat, SeatLink.retired_at.is_(None))
        .values(retired_at=now)
    )
    token = new_token()
    db.session.execute(
        insert(SeatLink), [{"game_id": game_id, "seat": seat, "token": token, "created_at": now}]
    )
    version_map.moving(game_id, None, (version_map.SEAT,))
    db.session.commit()
    return token
