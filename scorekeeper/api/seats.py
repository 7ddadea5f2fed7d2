"""Seats through the API: each seat's link for the edit link, a seat's own view under its token.

A seat's endpoints take the seat's link as the bearer token, and no game endpoint takes it
(games.seat_links): a seat reads what the view link reads and changes only its own facts.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ..games import calls, rematch, seat_links
from ..games.calls import Call
from ..games.game_links import GameAccess
from ..games.opening import open_for_change, open_for_read
from ..games.seat_links import SeatAccess
from ..link_tokens import LinkRefused
from ..rules.game_state import GameState
from ..rules.messages import N_, msg
from .access import bearer_token, game_access, refused
from .answer_base import Answer, Count, answer
from .fields import MAX_NUMBER
from .game_answers import Game
from .openapi import documented
from .problems import Problem
from .reading import read
from .requests import Action, LinkChange, SeatChange
from .seat_answers import NextGame, PendingHand, SeatLink


class SeatView(Answer):
    """A seat's own view: which seat it is, its buys this round, and the game as it stands."""

    seat: Count
    name: str
    buys: Count | None  # this round's; null when the game is over or the seat sits it out
    buys_left: Count | None  # null: no limit, or no round for this seat
    hand: PendingHand | None  # its hand entered for the round being played, if any
    next_game: NextGame | None  # this player's seat in the game Play again started, once it has
    game: Game


class SeatCall(Answer):
    """A "May I?" called from a seat's phone: open until the scorekeeper grants or dismisses
    it; then `recorded` (this seat was granted the buy), `passed` (another was) or `dismissed`."""

    id: Count
    seat: Count
    name: str
    round: Count
    open: bool
    outcome: str | None

    @classmethod
    def of(cls, made: Call, names: tuple[str, ...] | list[str]) -> SeatCall:
        """A call as the API answers it."""
        return cls(
            id=made.id,
            seat=made.seat,
            name=names[made.seat],
            round=made.round_number,
            open=made.open,
            outcome=made.outcome,
        )


class CallRequest(Action):
    """Call "May I?" for the seat of the link; nothing else to say (its version is taken)."""


def open_seat(game_id: int, *, change: bool) -> SeatAccess:
    """The seat this request's bearer token opens; refused as a game's link is refused."""
    try:
        return seat_links.open_seat(game_id, bearer_token(), change=change)
    except LinkRefused as refusal:
        raise refused(refusal) from None


def links_of(state: GameState) -> list[SeatLink]:
    """Each seat's link of a game, by seat, with the player's name."""
    names = state.names
    return [
        SeatLink(seat=seat, name=names[seat], token=token)
        for seat, token in seat_links.links_of(state.facts.id).items()
        if seat < len(names)
    ]


def with_links(shown: Game, state: GameState, access: GameAccess) -> Game:
    """The game's answer with where the asking link leads after Play again, and its seat
    links when the edit link asked."""
    leads = answer_of(rematch.next_for_link(state.facts, access.role))
    if not access.can_edit:
        return shown.model_copy(update={"next_game": leads})
    return shown.model_copy(update={"seat_links": links_of(state), "next_game": leads})


def answer_of(found: rematch.NextGame | None) -> NextGame | None:
    """A link to the rematch as the API answers it."""
    return None if found is None else NextGame(id=found.game_id, token=found.token, seat=found.seat)


@documented({200: SeatView})
def seat_show(game_id: int) -> tuple[Response, int]:
    """Show the seat a seat link opens: its buys and its entered hand this round, and the game
    as it stands."""
    opened = open_seat(game_id, change=False)
    state = open_for_read(game_id, opened)
    current, seat = state.current, opened.seat
    playing = current is not None and seat in current.seats
    number = None if current is None else current.number
    entry = state.facts.entered_in(number).get(seat)
    view = SeatView(
        seat=seat,
        name=state.names[seat],
        buys=current.buys[seat] if playing and current else None,
        buys_left=current.buys_left[seat] if playing and current else None,
        hand=None if entry is None else PendingHand.of(state, entry),
        next_game=answer_of(rematch.next_for_seat(state.facts, seat)),
        game=Game.of(state),
    )
    return answer(view)


