"""Capability links, games' and tables' alike: an edit and a view link each, rotatable, no accounts.

A game and a table differ only in their rows, their lock and the words of a refusal (a
LinkKind); the token, its constant-time check, the refusals and the rotation are written here once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from sqlalchemy import insert, select

from .extensions import db
from .models import LARGEST_INTEGER, RetiredLink, RetiredTableLink
from .rules.messages import N_, Message, msg

TOKEN_BYTES = 24  # 192 bits from the OS's CSPRNG; a link is as strong as a password
Role = Literal["edit", "view"]
ROLES: tuple[Role, ...] = ("edit", "view")

REPLACED = N_("This link was replaced; ask the table for the new one.")


class LinkRefused(Exception):
    """A link that opens nothing: 401 none given, 404 unknown, 410 replaced, 403 view only."""

    def __init__(self, status: int, message: Message) -> None:
        super().__init__(status)
        self.status = status
        self.message = message


class Links(Protocol):
    """Something's two links: a Game or CardTable, or a row of its link columns."""

    edit_token: str
    view_token: str


class Rotatable(Links, Protocol):
    """A game or table whose links can be replaced."""

    id: int


Holder = TypeVar("Holder", bound=Links)


@dataclass(frozen=True)
class LinkKind:
    """What tells a game's links from a table's: where replaced links go, the lock, the words."""

    retired: type[RetiredLink] | type[RetiredTableLink]
    owner: str  # the retired row's column naming the game or table
    lock: Callable[[int], None]
    unknown: str  # a msgid with %(id)s: no such game or table, or a wrong link
    view_only: str  # a msgid: a view link asked for a change


@dataclass(frozen=True)
class Access:
    """Which game or table a link opens and whether it may change it."""

    id: int
    token: str
    role: Role

    @property
    def can_edit(self) -> bool:
        """Only the edit link changes anything."""
        return self.role == "edit"


def open_link(
    kind: LinkKind, owner_id: int, token: str, *, change: bool, load: Callable[[int], Holder | None]
) -> tuple[Holder, Access]:
    """What a link opens, loaded by `load`; a change locks it before anything reads it."""
    if change and owner_id <= LARGEST_INTEGER:
        # Locked whatever the link turns out to be: a later change then sees this one's.
        kind.lock(owner_id)
    holder = load(owner_id) if owner_id <= LARGEST_INTEGER else None
    return checked(kind, owner_id, holder, token, change=change)


def checked(
    kind: LinkKind, owner_id: int, holder: Holder | None, token: str, *, change: bool
) -> tuple[Holder, Access]:
    """What the token may do with `holder` (None: no such game or table), else LinkRefused."""
    role = None if holder is None else role_of(holder, token)
    if holder is not None and role is None and was_retired(kind, owner_id, token):
        raise LinkRefused(410, msg(REPLACED))
    if holder is None or role is None:
        # The same answer for a missing one and a wrong link: ids are no secret, links are.
        raise LinkRefused(404, msg(kind.unknown, id=owner_id))
    if change and role != "edit":
        raise LinkRefused(403, msg(kind.view_only))
    return holder, Access(owner_id, token, role)


def new_token() -> str:
    """A fresh unguessable link token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def role_of(holder: Links, token: str) -> Role | None:
    """Which of the two links this token is, compared in constant time."""
    edit = secrets.compare_digest(token.encode(), holder.edit_token.encode())
    view = secrets.compare_digest(token.encode(), holder.view_token.encode())
    return "edit" if edit else "view" if view else None


def retire(kind: LinkKind, owner_id: int, old: str) -> str:
    """Keep a link being replaced as retired, so it answers 410 from now on; answers the new
    token to write in its place (the caller writes it and commits)."""
    db.session.connection().execute(insert(kind.retired), {kind.owner: owner_id, "token": old})
    return new_token()


def rotate(kind: LinkKind, holder: Rotatable, role: Role) -> str:
    """Replace one of a loaded row's two links; the old one stops working at once (the caller
    commits). A game's facts are no row: games/game_links.rotate writes its new link itself."""
    token = retire(kind, holder.id, holder.edit_token if role == "edit" else holder.view_token)
    if role == "edit":
        holder.edit_token = token
    else:
        holder.view_token = token
    return token


def was_retired(kind: LinkKind, owner_id: int, token: str) -> bool:
    """Whether this token was one of the links before a rotation."""
    query = select(kind.retired.token).where(getattr(kind.retired, kind.owner) == owner_id)
    retired = db.session.scalars(query)
    return any(secrets.compare_digest(token.encode(), old.encode()) for old in retired)
