"""The organiser's card party pages: start an evening, draw and swap, confirm, watch, end."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, request, url_for
from werkzeug.wrappers import Response

from ..i18n import translate
from ..models import CardParty
from ..rules.errors import RuleError
from ..rules.messages import N_, msg
from ..rules.party_rotation import Rotation
from ..tables import party, people
from ..tables.party_evening import Evening, changes_of, find_party, poll_mark, read_evening
from ..tables.party_links import links_of
from ..tables.rating import expected, table_ratings
from .party_forms import PartyForm
from .remembered_rule_sets import rules_by_key
from .rendering import go_to, respond, unchanged
from .table_door import TABLES, current_table

bp = Blueprint("party", __name__, url_prefix="/party")  # under the table's door
EVENING = "/<int:party_id>"
PAGE, REGION = "party/show.html", "party/_evening.html"


def party_of(party_id: int) -> CardParty:
    """The table's evening of this id; 404 for another table's or none."""
    try:
        return find_party(current_table(), party_id)
    except LookupError:
        abort(404)


def _new_page(form: PartyForm, status: int = 200) -> Response:
    """The start form, as typed."""
    return respond("party/new.html", "party/new.html", status, form=form, table=current_table())


@bp.get("/new")
def new(table_id: int) -> Response:
    """Show the form to start a card party with the people present."""
    TABLES.require_edit()
    return _new_page(PartyForm(people.people(current_table())))


@bp.post("")
def start(table_id: int) -> Response:
    """Start an evening and show its drawn seating."""
    TABLES.require_edit()
    form = PartyForm(people.people(current_table()))
    if not form.validate():
        return _new_page(form, 422)
    try:
        rules = rules_by_key(form.ruleset.data or "")
        if rules is None:  # deleted on another phone since the form was shown
            raise RuleError(msg(N_("There is no rule set %(key)s."), key=form.ruleset.data))
        started = party.start(
            current_table(),
            rules,
            form.people.data or [],
            form.names(),
            form.table_count(),
            Rotation(form.rotation.data),
            form.rotate_every.data or 1,
        )
    except RuleError as error:
        _refused_at(form, error)
        return _new_page(form, 422)
    return go_to(url_for("table.party.show", table_id=current_table().id, party_id=started.id))


# The rules' and the people service's fields, as the start form names them.
FORM_FIELDS = {"people": "people", "players": "new_names", "rules": "ruleset", "tables": "tables"}


def _refused_at(form: PartyForm, error: RuleError) -> None:
    """Show a refusal under the field it names (a new name's as the new names'), else atop."""
    name = FORM_FIELDS.get((error.field or "").split(".")[0], error.field or "")
    field = form._fields.get(name)
    if field is None:
        form.form_errors.append(translate(error.message))
    else:
        field.errors = [*field.errors, translate(error.message)]


def evening_context(evening: Evening) -> dict[str, Any]:
    """What the evening's page and its live region show."""
    ratings = table_ratings(current_table())
    places: dict[int, int] = {}
    if ratings and evening.proposal:
        for seated in evening.proposal:
            places |= expected([int(key) for key in seated], ratings)
    return {
        "table": current_table(),
        "evening": evening,
        "editable": TABLES.access().can_edit,
        "expected": places,
        "ratings": ratings,
        "fingerprint": evening.mark,
        "changes": changes_of(evening.party),
    }


@bp.get(EVENING)
def show(table_id: int, party_id: int) -> Response:
    """Show the evening: the seating to confirm, each table's game, the standings, live."""
    evening = read_evening(current_table(), party_of(party_id))
    return respond(PAGE, REGION, **evening_context(evening))


@bp.get(f"{EVENING}/live")
def live(table_id: int, party_id: int) -> Response:
    """The evening's region when anything changed since the page's `v`, else nothing."""
    found = party_of(party_id)
    if request.args.get("v") == poll_mark(found):  # one query while nothing changed
        return unchanged()
    return respond(PAGE, REGION, **evening_context(read_evening(current_table(), found)))


@bp.get(f"{EVENING}/links")
def links(table_id: int, party_id: int) -> Response:
    """Each person's own link for tonight, with its QR code, for the organiser to hand out."""
    TABLES.require_edit()
    found = party_of(party_id)
    evening = read_evening(current_table(), found)
    tokens = links_of(found)
    page = "party/links.html"
    return respond(page, page, table=current_table(), evening=evening, tokens=tokens)
