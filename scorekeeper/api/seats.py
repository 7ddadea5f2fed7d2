"""Seats through the API: a seat's own view, its "May I?" calls and its own hand under its seat
link's token; for the edit link, each seat's link, the round's calls and the phones' hands.

A seat's endpoints take the seat's link as the bearer token, and no game endpoint takes it
(games.seat_links): a seat reads what the view link reads and changes only its own facts.
Saving the round stays PUT …/rounds/<n>, which names the entries saved unchanged in the history.
"""

from __future__ import annotations

from flask import Blueprint, Response
from pydantic import Field, StrictBool

from ..games import calls, rematch, seat_hands, seat_links
from ..games.calls import Call
from ..games.opening import open_for_change, open_for_read
from ..games.pending_hands import NOTE_LENGTH
from ..games.seat_links import SeatAccess
from ..link_tokens import LinkRefused
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.messages import N_, msg
from ..rules.round_entry import Hand, RoundEnd, cards_of
from .answers import Game, NextGame, PendingHand, SeatLink, answer_game, links_of
from .base import (
    GAME,
    Answer,
    Count,
    Problem,
    With,
    answer,
    answer_list,
    bearer_token,
    documented,
    game_access,
    refused,
)
from .fields import ABSENT, MAX_NUMBER, Body, Cards, Counts, Whole
from .reading import Action, LinkChange, SeatChange, read

bp = Blueprint("seats", __name__)
PENDING = f"{GAME}/rounds/<int(max={MAX_NUMBER}):number>/pending"


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
    round: Count = Field(validation_alias="round_number")
    open: bool
    outcome: str | None


def seat_call(made: Call, names: tuple[str, ...] | list[str]) -> SeatCall:
    """A call as the API answers it."""
    return SeatCall.model_validate(With(made, name=names[made.seat]))


class CallRequest(Action):
    """Call "May I?" for the seat of the link; nothing else to say (its version is taken)."""


class HandEntry(Action):
    """The seat's own hand for the round being played: it went out, or its points, its cards
    or its cards counted per rank; the cutter may claim the exact cut. It replaces the seat's
    earlier entry and waits, pending, until the scorekeeper saves the round."""

    round: Whole
    went_out: StrictBool = False
    points: Whole = ABSENT
    cards: Cards = ABSENT
    counts: Counts = ABSENT
    cut_bonus: StrictBool = False


class SendBack(Body):
    """Send an entry back to its seat's phone with a short note the player reads."""

    note: str = Field("", max_length=NOTE_LENGTH)


def open_seat(game_id: int, *, change: bool) -> SeatAccess:
    """The seat this request's bearer token opens; refused as a game's link is refused."""
    try:
        return seat_links.open_seat(game_id, bearer_token(), change=change)
    except LinkRefused as refusal:
        raise refused(refusal) from None


def next_game(found: rematch.NextGame | None) -> NextGame | None:
    """A link to the rematch as the API answers it."""
    return None if found is None else NextGame.model_validate(found)


@bp.get(f"{GAME}/seat")
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
        next_game=next_game(rematch.next_for_seat(state.facts, seat)),
        game=Game.of(state),
    )
    return answer(view)


@bp.post(f"{GAME}/seat-links/<int(max={MAX_NUMBER}):seat>")
@documented({200: list[SeatLink]}, LinkChange, errors=(404,))
def seat_links_create(game_id: int, seat: int) -> tuple[Response, int]:
    """Replace one seat's link (edit link only); the old one answers 410 from now on."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    read(LinkChange)
    if seat not in seat_links.links_of(game_id):
        raise Problem(404, msg(N_("There is no seat %(seat)s at this table."), seat=seat))
    seat_links.rotate(game_id, seat)
    return answer_list(links_of(state))


@bp.post(f"{GAME}/seat/calls")
@documented({201: SeatCall, 200: SeatCall}, CallRequest)
def seat_calls_create(game_id: int) -> tuple[Response, int]:
    """Call "May I?" for the seat of the link (200: its call is open already); 422 with the
    rules' reason when they refuse its buy now. Nothing is bought until the scorekeeper acts."""
    opened = open_seat(game_id, change=True)
    read(CallRequest)
    state = open_for_change(game_id, opened)
    made = calls.call(state, opened.seat)
    return answer(seat_call(made.call, state.names), 201 if made.new else 200)


