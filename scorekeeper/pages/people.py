"""A person of a table: their page and record, renaming them, merging two spellings, undoing it."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, url_for
from werkzeug.wrappers import Response

from ..models import TablePlayer
from ..rules.errors import RuleError
from ..rules.presets import PRESETS
from ..tables import people
from ..tables.figures import person_figures, read_filters
from .charts import totals_chart
from .record_view import filter_errors
from .rendering import field_errors, respond
from .table_door import TABLES, current_table

bp = Blueprint("people", __name__)
PERSON = "people/show.html"
MERGE = "people/merge.html"


def _person(player_id: int) -> TablePlayer:
    """One of this table's people; anyone else is not found."""
    try:
        return people.find(current_table(), player_id)
    except LookupError:
        abort(404)


def _page(person: TablePlayer, status: int = 200, **extra: object) -> Response:
    """A person's page: their record, head-to-head with the others, their totals over games."""
    table = current_table()
    filters = read_filters(request.args, table)
    figures = person_figures(table, person, filters)
    return respond(
        PERSON,
        PERSON,
        422 if filters.errors and status == 200 else status,
        table=table,
        editable=TABLES.access().can_edit,
        person=person,
        record=figures.record,
        versus=figures.versus,
        others=figures.others,
        filters=filters,
        filter_errors=filter_errors(filters),
        presets=PRESETS.values(),
        chart=totals_chart(figures.record.totals),
        **extra,
    )


def _merge_refused(error: RuleError) -> Response:
    """The merge page with the reason a merge (or its undo) is refused."""
    errors = field_errors(error)
    return respond(MERGE, MERGE, 422, table=current_table(), preview=None, errors=errors)


@bp.get("/people/<int:player_id>")
def show(table_id: int, player_id: int) -> Response:
    """Show a person's record at this table."""
    return _page(_person(player_id), errors={})


@bp.post("/people/<int:player_id>/name")
def rename(table_id: int, player_id: int) -> Response:
    """Rename a person once, for every game of the table."""
    TABLES.require_edit()
    person = _person(player_id)
    try:
        people.rename(current_table(), person, request.form.get("name", ""))
    except RuleError as error:
        return _page(person, 422, errors=field_errors(error))
    return redirect(url_for("table.people.show", table_id=table_id, player_id=player_id), code=303)


@bp.get("/merge")
def preview(table_id: int) -> Response:
    """Show what merging one spelling into another person will do, before it is done."""
    TABLES.require_edit()
    merged_id = request.args.get("merged", type=int) or 0
    into_id = request.args.get("into", type=int) or 0
    try:
        found = people.preview_merge(current_table(), merged_id, into_id)
    except LookupError:
        abort(404)
    except RuleError as error:
        return _merge_refused(error)
    return respond(MERGE, MERGE, table=current_table(), preview=found, errors={})


@bp.post("/merge")
def merge(table_id: int) -> Response:
    """Merge one spelling into another person; their games count as one person's."""
    TABLES.require_edit()
    try:
        people.merge(
            current_table(),
            request.form.get("merged", type=int) or 0,
            request.form.get("into", type=int) or 0,
        )
    except LookupError:
        abort(404)
    except RuleError as error:
        return _merge_refused(error)
    return redirect(url_for("table.show", table_id=table_id), code=303)


@bp.post("/people/<int:player_id>/unmerge")
def unmerge(table_id: int, player_id: int) -> Response:
    """Undo a merge: the spelling is a person of their own again."""
    TABLES.require_edit()
    _person(player_id)
    try:
        people.undo_merge(current_table(), player_id)
    except RuleError as error:
        return _merge_refused(error)
    return redirect(url_for("table.show", table_id=table_id), code=303)
