"""Answering a request with a page or a fragment, in exactly one place."""

from __future__ import annotations

import secrets
from typing import Any

import segno
from flask import Flask, g, redirect, render_template
from flask_babel import format_date, format_time
from markupsafe import Markup
from werkzeug.wrappers import Response

from .extensions import htmx
from .games.history import describe
from .i18n import current_locale, translate
from .rules.cards import NATURAL_RANKS, RANKS_BY_CODE, Rank, rank_letter
from .rules.errors import RuleError
from .rules.ruleset import Contract
from .rules.table import describe_contract


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


def after_change(location: str, page: str, fragment: str, **context: Any) -> Response:
    """Post/redirect/get for plain forms; for htmx, the fresh fragment and a change event."""
    if not wants_fragment():
        return redirect(location, code=303)
    return respond(page, fragment, trigger="game-changed", **context)


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


def field_errors(error: RuleError) -> dict[str, list[str]]:
    """A rules refusal as form errors under its field."""
    return {error.field or "form": [translate(error.message)]}


def new_action_id() -> str:
    """A one-time token for a form, so a double tap on a slow connection records once."""
    return secrets.token_urlsafe(16)


def contract_words(contract: Contract) -> list[str]:
    """The contract in the table's language, one part per meld kind."""
    return [translate(part) for part in describe_contract(contract)]


def rank_buttons() -> list[tuple[str, str]]:
    """Rank codes with the letters of the table's language, low to high, joker last."""
    ranks = [*NATURAL_RANKS, Rank.JOKER]
    return [(rank.code, rank_letter(rank, current_locale())) for rank in ranks]


def hand_text(counts: dict[str, int]) -> str:
    """Tapped cards as the table reads them: "K K 7 🃏", with the language's rank letters."""
    locale = current_locale()
    return " ".join(
        "🃏" if code == Rank.JOKER.code else RANKS_BY_CODE[code].label(locale)
        for code, count in counts.items()
        for _ in range(count)
    )


def can_edit() -> bool:
    """Whether this request came in through the game's edit link."""
    access = g.get("access")
    return access is not None and bool(access.can_edit)


def qr_svg(url: str) -> Markup:
    """A QR code of a link as inline SVG, drawn here: no outside service sees the link."""
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=5, dark="#1d2327", light="#ffffff", title=url))


def init_app(app: Flask) -> None:
    """Make the helpers the templates use available to them."""
    app.jinja_env.globals.update(
        new_action_id=new_action_id,
        can_edit=can_edit,
        hand_text=hand_text,
        qr_svg=qr_svg,
        contract_words=contract_words,
        rank_buttons=rank_buttons,
        describe_change=describe,
        format_time=format_time,
        format_date=format_date,
    )
