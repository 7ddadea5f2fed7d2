"""Play again: a new game with a game's players, and the way every phone on the old one finds it.

The old game records its rematch (`Game.rematch_id`) through the one change path, in the new
game's transaction, so every phone's poll on the old game sees it within one interval. Each
link then leads to the same kind of link of the new game: an edit link to its edit link, a view
link to its view link, a seat link to the seat link of the same person's seat, never another's.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, update

from ..extensions import db
from ..link_tokens import Role
from ..models import Game, TablePlayer
from ..rules.game_facts import GameFacts, SeatFacts
from ..rules.game_state import GameState
from ..rules.player_names import name_key
from . import actions, seat_links, writes
from .facts import seats_of


@dataclass(frozen=True)
class NextGame:
    """Where a link of a game leads in its rematch: the game, the link and, for a seat, its seat."""

    game_id: int
    token: str
    seat: int | None = None


def play_again(state: GameState) -> Game:
    """Start a game with `state`'s players, seats and rules (the app cuts for deal) and record it
    as the game's rematch, in one transaction; a second press answers the rematch already made.

    `state` is the game's opened for a change (its lock held). A table's game seats the same
    people again (as they count after merges), so it is the table's too.
    """
    if state.facts.rematch_id is not None:  # another phone pressed it first
        return db.session.get_one(Game, state.facts.rematch_id)
    persons = [seat.person for seat in state.facts.seats if seat.person is not None]
    people = [db.session.get_one(TablePlayer, person) for person in persons]
    names, decks = list(state.names), state.facts.decks
    game = actions.create_game(state.rules, names, None, decks, people, commit=False)
    recorded = update(Game).where(Game.id == state.facts.id).values(rematch_id=game.id)
    db.session.connection().execute(recorded)
    writes.change(state, {"rematch_id": game.id}, "rematch", None, None)
    return game


def next_for_link(game: GameFacts, role: Role) -> NextGame | None:
    """The rematch's link of the same role as the game's link a phone holds, if there is one."""
    if game.rematch_id is None:
        return None
    query = select(Game.edit_token, Game.view_token).where(Game.id == game.rematch_id)
    links = db.session.execute(query).one_or_none()
    if links is None:
        return None
    return NextGame(game.rematch_id, links.edit_token if role == "edit" else links.view_token)


def next_for_seat(game: GameFacts, seat: int) -> NextGame | None:
    """The seat link of the same person's seat in the rematch (by person, else by name), if any."""
    if game.rematch_id is None or seat >= len(game.seats):
        return None
    mine = game.seats[seat]
    found = next((s for s in seats_of(game.rematch_id) if _same_player(mine, s)), None)
    token = None if found is None else seat_links.links_of(game.rematch_id).get(found.position)
    if found is None or token is None:
        return None
    return NextGame(game.rematch_id, token, found.position)


def _same_player(mine: SeatFacts, theirs: SeatFacts) -> bool:
    """Whether two seats seat one player: the same table person, or the same name."""
    if mine.person is not None and theirs.person is not None:
        return mine.person == theirs.person
    return name_key(mine.name) == name_key(theirs.name)
