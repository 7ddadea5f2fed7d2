"""A person's "my seat tonight": their own link for the evening, following them table to table."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, g, request
from werkzeug.wrappers import Response

from ..link_tokens import LinkRefused
from ..tables.party_evening import poll_mark, read_evening
from ..tables.party_links import open_person, seat_tonight, table_of
from .rendering import respond, unchanged

PERSON = "/p/<int:party_id>/<token>"
bp = Blueprint("party_person", __name__, url_prefix=PERSON)
PAGE, REGION = "party/person.html", "party/_person.html"


@bp.url_value_preprocessor
def _open(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Open the person's link in the URL: 404 for any other; it changes nothing."""
    if not values:
        return
    try:
        g.party, g.person = open_person(values.pop("party_id"), values["token"])
        g.person_token = values["token"]
    except LinkRefused as refusal:
        abort(refusal.status)


@bp.url_defaults
def _link_in_url(_endpoint: str, values: dict[str, Any]) -> None:
    """Build the page's URLs with the link it came in through."""
    if "party" in g and "party_id" not in values:
        values["party_id"] = g.party.id
        values.setdefault("token", g.person_token)


def _context() -> dict[str, Any]:
    """The person's seat now, their evening so far, and the standings."""
    table = table_of(g.party)
    evening = read_evening(table, g.party)
    key = str(g.person.id)
    return {
        "evening": evening,
        "person": g.person,
        "seat": seat_tonight(evening, g.person),
        "tonight": evening.tonight(key),
        "fingerprint": evening.mark,
    }


@bp.get("")
def show(token: str) -> Response:
    """Show where the person sits now, with the link to their seat, live."""
    return respond(PAGE, REGION, **_context())


@bp.get("/live")
def live(token: str) -> Response:
    """The person's region when the evening changed since the page's `v`, else nothing."""
    if request.args.get("v") == poll_mark(g.party):  # one query while nothing changed
        return unchanged()
    return respond(PAGE, REGION, **_context())
