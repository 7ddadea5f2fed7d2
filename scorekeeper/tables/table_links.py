"""A table's capability links: its edit and view link, as a game's (link_tokens)."""

from __future__ import annotations

from sqlalchemy import select

from ..database import lock_table
from ..extensions import db
from ..link_tokens import Access, LinkKind, LinkRefused, Role, open_link, role_of
from ..link_tokens import rotate as rotate_link
from ..models import CardTable, RetiredTableLink
from ..rules.messages import N_, msg

NO_LINK = N_("Send the table's link token in an Authorization: Bearer header.")
TABLE_LINKS = LinkKind(
    retired=RetiredTableLink,
    owner="table_id",
    lock=lock_table,
    unknown=N_("No table %(id)s opens with that link."),
    view_only=N_("A view link cannot change the table."),
)


def open_table(table_id: int, token: str | None, *, change: bool) -> tuple[CardTable, Access]:
    """The table a link opens; a change locks the table before anything reads it. No token
    (the API's request without an Authorization header) is refused with 401."""
    if token is None:
        raise LinkRefused(401, msg(NO_LINK))
    return open_link(TABLE_LINKS, table_id, token, change=change, load=_table_row)


def rotate(table: CardTable, role: Role) -> str:
    """Replace one of the table's links; the old one stops working at once."""
    token = rotate_link(TABLE_LINKS, table, role)
    db.session.commit()
    return token


def known_tables(tokens: dict[int, str]) -> list[CardTable]:
    """The tables these remembered links still open, in the order they were remembered."""
    if not tokens:
        return []
    found = {t.id: t for t in db.session.scalars(select(CardTable).where(CardTable.id.in_(tokens)))}
    return [found[i] for i in tokens if i in found and role_of(found[i], tokens[i]) is not None]


def _table_row(table_id: int) -> CardTable | None:
    """The table's own row."""
    return db.session.get(CardTable, table_id)
