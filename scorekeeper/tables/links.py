"""A table's capability links: an edit link and a view link, rotatable, checked in constant time."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import select

from ..database import lock_table
from ..extensions import db
from ..games.links import LARGEST_ID, LinkRefused, Role, new_token
from ..models import CardTable, RetiredTableLink
from ..rules.messages import N_, msg

REPLACED = N_("This link was replaced; ask the table for the new one.")
VIEW_ONLY = N_("A view link cannot change the table.")


@dataclass(frozen=True)
class TableAccess:
    """Which table a link opens and whether it may change it."""

    table_id: int
    token: str
    role: Role

    @property
    def can_edit(self) -> bool:
        """Only the edit link changes anything."""
        return self.role == "edit"


def open_table(table_id: int, token: str, *, change: bool) -> tuple[CardTable, TableAccess]:
    """The table a link opens; a change locks the table before anything reads it."""
    if change and table_id <= LARGEST_ID:
        lock_table(table_id)
    table = db.session.get(CardTable, table_id) if table_id <= LARGEST_ID else None
    role = None if table is None else role_of(table, token)
    if table is not None and role is None and _was_retired(table.id, token):
        raise LinkRefused(410, msg(REPLACED))
    if table is None or role is None:
        # The same answer for a missing table and a wrong link: ids are no secret, links are.
        raise LinkRefused(404, msg(N_("No table %(id)s opens with that link."), id=table_id))
    if change and role != "edit":
        raise LinkRefused(403, msg(VIEW_ONLY))
    return table, TableAccess(table.id, token, role)


def role_of(table: CardTable, token: str) -> Role | None:
    """Which of the table's links this token is, compared in constant time."""
    edit = secrets.compare_digest(token.encode(), table.edit_token.encode())
    view = secrets.compare_digest(token.encode(), table.view_token.encode())
    return "edit" if edit else "view" if view else None


def rotate(table: CardTable, role: Role) -> str:
    """Replace one of the table's links; the old one stops working at once."""
    old = table.edit_token if role == "edit" else table.view_token
    db.session.add(RetiredTableLink(table_id=table.id, token=old))
    token = new_token()
    if role == "edit":
        table.edit_token = token
    else:
        table.view_token = token
    db.session.commit()
    return token


def _was_retired(table_id: int, token: str) -> bool:
    """Whether this token was one of the table's links before a rotation."""
    query = select(RetiredTableLink.token).where(RetiredTableLink.table_id == table_id)
    retired = db.session.scalars(query)
    return any(secrets.compare_digest(token.encode(), old.encode()) for old in retired)


def known_tables(tokens: dict[int, str]) -> list[CardTable]:
    """The tables these remembered links still open, in the order they were remembered."""
    if not tokens:
        return []
    found = {t.id: t for t in db.session.scalars(select(CardTable).where(CardTable.id.in_(tokens)))}
    return [found[i] for i in tokens if i in found and role_of(found[i], tokens[i]) is not None]