@documented({200: list[SeatLink]}, LinkChange, errors=(404,))
def seat_links_create(game_id: int, seat: int) -> tuple[Response, int]:
    """Replace one seat's link (edit link only); the old one answers 410 from now on."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    read(LinkChange)
    if seat not in seat_links.links_of(game_id):
        raise Problem(404, msg(N_("There is no seat %(seat)s at this table."), seat=seat))
    seat_links.rotate(game_id, seat)
    return answer_list(links_of(state))


def answer_list(links: list[SeatLink]) -> tuple[Response, int]:
    """A list of seat links as the JSON answer."""
    return jsonify([link.model_dump(mode="json") for link in links]), 200


@documented({201: SeatCall, 200: SeatCall}, CallRequest)
def seat_calls_create(game_id: int) -> tuple[Response, int]:
    """Call "May I?" for the seat of the link (200: its call is open already); 422 with the
    rules' reason when they refuse its buy now. Nothing is bought until the scorekeeper acts."""
    opened = open_seat(game_id, change=True)
    read(CallRequest)
    state = open_for_change(game_id, opened)
    made = calls.call(state, opened.seat)
    return answer(SeatCall.of(made.call, state.names), 201 if made.new else 200)


def _open_calls(state: GameState) -> list[SeatCall]:
    """The open calls of the game's round now, by the callers' names."""
    return [SeatCall.of(made, state.names) for made in calls.open_calls(state)]


def _calls_answer(waiting: list[SeatCall]) -> tuple[Response, int]:
    return jsonify([made.model_dump(mode="json") for made in waiting]), 200


@documented({200: list[SeatCall]}, errors=(403,))
def calls_index(game_id: int) -> tuple[Response, int]:
    """List the round's open calls, first called first (edit link only: for the scorekeeper)."""
    access = game_access(game_id, change=False)
    if not access.can_edit:
        raise Problem(403, msg(N_("Only the edit link sees the calls.")))
    return _calls_answer(_open_calls(open_for_read(game_id, access)))


@documented({201: Game, 200: Game}, SeatChange)
def calls_grant(game_id: int) -> tuple[Response, int]:
    """Grant a seat its buy (added as /buys adds it) and close the round's open calls with it."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    buy = read(SeatChange, players=state.players)
    after = calls.grant(state, buy.seat, buy.action_id, buy.version, called=False)
    return answer(Game.of(after), 201 if after.facts.version != state.facts.version else 200)


@documented({201: Game, 200: Game}, SeatChange, deprecated=True)
def calls_record(game_id: int) -> tuple[Response, int]:
    """Deprecated: the old URL of …/calls/grant, which it answers exactly."""
    return calls_grant(game_id)


@documented({200: list[SeatCall]}, Action)
def calls_dismiss(game_id: int) -> tuple[Response, int]:
    """Close the round's open calls without a buy; the callers' phones say so."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    read(Action)
    return _calls_answer(_open_calls(calls.dismiss(state)))


def register(bp: Blueprint, game: str) -> None:
    """Add the seat routes to the API, under the game's URL."""
    bp.add_url_rule(f"{game}/seat", view_func=seat_show, methods=["GET"])
    bp.add_url_rule(f"{game}/seat/calls", view_func=seat_calls_create, methods=["POST"])
    bp.add_url_rule(f"{game}/calls", view_func=calls_index, methods=["GET"])
    bp.add_url_rule(f"{game}/calls/grant", view_func=calls_grant, methods=["POST"])
    bp.add_url_rule(f"{game}/calls/record", view_func=calls_record, methods=["POST"])
    bp.add_url_rule(f"{game}/calls/dismiss", view_func=calls_dismiss, methods=["POST"])
    bp.add_url_rule(
        f"{game}/seat-links/<int(max={MAX_NUMBER}):seat>",
        view_func=seat_links_create,
        methods=["POST"],
    )