def _open_calls(state: GameState) -> list[SeatCall]:
    """The open calls of the game's round now, by the callers' names."""
    return [seat_call(made, state.names) for made in calls.open_calls(state)]


@bp.get(f"{GAME}/calls")
@documented({200: list[SeatCall]}, errors=(403,))
def calls_index(game_id: int) -> tuple[Response, int]:
    """List the round's open calls, first called first (edit link only: for the scorekeeper)."""
    access = game_access(game_id, change=False)
    if not access.can_edit:
        raise Problem(403, msg(N_("Only the edit link sees the calls.")))
    return answer_list(_open_calls(open_for_read(game_id, access)))


@bp.post(f"{GAME}/calls/grant")
@documented({201: Game, 200: Game}, SeatChange)
def calls_grant(game_id: int) -> tuple[Response, int]:
    """Grant a seat its buy (added as /buys adds it) and close the round's open calls with it."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    buy = read(SeatChange, players=state.players)
    after = calls.grant(state, buy.seat, buy.action_id, buy.version, called=False)
    return answer_game(after, 201 if after.facts.version != state.facts.version else 200)


@bp.post(f"{GAME}/calls/dismiss")
@documented({200: list[SeatCall]}, Action)
def calls_dismiss(game_id: int) -> tuple[Response, int]:
    """Close the round's open calls without a buy; the callers' phones say so."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    read(Action)
    return answer_list(_open_calls(calls.dismiss(state)))


def _entry(body: HandEntry, seat: int) -> RoundEnd:
    """What the body says, as a round's end of the seat's own hand: the cards as sent."""
    if body.went_out and (body.points or body.cards or body.counts):
        raise Problem(
            422, errors={"went_out": [msg(N_("The player who went out holds no cards."))]}
        )
    try:
        cards = cards_of(body.cards or body.counts or {}) or None
    except RuleError as error:
        raise RuleError(error.message, field="points") from error
    hand = Hand(body.went_out, body.points, cards)
    return RoundEnd({seat: hand}, cut_bonus_seat=seat if body.cut_bonus else None)


@bp.put(f"{GAME}/seat/hand")
@documented({200: PendingHand}, HandEntry)
def seat_hand_update(game_id: int) -> tuple[Response, int]:
    """Enter the seat's own hand for the round (replacing its earlier entry); 422 with the
    rules' reason at its field, as the end-of-round form refuses a hand."""
    opened = open_seat(game_id, change=True)
    body = read(HandEntry)
    state = open_for_change(game_id, opened)
    end = _entry(body, opened.seat)
    entered = seat_hands.submit(state, opened.seat, body.round, end, body.action_id)
    return answer(PendingHand.of(state, entered))


def _edit_state(game_id: int, *, change: bool) -> GameState:
    """The game through its edit link (the scorekeeper's): 403 for its view link."""
    access = game_access(game_id, change=change)
    if not access.can_edit:
        raise Problem(403, msg(N_("Only the edit link sees the hands from the phones.")))
    return open_for_change(game_id, access) if change else open_for_read(game_id, access)


@bp.get(PENDING)
@documented({200: list[PendingHand]}, errors=(403,))
def pending_index(game_id: int, number: int) -> tuple[Response, int]:
    """List the hands entered on the seats' phones for round `number` (the round being played;
    any other has none), by seat (edit link only)."""
    state = _edit_state(game_id, change=False)
    current = state.current
    playing = current is not None and current.number == number
    entries = state.facts.entered_in(number) if playing else {}
    return answer_list([PendingHand.of(state, entry) for entry in entries.values()])


@bp.post(f"{PENDING}/<int(max={MAX_NUMBER}):seat>/send-back")
@documented({200: PendingHand}, SendBack, errors=(403,))
def pending_send_back(game_id: int, number: int, seat: int) -> tuple[Response, int]:
    """Send a seat's entry back to its phone with a note (edit link only); 422 when the seat
    has no entry waiting in the round being played."""
    state = _edit_state(game_id, change=True)
    body = read(SendBack)
    return answer(PendingHand.of(state, seat_hands.send_back(state, seat, number, body.note)))
