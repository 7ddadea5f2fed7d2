"""A seat's own page, through its seat link: this round, this player's buys, the standings, live.

Its URLs are /s/<game_id>/<seat token>/…; a seat link opens nothing under /g/, and a game's
links open nothing here. The share page lists each seat's link for the edit link's holder,
who can replace it (`seat_links`).
"""

from __future__ import annotations

from ipaddress import ip_address
from urllib.parse import urlsplit

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..games import calls, seat_links
from ..games.calls import Call
from ..games.opening import open_for_change, open_for_read
from ..games.refusals import status_of
from ..games.seat_links import SeatAccess
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from .game_door import current_access
from .link_doors import LinkDoor
from .next_game import lead_to_next_game
from .posted import posted_action_id, posted_int, posted_version
from .rendering import (
    after_change,
    field_errors,
    respond,
    rules_card_page,
    unchanged,
    wants_fragment,
)
from .seat_hand_form import hand_context, seat_form

SEAT = "/s/<int:game_id>/<token>"
PAGE = "seats/show.html"
POLL = "seat.version"


def _open(game_id: int, token: str, changing: bool) -> SeatAccess:
    """Check the seat link: a view of the game (never its edit link) and the seat it opens."""
    return seat_links.open_seat(game_id, token, change=changing)


SEATS = LinkDoor(
    id_name="game_id",
    access_key="seat_access",
    session_key="seats",
    most=20,
    page="seat.show",
    share_page="seat.show",
    opens=_open,
    unremembered=(POLL,),
)
# The seat's pages are nested under it (pages/__init__.py): the link is checked once here.
door = Blueprint("seat", __name__, url_prefix=SEAT)
SEATS.protect(door)
links_bp = Blueprint("seat_links", __name__)
calls_bp = Blueprint("calls", __name__)
ROUND = "games/show.html"
MAX_SEAT = 1_000  # far past any table; the rules say which seats play


def seat_access() -> SeatAccess:
    """The seat link this request opened (SEATS checked it before the view)."""
    access = SEATS.access()
    assert isinstance(access, SeatAccess)
    return access


def current_seat() -> int:
    """The seat this request's link opens."""
    return seat_access().seat


def seat_state(game_id: int) -> GameState:
    """The game's state at the version the seat link's check read (games.opening)."""
    return open_for_read(game_id, seat_access())


def screen(state: GameState) -> str:
    """Which page the seat sees: a round being played (the pad is that round's, and it offers
    "I went out" until the stock ends the round: the page loads again then), or a game over."""
    current = state.current
    if current is None:
        return "over"
    return f"round-{current.number}" + ("-counting" if current.ended_by_stock else "")


def regions(state: GameState) -> list[str]:
    """The seat page's live regions for this state (never the pad: it holds the seat's typing)."""
    playing = ["games/_round_header.html", "games/_stock.html"] if state.current else []
    return [*playing, "seats/_seat.html", "seats/_hand_status.html", "games/_standings.html"]


@door.get("")
def show(game_id: int) -> Response:
    """The seat's page: this round's contract and deal, its own buys and hand, the standings."""
    return _seat_page(seat_state(game_id), current_seat(), PAGE)


def _seat_page(
    state: GameState, seat: int, fragment: str, status: int = 200, **extra: object
) -> Response:
    """The seat's page (its pad drawn from the seat's entry), or `fragment` for htmx."""
    pad = hand_context(state, seat, seat_form(state, seat))
    return respond(PAGE, fragment, status, state=state, seat=seat, on=screen(state), **pad, **extra)


@door.get("/version")
def version(game_id: int) -> Response:
    """Answer "unchanged" while the game is, else every region of the seat page, up to date."""
    seen = request.args.get("v", type=int)
    if seen == seat_access().version:
        return unchanged()
    state = seat_state(game_id)
    if (lead := lead_to_next_game(state, None)) is not None:
        return lead
    response = Response(status=200, mimetype="text/html")
    response.headers["Vary"] = "HX-Request"
    if request.args.get("on") != screen(state):
        response.headers["HX-Refresh"] = "true"  # the round ended or an undo reopened it
        return response
    context = {"state": state, "seat": current_seat(), "on": screen(state)}
    parts = [render_template(name, oob=True, **context) for name in regions(state)]
    body = render_template("seats/_poller.html", **context) + "".join(parts)
    response.set_data(body)
    return response


