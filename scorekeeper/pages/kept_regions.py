"""Rendered regions of the score sheet, kept per game version, language and link, in the one
cache (kept.py, whose rule says why nothing kept is stale).

A region is a function of the game's facts at a version, the language and time zone it is said
in, and the link it was opened through (its URLs carry the link and so its role, an edit link
adds the correcting pencils and the forms), so once rendered it is served again as it is. Kept
when read (a GET), and from a change's answer, drawn on the committed state (pages/live.py).

What is not the game's stays out of the kept HTML: a form's CSRF token and one-time action id
are kept as marks and filled each time the region is sent, so a form still posts without
JavaScript and a double tap still counts once, on every phone apart.

Measured (issue 19 step 6, `bench/run.py --before noregions --routes "score sheet"`,
2026-12-04, two runs at load 8-11): the score sheet 2.0-3.3x as fast with it, 7.6k function
calls a request instead of 26.9k; kept. Today's figures: docs/PERFORMANCE.md, "Function calls
a request" (the score sheet, and after a change, when the regions are rendered again).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import current_app, g, render_template, request
from flask_babel import get_timezone
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

from ..i18n import current_locale
from ..kept import Key, keep_region, region_of
from ..rules.game_state import GameState

READS = frozenset({"GET", "HEAD"})
Context = Callable[[], dict[str, Any]]
# Escaped text never holds a "<", so no name typed at the table can forge a mark.
CSRF_MARK, ACTION_MARK, BACK_MARK = "<!--sk:csrf-->", "<!--sk:action-->", "<!--sk:back-->"
FRAMES = "scorekeeper.kept_frames"  # app.extensions' {(template, language, theme, root): HTML}
MOST_FRAMES = 64  # five languages, three themes, the script roots the proxy may send
KEEPING = "keeping_region"  # g's flag while a region to keep renders
OUT_OF_BAND = ' hx-swap-oob="true"'  # on a region's root, its first attribute of the kind


def region(
    name: str,
    state: GameState,
    part: object = None,
    context: Context | None = None,
    committed: bool = False,
) -> Markup:
    """Template `name` rendered for the state: kept, else rendered (and kept if it may be).

    `part` tells apart what else the region shows (the history's page); `context` gives the
    rest of what the template reads, asked for only when it is rendered; `committed`, a
    change's state after its commit, which may be kept although the request is no read.
    """
    said = _said(name, part) if committed or request.method in READS else None
    html = region_of(state.facts, said) if said is not None else None
    if html is None:
        html = _drawn_to_keep(name, state=state, **(context() if context else {}))
        if said is not None:
            keep_region(state.facts, said, html)
    return Markup(_filled(html))


def live_region(
    name: str,
    state: GameState,
    part: object = None,
    context: Context | None = None,
    *,
    oob: bool = False,
    committed: bool = False,
) -> Markup:
    """A live region of the round screen (or a poller), kept once for both ways it is sent:
    out of band, and in place without its root's hx-swap-oob (`region` says the rest).

    Measured (issue 37 step 2, `bench/cost_table.py`, callgrind, SQLite, 2026-12-05): the round
    screen 23.1M -> 17.6M instructions (ratio to the bare app 0.39 -> 0.51), a table-minute
    330M -> 259M (0.75 -> 0.96), each watching phone's poll after a change rendering nothing.
    """
    rest = context or dict
    html = region(name, state, ("live", part), lambda: {**rest(), "oob": True}, committed)
    return html if oob else Markup(html.replace(OUT_OF_BAND, "", 1))


def page_part(name: str, state: GameState) -> Markup:
    """A part of the round screen that is no live region but shows nothing of the phone's own
    (the arbiter, the checker, the keeper's choice of seat): kept like one, as the page's.

    Measured (issue 37 step 3, callgrind as `bench/cost_table.py` counts, SQLite, 2026-12-05):
    the round screen 17.8M -> 14.1M instructions a request (-21 %; the checker alone 2.5M);
    its links, poller and end-of-round link kept too (their URLs built once a version), 13.5M
    -> 12.9M (-4.2 %, with the same function: kept as one with the rest).
    """
    return region(name, state, "page")


def frame_part(name: str, theme: str) -> Markup:
    """A part of every page's frame (the top bar's language and theme switches), the same on
    every page in a language, theme and script root: kept per app by those, with marks for
    the CSRF token and the page the switches come back to, filled for each answer.

    Measured (issue 37 step 3, callgrind as `bench/cost_table.py` counts, SQLite,
    2026-12-05, taken out of the finished step): the round screen 12.55M -> 11.89M
    instructions a request (-5.3 %), the score sheet 11.93M -> 11.18M (-6.3 %).
    """
    key = (name, current_locale(), theme, request.script_root)
    kept: dict[tuple[str, ...], str] = current_app.extensions[FRAMES]
    html = kept.get(key)
    if html is None:
        html = _drawn_to_keep(name)
        if len(kept) < MOST_FRAMES:
            kept[key] = html
    return Markup(_filled(html).replace(BACK_MARK, escape(_this_page())))


def back_here() -> str:
    """The page a frame's form comes back to: this one; a mark in a frame being kept."""
    return Markup(BACK_MARK) if g.get(KEEPING) else _this_page()


def _this_page() -> str:
    """This request's path, with its query when it has one."""
    return request.full_path if request.query_string else request.path


def _drawn_to_keep(name: str, **context: Any) -> str:
    """A template drawn with marks for what each answer fills in."""
    setattr(g, KEEPING, True)
    try:
        return render_template(name, **context)
    finally:
        setattr(g, KEEPING, False)


def new_action_id() -> str:
    """A one-time token for a form, so a double tap on a slow connection counts once; a mark
    in a region being kept."""
    return Markup(ACTION_MARK) if g.get(KEEPING) else secrets.token_urlsafe(16)


def region_csrf_token() -> str:
    """The session's CSRF token for the hidden field of a live region's form; a mark in a
    region being kept. Not `csrf_token`: Flask-WTF puts its own in every template's context."""
    return Markup(CSRF_MARK) if g.get(KEEPING) else generate_csrf()


def _filled(html: str) -> str:
    """A kept region with this request's CSRF token and a fresh action id for each form."""
    if ACTION_MARK in html:
        first, *rest = html.split(ACTION_MARK)
        html = first + "".join(secrets.token_urlsafe(16) + after for after in rest)
    return html.replace(CSRF_MARK, generate_csrf()) if CSRF_MARK in html else html


def _said(name: str, part: object) -> Key:
    """Everything but the game and its version a region shows depends on."""
    access = g.get("access")
    token = access.token if access is not None else None
    return (name, part, current_locale(), str(get_timezone()), token, request.script_root)
