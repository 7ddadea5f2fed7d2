"""Live updates in one request per change: every region of a page as htmx out-of-band swaps.

A change's answer and a poll's 200 both carry the page's regions and a poller on the new
version, so no region fetches itself again and the next poll answers 204. A region sent out of
band is rendered with `oob`, and its template writes `hx-swap-oob` on its own root.
"""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from markupsafe import Markup
from werkzeug.wrappers import Response

from ..games import history
from ..rules.game_facts import GameFacts
from ..rules.game_state import GameState
from .kept_regions import live_region, region

HISTORY_PAGE = 50  # changes shown on the sheet; older ones behind a link
HISTORY = "games/_history.html"
# The undo form follows this phone's own changes: a change's answer carries it, a poll's never,
# so an undo after another phone's change names that change instead of taking it back.
UNDO = "games/_undo.html"
POLLER = "games/_poller.html"
# The regions each page with a poller shows; `over` is the round screen of a finished game.
REGIONS = {
    "round": (
        "games/_round_header.html",
        "games/_buys.html",
        "games/_stock.html",
        "games/_standings.html",
        "seats/_calls.html",  # the seats' "May I?" calls, for the edit link (pages/seats.py)
        "seats/_hands.html",  # the hands entered on the seats' phones (pages/pending_hands.py)
    ),
    "over": ("games/_standings.html",),
    "sheet": ("games/_sheet.html", "games/_running_chart.html", HISTORY),
    "display": ("games/_display.html",),
}


def round_screen(state: GameState) -> str:
    """Which set of regions the round screen of this game shows."""
    return "round" if state.current is not None else "over"


def history_page(game: GameFacts, before: int | None = None) -> dict[str, Any]:
    """One page of the history, newest first, and the change to show older ones before."""
    changes = history.changes(game, before=before, limit=HISTORY_PAGE + 1)
    older = changes[HISTORY_PAGE - 1].id if len(changes) > HISTORY_PAGE else None
    return {"changes": changes[:HISTORY_PAGE], "older": older}


def sheet_region(
    name: str, state: GameState, before: int | None = None, *, oob: bool = False
) -> Markup:
    """A region of the score sheet (its history from change `before` on), kept once rendered;
    `oob` renders it to swap out of band, kept apart from the page's own.

    A sheet at a version already shown in its language and link reads neither the facts nor
    the history, and renders nothing but the page around its regions.
    """
    if name == HISTORY:
        return region(
            name, state, (before, oob), lambda: {**history_page(state.facts, before), "oob": oob}
        )
    return region(name, state, oob, lambda: {"oob": oob})


def poller(page: str, state: GameState, *, oob: bool = False, committed: bool = False) -> str:
    """The page's poller, asking from the game's current version on (kept like a region)."""

    def context() -> dict[str, Any]:
        return {"game": state.facts, "on": page}

    # str: the answers add plain strings to it, which Markup's + would escape
    return str(live_region(POLLER, state, page, context, oob=oob, committed=committed))


def regions(
    page: str, state: GameState, skip: str | None = None, committed: bool = False, **context: Any
) -> str:
    """The page's regions but `skip`, each rendered to swap out of band; kept but for what a
    change's `context` adds to them (a refusal, the buy a call was granted)."""
    parts = (
        sheet_region(name, state, oob=True)
        if page == "sheet"
        else render_template(name, state=state, oob=True, **context)
        if context
        else live_region(name, state, oob=True, committed=committed)
        for name in REGIONS[page]
        if name != skip
    )
    return "".join(parts)


def change_answer(fragment: str, state: GameState, **context: Any) -> str:
    """The answer to a change on the round screen: its fragment, the other regions, the poller.

    `state` is the change's, committed (games/writes.finish): what it renders is kept, so the
    phones watching the game get their regions as the tapping phone got them, rendering none.
    """
    page = round_screen(state)
    if context or fragment not in REGIONS[page]:
        body = render_template(fragment, state=state, **context)
    else:
        body = str(live_region(fragment, state, committed=True))  # str: Markup + str escapes
    undo = render_template(UNDO, state=state, oob=True) if page == "round" else ""
    others = regions(page, state, fragment, True, **context)
    return body + others + undo + poller(page, state, oob=True, committed=True)


def shape_changed(page: str, state: GameState) -> bool:
    """Whether the round screen must load again: the game ended, or an undo reopened it."""
    return page in ("round", "over") and page != round_screen(state)


def poll_answer(page: str, state: GameState) -> Response:
    """A poll's 200: every region of the asking page, or a reload when its shape changed."""
    response = Response(status=200, mimetype="text/html")
    response.headers["Vary"] = "HX-Request"
    if shape_changed(page, state):
        response.headers["HX-Refresh"] = "true"
        return response
    # The poller is the request's own target; everything else swaps out of band.
    response.set_data(poller(page, state) + regions(page, state))
    return response


def asked_page() -> str | None:
    """The page a poll comes from (its poller says), if it is one with live regions."""
    page = request.args.get("on")
    return page if page in REGIONS else None