@door.post("/calls")
def call(game_id: int) -> Response:
    """Call "May I?" from this seat's phone: a request the scorekeeper sees at once, or the
    rules' reason it is refused; a second tap while the call is open calls once."""
    state, seat = open_for_change(game_id, seat_access()), current_seat()
    try:
        fresh = calls.call(state, seat).state
    except RuleError as error:
        errors = next(iter(field_errors(error, state.rules).values()))
        # without script the whole page answers, its pad too (its context, not only the seat's)
        return _seat_page(state, seat, "seats/_seat.html", status_of(error), call_errors=errors)
    if not wants_fragment():
        return redirect(url_for("seat.show", game_id=game_id), code=303)
    return respond(PAGE, "seats/_seat.html", state=fresh, seat=seat, on=screen(fresh))


@door.get("/rules")
def rules(game_id: int) -> Response:
    """The rules card of the game, with the way back to the seat's page."""
    return rules_card_page(seat_state(game_id).rules, back=url_for("seat.show", game_id=game_id))


@links_bp.post("/seat-links")
def replace(game_id: int) -> Response:
    """Replace one seat's link (edit link only); whoever holds the old one is locked out.

    The seat is in the URL's query (`?seat=N`): the share page's card posts no field of its own.
    """
    if not current_access().can_edit:
        abort(403)
    raw = request.args.get("seat", "")
    seat = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else None
    if seat is None or seat not in seat_links.links_of(game_id):
        abort(404)
    seat_links.rotate(game_id, seat)
    return redirect(url_for("game.share", game_id=game_id) + "#seat-links", code=303)


def _calls_refused(state: GameState, error: RuleError) -> Response:
    """The calls region with the refusal (nothing was written)."""
    errors = field_errors(error, state.rules)
    return respond(ROUND, "seats/_calls.html", status_of(error), state=state, call_errors=errors)


# Its old URL too, for a round screen loaded before the rename (registered last: url_for
# builds the first, /calls/grant).
@calls_bp.post("/calls/record")
@calls_bp.post("/calls/grant")
def grant(game_id: int) -> Response:
    """Grant a seat that called its buy, with one tap, and close the round's calls; among
    several callers the form posts who discarded and the arbiter says whose buy it is."""
    state = open_for_change(game_id, current_access())
    try:
        seat = posted_int("seat", high=MAX_SEAT)
        discarder = posted_int("discarder", high=MAX_SEAT)
        if seat is None and discarder is not None:
            seat = calls.ruled_winner(state, discarder)
        changed = calls.grant(
            state, -1 if seat is None else seat, posted_action_id(), posted_version()
        )
    except RuleError as error:
        return _calls_refused(state, error)
    location = url_for("game.show", game_id=game_id)
    return after_change(location, "seats/_calls.html", changed, added=seat)


@calls_bp.post("/calls/dismiss")
def dismiss(game_id: int) -> Response:
    """Close the round's calls without a buy; each caller's phone says so."""
    changed = calls.dismiss(open_for_change(game_id, current_access()))
    return after_change(url_for("game.show", game_id=game_id), "seats/_calls.html", changed)


@door.app_template_global()
def open_calls_of(state: GameState) -> list[Call]:
    """The round's open calls, for the scorekeeper's round screen (from the facts)."""
    return calls.open_calls(state)


@door.app_template_global()
def call_winners(state: GameState) -> dict[int, list[int]]:
    """Whom one tap grants the discard among several callers, by who discarded (the arbiter)."""
    return calls.winners(state)


@door.app_template_global()
def seat_call_of(state: GameState, seat: int) -> Call | None:
    """A seat's newest call this round, for its own page (an open one from the facts)."""
    return calls.seat_call(state, seat)


@door.app_template_global()
def seat_links_of(game_id: int) -> dict[int, str]:
    """Each seat's link token, for the share page of the game's edit link."""
    return seat_links.links_of(game_id)


@door.app_template_global()
def only_on_local_network(url: str) -> bool:
    """Whether a link's host is a private (LAN) address, which no phone from afar can open."""
    host = urlsplit(url).hostname or ""
    if host.endswith((".local", ".lan", ".home.arpa")):
        return True
    try:
        address = ip_address(host)
    except ValueError:
        return False
    return address.is_private and not address.is_loopback
