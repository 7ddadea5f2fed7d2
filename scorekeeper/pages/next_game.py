"""After Play again: where a phone still on the old game goes, through the link it holds.

An edit or view link leads to the rematch's link of the same role (the same page: the round
screen or the table display), a seat link to its own seat's link there (games/rematch.py), never
to another. A poll that sees the rematch sends its phone there at once (`HX-Redirect`); a page
loaded later offers it ("The next game has started").
"""

from __future__ import annotations

from flask import g, url_for
from werkzeug.wrappers import Response

from ..games import rematch
from ..rules.game_state import GameState

# The pages whose poll follows the game to its rematch, and the same page there.
FOLLOWED = {"round": "game.show", "over": "game.show", "display": "game.display.show"}


def next_game_url(state: GameState, endpoint: str = "game.show") -> str | None:
    """This request's link's place in the game Play again started after `state`'s, if any."""
    if state.facts.rematch_id is None:
        return None
    seat_access = g.get("seat_access")
    if seat_access is not None:
        seat = rematch.next_for_seat(state.facts, seat_access.seat)
        if seat is None:
            return None
        return url_for("seat.show", game_id=seat.game_id, token=seat.token)
    access = g.get("access")
    found = None if access is None else rematch.next_for_link(state.facts, access.role)
    return None if found is None else url_for(endpoint, game_id=found.game_id, token=found.token)


def lead_to_next_game(state: GameState, page: str | None) -> Response | None:
    """A poll's answer taking its phone to the rematch at once, if the game has one."""
    url = next_game_url(state, FOLLOWED.get(page or "", "game.show"))
    if url is None:
        return None
    response = Response(status=200, mimetype="text/html")
    response.headers["Vary"] = "HX-Request"
    response.headers["HX-Redirect"] = url  # htmx loads it as a page: no typing, no resharing
    return response
