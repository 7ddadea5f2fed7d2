"""The relatives' link to an evening, /w/<id>/<token>: standings and tables, read only."""

from __future__ import annotations

import secrets

from ..database import lock_table
from ..extensions import db
from ..link_tokens import LinkRefused, new_token
from ..models import LARGEST_INTEGER, CardParty, CardTable
from ..rules.messages import N_, msg

UNKNOWN = N_("No evening %(id)s opens with that link.")


def replace_watch_link(table: CardTable, party: CardParty) -> str:
    """Make the evening's link for relatives, or replace it: the old one stops working at once."""
    lock_table(table.id)
    party.watch_token = new_token()
    db.session.commit()
    return party.watch_token


def open_watch(party_id: int, token: str) -> CardParty:
    """The evening a relatives' link opens, compared in constant time; 404 for any other."""
    party = db.session.get(CardParty, party_id) if party_id <= LARGEST_INTEGER else None
    kept = (party.watch_token if party else None) or ""
    if party is None or not kept or not secrets.compare_digest(token.encode(), kept.encode()):
        raise LinkRefused(404, msg(UNKNOWN, id=party_id))
    return party
