"""Rendered regions of the score sheet, kept per game version, language and link, in the one
cache (kept.py, whose rule says why nothing kept is stale).

A region is a function of the game's facts at a version, the language and time zone it is said
in, and the link it was opened through (its URLs carry the link, an edit link adds the
correcting pencils), so once rendered it is served again as it is. Kept only when read (a GET):
a change's answer is rendered before its transaction commits.

Measured (issue 19 step 6, `bench/run.py --before noregions --routes "score sheet"`,
2026-12-04, two runs at load 8-11): the score sheet 2.0-3.3x as fast with it, 7.6k function
calls a request instead of 26.9k; kept. Today's figures: docs/PERFORMANCE.md, "Function calls
a request" (the score sheet, and after a change, when the regions are rendered again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import g, render_template, request
from flask_babel import get_timezone
from markupsafe import Markup

from ..i18n import current_locale
from ..kept import Key, keep_region, region_of
from ..rules.game_state import GameState

READS = frozenset({"GET", "HEAD"})
Context = Callable[[], dict[str, Any]]


def region(
    name: str, state: GameState, part: object = None, context: Context | None = None
) -> Markup:
    """Template `name` rendered for the state: kept, else rendered (and kept if it may be).

    `part` tells apart what else the region shows (the history's page); `context` gives the
    rest of what the template reads, asked for only when it is rendered.
    """
    said = _said(name, part) if request.method in READS else None
    html = region_of(state.facts, said) if said is not None else None
    if html is None:
        html = render_template(name, state=state, **(context() if context else {}))
        if said is not None:
            keep_region(state.facts, said, html)
    return Markup(html)


def _said(name: str, part: object) -> Key:
    """Everything but the game and its version a region shows depends on."""
    access = g.get("access")
    token = access.token if access is not None else None
    return (name, part, current_locale(), str(get_timezone()), token, request.script_root)
