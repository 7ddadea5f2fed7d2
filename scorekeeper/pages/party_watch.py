"""Watching an evening: the TV view, the relatives' link, and tonight's tally with its card."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from werkzeug.wrappers import Response

from ..link_tokens import LinkRefused
from ..models import CardParty
from ..tables.party_evening import Evening, poll_mark, read_evening
from ..tables.party_links import table_of
from ..tables.party_tally import evening_tally
from ..tables.party_watch import open_watch, replace_watch_link
from .party import EVENING, party_of
from .rendering import go_to, respond, unchanged
from .table_door import TABLES, current_table

bp = Blueprint("party_watch", __name__, url_prefix="/party")  # under the table's door
relatives_bp = Blueprint("party_relatives", __name__, url_prefix="/w/<int:party_id>/<token>")
TV, WATCH, REGION = "party/tv.html", "party/watch.html", "party/_watch.html"
TALLY, CARD = "party/tally.html", "party/card.svg"
SVG = "image/svg+xml; charset=utf-8"


def _context(evening: Evening, live_url: str, tally_url: str, card_url: str) -> dict[str, Any]:
    """What every watching page shows: the evening, its tally once it has ended, its poll."""
    return {
        "evening": evening,
        "tally": evening_tally(evening) if evening.ended else None,
        "fingerprint": evening.mark,
        "live_url": live_url,
        "tally_url": tally_url,
        "card_url": card_url,
    }


def _table_urls(party: CardParty) -> tuple[str, str, str]:
    """The table link's own addresses of the evening's live region, tally and card."""
    ids = {"table_id": current_table().id, "party_id": party.id}
    return (
        url_for("table.party_watch.tv_live", **ids),
        url_for("table.party_watch.tally", **ids),
        url_for("table.party_watch.card", **ids),
    )


def _table_context(party: CardParty) -> dict[str, Any]:
    """The watching pages' context behind the table's link."""
    return {"table": current_table()} | _context(
        read_evening(current_table(), party), *_table_urls(party)
    )


def _polled(party: CardParty, page: str, context: Any) -> Response:
    """The region when the evening changed since the page's `v`, else nothing (one query)."""
    if request.args.get("v") == poll_mark(party):
        return unchanged()
    return respond(page, REGION, **context())


def _card(context: dict[str, Any]) -> Response:
    """The tally's card as an SVG image, drawn once the evening has ended."""
    if context["tally"] is None:
        abort(404)
    return Response(render_template(CARD, **context), mimetype="image/svg+xml")


@bp.get(f"{EVENING}/tv")
def tv(table_id: int, party_id: int) -> Response:
    """The whole evening on a television: each table's round, contract and leader, the
    standings and who moves next, live."""
    return respond(TV, REGION, **_table_context(party_of(party_id)))


@bp.get(f"{EVENING}/tv/live")
def tv_live(table_id: int, party_id: int) -> Response:
    """The TV view's region when the evening changed since the page's `v`, else nothing."""
    found = party_of(party_id)
    return _polled(found, TV, lambda: _table_context(found))


@bp.get(f"{EVENING}/watch")
def watching(table_id: int, party_id: int) -> Response:
    """The organiser's page of the TV view and the relatives' link."""
    TABLES.require_edit()
    found = party_of(party_id)
    page = "party/watch_links.html"
    return respond(page, page, table=current_table(), party=found)


@bp.post(f"{EVENING}/watch")
def replace_link(table_id: int, party_id: int) -> Response:
    """Make the relatives' link, or replace it: the old one stops working at once."""
    TABLES.require_edit()
    found = party_of(party_id)
    replace_watch_link(current_table(), found)
    return go_to(url_for("table.party_watch.watching", table_id=table_id, party_id=found.id))


@bp.get(f"{EVENING}/tally")
def tally(table_id: int, party_id: int) -> Response:
    """Tonight's tally: the podium, everyone's places, the highlights, the card and the text."""
    return respond(TALLY, TALLY, **_table_context(party_of(party_id)))


@bp.get(f"{EVENING}/card.svg")
def card(table_id: int, party_id: int) -> Response:
    """Tonight's tally as an SVG card."""
    return _card(_table_context(party_of(party_id)))


def _relatives_party(party_id: int, token: str) -> CardParty:
    """The evening the relatives' link opens; 404 for any other link. It changes nothing."""
    try:
        return open_watch(party_id, token)
    except LinkRefused as refusal:
        abort(refusal.status)


def _relatives_context(party: CardParty, token: str) -> dict[str, Any]:
    """The watching pages' context behind the relatives' link."""
    ids = {"party_id": party.id, "token": token}
    urls = (
        url_for("party_relatives.live", **ids),
        url_for("party_relatives.relatives_tally", **ids),
        url_for("party_relatives.relatives_card", **ids),
    )
    return _context(read_evening(table_of(party), party), *urls)


@relatives_bp.get("")
def show(party_id: int, token: str) -> Response:
    """The evening for relatives at home: the standings and every table, live, read only."""
    return respond(WATCH, REGION, **_relatives_context(_relatives_party(party_id, token), token))


@relatives_bp.get("/live")
def live(party_id: int, token: str) -> Response:
    """The relatives' region when the evening changed since the page's `v`, else nothing."""
    found = _relatives_party(party_id, token)
    return _polled(found, WATCH, lambda: _relatives_context(found, token))


@relatives_bp.get("/tally")
def relatives_tally(party_id: int, token: str) -> Response:
    """Tonight's tally for relatives at home."""
    context = _relatives_context(_relatives_party(party_id, token), token)
    return respond(TALLY, TALLY, **context)


@relatives_bp.get("/card.svg")
def relatives_card(party_id: int, token: str) -> Response:
    """Tonight's tally as an SVG card, for relatives at home."""
    return _card(_relatives_context(_relatives_party(party_id, token), token))
