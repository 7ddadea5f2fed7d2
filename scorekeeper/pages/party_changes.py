"""The organiser's changes to an evening: draw again, swap two people, start a round, end."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, request, url_for
from werkzeug.wrappers import Response

from ..games.refusals import status_of
from ..i18n import translate
from ..models import CardParty, CardTable
from ..rules.errors import RuleError
from ..rules.party_seating import Seating
from ..tables import party
from ..tables.party_evening import read_evening
from .party import EVENING, PAGE, REGION, evening_context, party_of
from .posted import BadField, posted_int
from .rendering import go_to, respond
from .table_door import TABLES, current_table

bp = Blueprint("party_changes", __name__, url_prefix="/party")  # under the table's door
Change = Callable[[CardTable, CardParty, int], object]


def _changed(party_id: int, change: Change) -> Response:
    """Run one of the evening's changes on the version the page showed; a refusal shows the
    evening again with the message (409 for an older page, 422 for the rules')."""
    TABLES.require_edit()
    found = party_of(party_id)
    version = posted_int("version")
    if version is None:
        raise BadField("version")
    try:
        change(current_table(), found, version)
    except RuleError as error:
        context = evening_context(read_evening(current_table(), found))
        errors = {error.field or "form": [translate(error.message)]}
        return respond(PAGE, REGION, status_of(error), errors=errors, **context)
    return go_to(url_for("table.party.show", table_id=current_table().id, party_id=found.id))


def _person(field: str) -> str:
    """A person's key posted for a swap."""
    person = posted_int(field)
    return "" if person is None else str(person)


def _seating() -> Seating:
    """The seating the page showed, posted as person ids: "1,2,3;4,5,6"."""
    raw = request.form.get("seating", "")
    try:
        return tuple(tuple(str(int(p)) for p in t.split(",")) for t in raw.split(";") if t)
    except ValueError:
        raise BadField("seating") from None


@bp.post(f"{EVENING}/redraw")
def redraw(table_id: int, party_id: int) -> Response:
    """Draw the proposed seating again."""
    return _changed(party_id, party.redraw)


@bp.post(f"{EVENING}/swap")
def swap(table_id: int, party_id: int) -> Response:
    """Swap two people of the proposed seating."""
    first, second = _person("first"), _person("second")
    return _changed(party_id, lambda *opened: party.swap(*opened, first, second))


@bp.post(f"{EVENING}/confirm")
def confirm(table_id: int, party_id: int) -> Response:
    """Confirm the proposed seating: each table's game starts."""
    shown = _seating()
    return _changed(party_id, lambda *opened: party.confirm(*opened, shown))


@bp.post(f"{EVENING}/end")
def end(table_id: int, party_id: int) -> Response:
    """End the evening."""
    return _changed(party_id, party.end)
