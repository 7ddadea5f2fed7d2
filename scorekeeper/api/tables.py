"""Tables through the API: open one, read it, replace its links, list and start its games.

A table opens with its edit or view link as a bearer token, as a game does; each route
calls the same tables service as the table's pages.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from flask import Blueprint, Response, request, url_for
from pydantic import Field

from ..games.opening import reread
from ..link_tokens import Role
from ..models import LARGEST_INTEGER, CardTable
from ..rules.bounds import NAME_LENGTH
from ..rules.game_state import GameState
from ..rules.messages import msg
from ..tables import games, people, table_links
from ..tables.games import GamesPage
from ..tables.people import TABLE_NAME_LENGTH
from .answers import GameCreated, Links, NewLinks
from .base import (
    TABLE,
    Answer,
    Count,
    Parameter,
    Problem,
    Timestamp,
    With,
    answer,
    documented,
    open_table,
)
from .fields import RANGE, Body, RuleSetToken, text
from .reading import Seating, read
from .rulesets import chosen

bp = Blueprint("tables", __name__)
BEFORE = Parameter(
    "before",
    {"type": "integer", "minimum": 0, "maximum": LARGEST_INTEGER},
    "The games before this id (a page's `older`); left out, the newest.",
)


class NewTable(Body):
    """Open a table for a group that plays together."""

    name: text(TABLE_NAME_LENGTH)  # type: ignore[valid-type]


class NoFields(Body):
    """An empty object: this change takes no fields."""


class NewTableGame(Seating):
    """Start a game at the table: its people by name, new names join the table."""

    ruleset: Annotated[
        text(NAME_LENGTH),  # type: ignore[valid-type]
        Field(description='A preset\'s key ("may-i") or a saved house rule set\'s ("house-7").'),
    ]
    ruleset_token: RuleSetToken = None


class Person(Answer):
    """A person of the table; a merged spelling names the person it counts as."""

    id: Count
    name: str
    merged_into: Count | None = Field(validation_alias="merged_into_id")


class SimilarPair(Answer):
    """Two people whose names look like one person typed two ways: offered for merging."""

    first: Person
    second: Person


class TableGame(Answer):
    """A game of the table as its list shows it, with the link this request's role opens."""

    id: Count
    token: str = Field(
        description="The game's edit link token for the table's edit link, else its view link's."
    )
    players: list[str]
    ruleset: str
    ruleset_name: str
    created_at: Timestamp
    finished: bool
    winners: list[str]
    after_tiebreaker: bool


def table_game(state: GameState, role: Role) -> With:
    """A game as the table's list shows it, with the link `role` opens."""
    game, finished = state.facts, state.finished
    return With(
        game,
        token=game.edit_token if role == "edit" else game.view_token,
        players=state.names,
        ruleset=state.rules.key,
        ruleset_name=state.rules.name,
        finished=finished,
        winners=state.winner_names if finished else [],
        after_tiebreaker=finished and bool(state.tiebreakers),
    )


class TableGames(Answer):
    """A page of the table's games, newest first; ask for `older` with ?before= for the next."""

    games: list[TableGame]
    older: Count | None
    total: Count


def table_games(page: GamesPage, role: Role) -> With:
    """A page of the table's games, each with the link `role` opens."""
    return With(page, games=[table_game(state, role) for state in page.games])


class Table(Answer):
    """A table: who opened it (edit or view), its people, merges, merge offers, newest games."""

    id: Count
    name: str
    role: Literal["edit", "view"]
    created_at: Timestamp
    people: list[Person]
    merged: list[Person] = Field(description="Merged spellings, newest merge first.")
    similar: list[SimilarPair]
    games: TableGames


def table_of(table: CardTable, role: Role, page: GamesPage, **more: Any) -> With:
    """The table as its answer reads it, or one that adds `more` to it."""
    pairs = [SimilarPair(first=a, second=b) for a, b in people.similar(table)]
    return With(
        table,
        role=role,
        people=people.people(table),
        merged=people.merged(table),
        similar=pairs,
        games=table_games(page, role),
        **more,
    )


class TableCreated(Table):
    """A new table, with the tokens of its edit and view links."""

    links: NewLinks


@bp.post("/v1/tables")
@documented({201: TableCreated}, NewTable)
def tables_create() -> tuple[Response, int, dict[str, str]]:
    """Open a table for a group that plays together."""
    table = people.create_table(read(NewTable).name)
    page = games.games_page(table)
    created = TableCreated.model_validate(table_of(table, "edit", page, links=table))
    response, status = answer(created, 201)
    return response, status, {"Location": url_for(".tables_show", table_id=table.id)}


@bp.get(TABLE)
@documented({200: Table})
def tables_show(table_id: int) -> tuple[Response, int]:
    """Show a table: its people, merges, merge offers and its newest games."""
    table, access = open_table(table_id, change=False)
    return answer(Table.model_validate(table_of(table, access.role, games.games_page(table))))


@bp.post(f"{TABLE}/links/<any(edit, view):role>")
@documented({200: Links}, NoFields)
def table_links_create(table_id: int, role: str) -> tuple[Response, int]:
    """Replace the table's edit or view link (edit link only); the old one answers 410."""
    table, _access = open_table(table_id, change=True)
    read(NoFields)
    table_links.rotate(table, "edit" if role == "edit" else "view")
    return answer(Links.model_validate(table))


@bp.get(f"{TABLE}/games")
@documented({200: TableGames}, parameters=(BEFORE,))
def table_games_index(table_id: int) -> tuple[Response, int]:
    """List the table's games, newest first, 20 a page."""
    table, access = open_table(table_id, change=False)
    return answer(
        TableGames.model_validate(table_games(games.games_page(table, _before()), access.role))
    )


@bp.post(f"{TABLE}/games")
@documented({201: GameCreated}, NewTableGame)
def table_games_create(table_id: int) -> tuple[Response, int, dict[str, str]]:
    """Start a game at the table with a preset or a saved house rule set; new names join it."""
    table, _access = open_table(table_id, change=True)
    new = read(NewTableGame)
    rules = chosen(new.ruleset, new.ruleset_token)
    game = games.start_game(table, rules, new.players, new.first_dealer, new.decks)
    created = GameCreated.of(reread(game.id), links=game)
    response, status = answer(created, 201)
    return response, status, {"Location": url_for("api.games.games_show", game_id=game.id)}


def _before() -> int | None:
    """Where the page of games starts (?before=), or 422 at the parameter."""
    raw = request.args.get("before", "")
    if raw == "":
        return None
    if not (raw.isascii() and raw.isdecimal()) or int(raw) > LARGEST_INTEGER:
        raise Problem(422, errors={"before": [msg(RANGE, low=0, high=LARGEST_INTEGER)]})
    return int(raw)
