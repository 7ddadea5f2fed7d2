"""Rendered regions of the score sheet, kept per game version, language and link.

A region is a function of the game's facts at a version, the language and time zone it is said
in, and the link it was opened through (its URLs carry the link, an edit link adds the
correcting pencils), so once rendered it is served again as it is. Never stale, for the reason
KeptStates gives: every change to a game's facts bumps its version in the same transaction and
versions only grow. Kept only when read (a GET): a change's answer is rendered before its
transaction commits. Games of a card table are not kept (a renamed person, same version).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import current_app, g, render_template, request
from flask_babel import get_timezone
from markupsafe import Markup

from ..games.state import GameState
from ..i18n import current_locale

REGIONS_KEPT = 192  # rendered regions per process, 2 to 20 KB each: a few MB at most
READS = frozenset({"GET", "HEAD"})
Key = tuple[object, ...]
Context = Callable[[], dict[str, Any]]


class KeptRegions:
    """Rendered regions by everything they depend on, least recently used out."""

    def __init__(self) -> None:
        self._regions: OrderedDict[Key, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Key) -> str | None:
        """The region kept under this key, if any."""
        with self._lock:
            html = self._regions.get(key)
            if html is not None:
                self._regions.move_to_end(key)
            return html

    def keep(self, key: Key, html: str) -> None:
        """Keep a rendered region."""
        with self._lock:
            self._regions[key] = html
            while len(self._regions) > REGIONS_KEPT:
                self._regions.popitem(last=False)


def kept_regions() -> KeptRegions:
    """This app's kept regions (one per app, like its kept states)."""
    kept = current_app.extensions.get("scorekeeper.kept_regions")
    if kept is None:
        kept = current_app.extensions.setdefault("scorekeeper.kept_regions", KeptRegions())
    return kept


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
            kept_regions().keep(key, html)
    return Markup(html)


def _key(name: str, state: GameState, part: object) -> Key | None:
    """Everything a region shows depends on, or None when it may not be kept."""
    if state.game.table_id is not None or request.method not in READS:
        return None
    access = g.get("access")
    token = access.token if access is not None else None
    game = state.game
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
