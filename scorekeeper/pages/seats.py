"""A seat's own page, through its seat link: this round, this player's buys, the standings, live.

Its URLs are /s/<game_id>/<seat token>/…; a seat link opens nothing under /g/, and a game's
links open nothing here. The share page lists each seat's link for the edit link's holder,
who can replace it (`seat_links`).
"""

from __future__ import annotations

from ipaddress import ip_address
from urllib.parse import urlsplit

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..capability_links import Access
from ..extensions import db
from ..games import seat_links
from ..games.state import GameState, game_state, kept_states, load_game
from ..models import Game
from ..rules.rules_card import rules_card, summary
from .capability_links import LinkDoor
from .links import GAME, current_access, protect
from .live import out_of_band
from .rendering import respond, unchanged

SEAT = "/s/<int:game_id>/<token>"
PAGE = "seats/show.html"
POLL = "seats.version"


def _open(game_id: int, token: str, changing: bool) -> Access:
    """Check the seat link; the seat it opens is kept on g for the request."""
    opened = seat_links.open_seat(game_id, token, change=changing)
    g.seat = opened.seat
    return Access(game_id, token, "view")  # never the game's edit link


SEATS = LinkDoor(
    id_name="game_id",
    access_key="seat_access",
    session_key="seats",
    most=20,
    page="seats.show",
    share_page="seats.show",
    opens=_open,
    unremembered=(POLL,),
)

bp = Blueprint("seats", __name__, url_prefix=SEAT)
SEATS.protect(bp)
links_bp = Blueprint("seat_links", __name__, url_prefix=GAME)
protect(links_bp)


def current_seat() -> int:
    """The seat this request's link opens."""
    seat: int = g.seat
    return seat


def seat_state(game_id: int) -> GameState:
    """The game's state at its version now: kept, else derived from its facts and kept."""
    version = db.session.scalar(select(Game.version).where(Game.id == game_id))
    state = None if version is None else kept_states().get(game_id, version)
    if state is None:
        state = game_state(load_game(game_id))
        kept_states().keep(state)
    return state


def screen(state: GameState) -> str:
    """Which regions the seat page shows: a round being played, or a game over."""
    return "round" if state.current is not None else "over"


def regions(state: GameState) -> list[str]:
    """The seat page's live regions for this state."""
    header = ["games/_round_header.html"] if state.current is not None else []
    return [*header, "seats/_seat.html", "games/_standings.html"]


@bp.get("")
def show(game_id: int) -> Response:
    """The seat's page: this round's contract and deal, its own buys, the standings."""
    state = seat_state(game_id)
    return respond(PAGE, PAGE, state=state, seat=current_seat(), on=screen(state))


@bp.get("/version")
def version(game_id: int) -> Response:
    """Answer "unchanged" while the game is, else every region of the seat page, up to date."""
    seen = request.args.get("v", type=int)
    now = db.session.scalar(select(Game.version).where(Game.id == game_id))
    if seen == now:
        return unchanged()
    state = seat_state(game_id)
    response = Response(status=200, mimetype="text/html")
    response.headers["Vary"] = "HX-Request"
    if request.args.get("on") != screen(state):
        response.headers["HX-Refresh"] = "true"  # the round ended or an undo reopened it
        return response
    context = {"state": state, "seat": current_seat(), "on": screen(state)}
    parts = [render_template(name, **context) for name in regions(state)]
    body = render_template("seats/_poller.html", **context) + "".join(map(out_of_band, parts))
    response.set_data(body)
    return response


@bp.get("/rules")
def rules(game_id: int) -> Response:
    """The rules card of the game, with the way back to the seat's page."""
    state = seat_state(game_id)
    return respond(
        "rules/card.html",
        "rules/card.html",
        rules=state.rules,
        sections=rules_card(state.rules),
        card_summary=summary(state.rules),
        back=url_for("seats.show", game_id=game_id),
    )


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
    db.session.commit()
    return redirect(url_for("links.show", game_id=game_id) + "#seat-links", code=303)


@bp.app_template_global()
def seat_links_of(game_id: int) -> dict[int, str]:
    """Each seat's link token, for the share page of the game's edit link."""
    return seat_links.links_of(game_id)


@bp.app_template_global()
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
