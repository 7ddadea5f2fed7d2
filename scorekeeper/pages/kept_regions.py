"""Rendered regions of the score sheet, kept per game version, language and link.

A region is a function of the game's facts at a version, the language and time zone it is said
in, and the link it was opened through (its URLs carry the link, an edit link adds the
correcting pencils), so once rendered it is served again as it is. Never stale, for the reason
KeptStates gives: every change to a game's facts bumps its version in the same transaction and
versions only grow. Kept only when read (a GET): a change's answer is rendered before its
transaction commits. Games of a card table are not kept (a renamed person, same version).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import g, render_template, request
from flask_babel import get_timezone
from markupsafe import Markup

from ..i18n import current_locale
from ..recent import Recent, per_app
from ..rules.game_state import GameState

REGIONS_KEPT = 192  # rendered regions per process, 2 to 20 KB each: a few MB at most
READS = frozenset({"GET", "HEAD"})
Key = tuple[object, ...]
Context = Callable[[], dict[str, Any]]


def kept_regions() -> Recent[Key, str]:
    """This app's kept regions (one per app, like its kept states)."""
    return per_app("scorekeeper.kept_regions", lambda: Recent[Key, str](REGIONS_KEPT))


def region(
    name: str, state: GameState, part: object = None, context: Context | None = None
) -> Markup:
    """Template `name` rendered for the state: kept, else rendered (and kept if it may be).

    `part` tells apart what else the region shows (the history's page); `context` gives the
    rest of what the template reads, asked for only when it is rendered.
    """
    key = _key(name, state, part)
    html = kept_regions().get(key) if key is not None else None
    if html is None:
        html = render_template(name, state=state, **(context() if context else {}))
        if key is not None:
            kept_regions().put(key, html)
    return Markup(html)


def _key(name: str, state: GameState, part: object) -> Key | None:
    """Everything a region shows depends on, or None when it may not be kept."""
    if state.facts.table_id is not None or request.method not in READS:
        return None
    access = g.get("access")
    token = access.token if access is not None else None
    game = state.facts
    return (
        name,
        game.id,
        game.version,
        part,
        current_locale(),
        str(get_timezone()),
        token,
        request.script_root,
    )
