"""Seats through the API: each seat's link for the edit link, a seat's own view under its token.

A seat's endpoints take the seat's link as the bearer token, and no game endpoint takes it
(games.seat_links): a seat reads what the view link reads and changes only its own facts.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ..capability_links import LinkRefused, role_of
from ..extensions import db
from ..games import seat_links
from ..games.seat_links import SeatAccess
from ..games.state import game_state, load_game
from ..models import Game as GameRow
from ..rules.messages import N_, msg
from .access import bearer_token, open_game, refused
from .answer_base import Answer, Count, answer
from .fields import MAX_NUMBER
from .game_answers import Game
from .openapi import documented
from .problems import Problem
from .reading import read
from .requests import LinkChange
from .seat_answers import SeatLink


class SeatView(Answer):
    """A seat's own view: which seat it is, its buys this round, and the game as it stands."""

    seat: Count
    name: str
    buys: Count | None  # this round's; null when the game is over or the seat sits it out
    buys_left: Count | None  # null: no limit, or no round for this seat
    game: Game


def open_seat(game_id: int, *, change: bool) -> SeatAccess:
    """The seat this request's bearer token opens; refused as a game's link is refused."""
    try:
        return seat_links.open_seat(game_id, bearer_token(), change=change)
    except LinkRefused as refusal:
        raise refused(refusal) from None


def links_of(game: GameRow) -> list[SeatLink]:
    """Each seat's link of a game, by seat, with the player's name."""
    names = [seat.name for seat in game.seats]
    return [
        SeatLink(seat=seat, name=names[seat], token=token)
        for seat, token in seat_links.links_of(game.id).items()
        if seat < len(names)
    ]


def with_seat_links(shown: Game, game: GameRow) -> Game:
    """The game's answer with its seat links when the edit link asked; else as it is."""
    token = bearer_token()
    if token is None or role_of(game, token) != "edit":
        return shown
    return shown.model_copy(update={"seat_links": links_of(game)})


@documented({200: SeatView})
def seat_show(game_id: int) -> tuple[Response, int]:
    """Show the seat a seat link opens: its buys this round and the game as it stands."""
    opened = open_seat(game_id, change=False)
    state = game_state(load_game(game_id))
    current, seat = state.current, opened.seat
    playing = current is not None and seat in current.seats
    view = SeatView(
        seat=seat,
        name=state.names[seat],
        buys=current.buys[seat] if playing and current else None,
        buys_left=current.buys_left[seat] if playing and current else None,
        game=Game.of(state),
    )
    return answer(view)


@documented({200: list[SeatLink]}, LinkChange, errors=(404,))
def seat_links_create(game_id: int, seat: int) -> tuple[Response, int]:
    """Replace one seat's link (edit link only); the old one answers 410 from now on."""
    game = open_game(game_id, change=True, facts=False)
    read(LinkChange)
    if seat not in seat_links.links_of(game_id):
        raise Problem(404, msg(N_("There is no seat %(seat)s at this table."), seat=seat))
    seat_links.rotate(game_id, seat)
    db.session.commit()
    return answer_list(links_of(game))


def answer_list(links: list[SeatLink]) -> tuple[Response, int]:
    """A list of seat links as the JSON answer."""
    return jsonify([link.model_dump(mode="json") for link in links]), 200


def register(bp: Blueprint, game: str) -> None:
    """Add the seat routes to the API, under the game's URL."""
    bp.add_url_rule(f"{game}/seat", view_func=seat_show, methods=["GET"])
    bp.add_url_rule(
        f"{game}/seat-links/<int(max={MAX_NUMBER}):seat>",
        view_func=seat_links_create,
        methods=["POST"],
    )
