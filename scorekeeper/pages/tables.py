"""A table's pages: open a table, its page (people, record, games), a game started from it."""

from __future__ import annotations

from functools import partial

from flask import Blueprint, request, url_for
from werkzeug.wrappers import Response

from ..rules.errors import RuleError
from ..tables import games, people
from ..tables.party_evening import evenings
from .forms import NewGameForm
from .games import start_from_form
from .posted import page_from
from .record_view import record_context
from .rendering import field_errors, respond
from .table_door import TABLES, current_table, door

bp = Blueprint("tables", __name__)  # a new table: no link yet


@bp.get("/tables/new")
def new() -> Response:
    """Show the form to open a table for a group that plays together."""
    return respond("tables/new.html", "tables/new.html", errors={}, name="")


@bp.post("/tables/")
def create() -> Response:
    """Open a table and go to it through its edit link."""
    name = request.form.get("name", "")
    try:
        table = people.create_table(name)
    except RuleError as error:
        errors = field_errors(error)
        return respond("tables/new.html", "tables/new.html", 422, errors=errors, name=name)
    return TABLES.open_in_browser(table.id, table.edit_token)


@door.get("")
def show(table_id: int) -> Response:
    """Show the table: its people, merge suggestions, its games newest first, 20 a page.

    The record reads every game of the table, so the page fetches it on its own (htmx on
    load, a link without script): paging through the games never recomputes it.
    """
    table = current_table()
    return respond(
        "tables/show.html",
        "tables/show.html",
        table=table,
        editable=TABLES.access().can_edit,
        games=games.games_page(table, page_from()),
        people=people.people(table),
        similar=people.similar(table),
        merged=people.merged(table),
        evenings=evenings(table),
    )


@door.get("/record")
def record(table_id: int) -> Response:
    """Show each person's figures over the table's finished games, under the filters."""
    context = record_context(current_table(), request.args)
    status = context.pop("status")
    return respond("tables/record.html", "tables/_record.html", status, **context)


def _new_game_page(form: NewGameForm, status: int = 200) -> Response:
    """The new-game form of a table, offering the table's people as they type."""
    table = current_table()
    known = [p.name for p in people.people(table)]
    action = url_for("table.start", table_id=table.id)
    return respond(
        "games/new.html",
        "games/new.html",
        status,
        form=form,
        known=known,
        action=action,
        table=table,
    )


@door.get("/games/new")
def new_game(table_id: int) -> Response:
    """Show the form to start a game at this table, its people offered by name."""
    TABLES.require_edit()
    return _new_game_page(NewGameForm())


@door.post("/games")
def start(table_id: int) -> Response:
    """Start a game that belongs to this table; new names become people of the table."""
    TABLES.require_edit()
    return start_from_form(_new_game_page, partial(games.start_game, current_table()))
