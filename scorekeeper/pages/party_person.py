"""A person's "my seat tonight": their own link for the evening, following them table to table."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, request
from werkzeug.wrappers import Response

from ..link_tokens import LinkRefused
from ..models import CardParty, TablePlayer
from ..tables.party_evening import poll_mark, read_evening
from ..tables.party_links import open_person, seat_tonight, table_of
from .rendering import respond, unchanged

bp = Blueprint("party_person", __name__, url_prefix="/p/<int:party_id>/<token>")
PAGE, REGION = "party/person.html", "party/_person.html"


def _opened(party_id: int, token: str) -> tuple[CardParty, TablePlayer]:
    """The evening and person the link opens; 404 for any other link. It changes nothing."""
    try:
        return open_person(party_id, token)
    except LinkRefused as refusal:
        abort(refusal.status)


def _context(party: CardParty, person: TablePlayer, token: str) -> dict[str, Any]:
    """The person's seat now, their evening so far, and the standings."""
    evening = read_evening(table_of(party), party)
    return {
        "evening": evening,
        "person": person,
        "token": token,
        "seat": seat_tonight(evening, person),
        "tonight": evening.tonight(str(person.id)),
        "fingerprint": evening.mark,
    }


@bp.get("")
def show(party_id: int, token: str) -> Response:
    """Show where the person sits now, with the link to their seat, live."""
    return respond(PAGE, REGION, **_context(*_opened(party_id, token), token))


@bp.get("/live")
def live(party_id: int, token: str) -> Response:
    """The person's region when the evening changed since the page's `v`, else nothing."""
    party, person = _opened(party_id, token)
    if request.args.get("v") == poll_mark(party):  # one query while nothing changed
        return unchanged()
    return respond(PAGE, REGION, **_context(party, person, token))
