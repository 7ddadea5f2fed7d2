"""Tables through the API: open one, read it, replace its links, list and start its games.

A table opens with its edit or view link as a bearer token, as a game does; each route
calls the same tables service as the table's pages.
"""

from __future__ import annotations

from flask import Blueprint, Response, request, url_for

from ..games.opening import reread
from ..models import LARGEST_INTEGER
from ..rules.messages import msg
from ..tables import games, people, table_links
from . import house_rules as api_house_rules
from .access import open_table
from .answer_base import answer
from .answers import GameCreated, Links, NewLinks
from .fields import RANGE
from .game_answers import Game
from .openapi import documented
from .problems import Problem
from .reading import read
from .table_answers import Table, TableCreated, TableGames
from .table_requests import BEFORE, NewTable, NewTableGame, NoFields

# No max= here: werkzeug answers an id past the maximum with 405 where a URL takes two methods;
# opening the link finds no table past the id column's range (404).
TABLE = "/v1/tables/<int:table_id>"


@documented({201: TableCreated}, NewTable)
def tables_create() -> tuple[Response, int, dict[str, str]]:
    """Open a table for a group that plays together."""
    table = people.create_table(read(NewTable).name)
    links_made = NewLinks(edit_token=table.edit_token, view_token=table.view_token)
    created = TableCreated(
        **Table.fields_of(table, "edit", games.games_page(table)), links=links_made
    )
    response, status = answer(created, 201)
    return response, status, {"Location": url_for(".tables_show", table_id=table.id)}


@documented({200: Table})
def tables_show(table_id: int) -> tuple[Response, int]:
    """Show a table: its people, merges, merge offers and its newest games."""
    table, access = open_table(table_id, change=False)
    return answer(
        Table.model_validate(Table.fields_of(table, access.role, games.games_page(table)))
    )


@documented({200: Links}, NoFields)
def table_links_create(table_id: int, role: str) -> tuple[Response, int]:
    """Replace the table's edit or view link (edit link only); the old one answers 410."""
    table, _access = open_table(table_id, change=True)
    read(NoFields)
    table_links.rotate(table, "edit" if role == "edit" else "view")
    return answer(Links(edit=table.edit_token, view=table.view_token))


@documented({200: TableGames}, parameters=(BEFORE,))
def table_games_index(table_id: int) -> tuple[Response, int]:
    """List the table's games, newest first, 20 a page."""
    table, access = open_table(table_id, change=False)
    return answer(TableGames.of(games.games_page(table, _before()), access.role))


@documented({201: GameCreated}, NewTableGame)
def table_games_create(table_id: int) -> tuple[Response, int, dict[str, str]]:
    """Start a game at the table with a preset or a saved house rule set; new names join it."""
    table, _access = open_table(table_id, change=True)
    new = read(NewTableGame)
    rules = api_house_rules.chosen(new.ruleset, new.ruleset_token)
    game = games.start_game(table, rules, new.players, new.first_dealer, new.decks)
    made = NewLinks(edit_token=game.edit_token, view_token=game.view_token)
    created = GameCreated(**Game.fields_of(reread(game.id)), links=made)
    response, status = answer(created, 201)
    return response, status, {"Location": url_for(".games_show", game_id=game.id)}


def _before() -> int | None:
    """Where the page of games starts (?before=), or 422 at the parameter."""
    raw = request.args.get("before", "")
    if raw == "":
        return None
    if not (raw.isascii() and raw.isdecimal()) or int(raw) > LARGEST_INTEGER:
        raise Problem(422, errors={"before": [msg(RANGE, low=0, high=LARGEST_INTEGER)]})
    return int(raw)


def register(bp: Blueprint) -> None:
    """Add the table routes to the API."""
    bp.add_url_rule("/v1/tables", view_func=tables_create, methods=["POST"])
    bp.add_url_rule(TABLE, view_func=tables_show, methods=["GET"])
    bp.add_url_rule(
        f"{TABLE}/links/<any(edit, view):role>", view_func=table_links_create, methods=["POST"]
    )
    bp.add_url_rule(f"{TABLE}/games", view_func=table_games_index, methods=["GET"])
    bp.add_url_rule(f"{TABLE}/games", view_func=table_games_create, methods=["POST"])
