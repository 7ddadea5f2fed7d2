"""Answering a request with a page or a fragment, in exactly one place."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from flask import redirect, render_template
from flask.templating import Environment
from werkzeug.wrappers import Response

from ..extensions import htmx
from ..i18n import translate
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.rules_card import rules_card, summary
from ..rules.ruleset import RuleSet
from ..rules.sheet_words import worded
from .live import change_answer

# "Nothing changed": an empty 200 that htmx does not swap, rather than a 204, because waitress
# closes the connection after every 204 (it may carry no Content-Length), so a phone polling
# every 2 s would open a new connection each time.
UNCHANGED_HEADERS = [("Content-Length", "0"), ("HX-Reswap", "none")]


class Templates(Environment):
    """Flask's Jinja environment, each template's globals one plain dict (create_app's).

    Jinja gives a template a ChainMap over the environment's globals, which every render copies
    into its context key by key in Python (`dict(globals, **vars)`, `set(globals)`, and a set
    difference for each `{% from ... import %}`): about 150 function calls a template with our
    49 globals, and a poll that carries a change renders 7. Every global is set while the app
    is built, before any template loads (Jinja asks for that too), so a copy made when a
    template loads holds the same names, and dict copies it in C.

    Measured (issue 19, 2026-12-04, `bench/request_costs.py --requests 20`, SQLite; function
    calls a request): the round screen 24.2k -> 21.9k, the score sheet
    8.6k -> 8.2k, a poll that carries a change 13.8k -> 11.5k, a form buy 16.7k -> 13.9k, a
    live table's minute 481k -> 424k (bd6e921's: 447k); with static_hash's change, callgrind's
    instructions a round screen 27.7M -> 24.7M and a live table's minute 760M -> 664M.
    """

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """The environment's globals, then the template's own, copied once at load."""
        return {**self.globals, **(d or {})}


def unchanged() -> Response:
    """The answer to a poll whose game has not changed."""
    return Response(status=200, headers=UNCHANGED_HEADERS)


def wants_fragment() -> bool:
    """An htmx request for part of a page (not a boosted or history-restore page load)."""
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def respond(
    page: str, fragment: str, status: int = 200, trigger: str | None = None, **context: Any
) -> Response:
    """Render the fragment for htmx, else the whole page; announce changes with HX-Trigger."""
    template = fragment if wants_fragment() else page
    # werkzeug's Response defaults to text/plain, which nosniff makes browsers show as source.
    response = Response(render_template(template, **context), status=status, mimetype="text/html")
    response.headers["Vary"] = "HX-Request"
    if trigger:
        response.headers["HX-Trigger"] = trigger
    return response


def after_change(location: str, fragment: str, state: GameState, **context: Any) -> Response:
    """Post/redirect/get for plain forms; for htmx, the fragment with every other region.

    The other regions and the poller on the new version come out of band in the same answer,
    so the tapping phone makes one request per change.
    """
    if not wants_fragment():
        return redirect(location, code=303)
    response = Response(change_answer(fragment, state, **context), mimetype="text/html")
    response.headers["Vary"] = "HX-Request"
    # Answers to taps sent side by side come in any order: taps.js swaps none over a newer.
    response.headers["Game-Version"] = str(state.facts.version)
    return response


def go_to(location: str) -> Response:
    """Send the browser to another page: 303 for a plain form, HX-Redirect for htmx.

    An htmx request would follow a 303 inside its XHR and swap the whole page into the fragment.
    """
    if not wants_fragment():
        return redirect(location, code=303)
    response = Response(status=204)
    response.headers["HX-Redirect"] = location
    response.headers["Vary"] = "HX-Request"
    return response


def field_errors(error: RuleError, rules: RuleSet | None = None) -> dict[str, list[str]]:
    """A rules refusal as form errors under its field, in the words of the game's rules."""
    message = worded(rules, error.message) if rules else error.message
    return {error.field or "form": [translate(message)]}


def rules_card_page(rules: RuleSet, **links: str) -> Response:
    """A rule set's rules card, page or fragment, with the links around it (back, edit, print)."""
    sections, card_summary = rules_card(rules), summary(rules)
    page = "rules/card.html"
    return respond(page, page, rules=rules, sections=sections, card_summary=card_summary, **links)
