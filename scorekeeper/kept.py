"""Everything a process keeps of games: one least-recently-used cache per app, on cachetools.

It keeps what is derived from a game's facts, by (kind, game id, version, …): a derived
state (games/opening.py), a rendered region of the score sheet or the round screen
(pages/kept_regions.py), and the scored result the table's record reads (tables/record.py).
No other module keeps game data (tests/test_layers.py).

Never stale, for one reason: every change to a game's facts (buys, hands, corrections, undo,
run-outs, links, "May I?" calls, a rename or a merge of its table's people) moves its version in
its own transaction (games/history.write, the one change path), and versions only grow, so no
read names an older version's entry, and nothing is ever cleared. A card table's games are kept
like any other; their scored results hold no names, their key adds the edit link (games of
equal id in two databases), and the record applies the people after it is read.

Each kind is a plain least-recently-used cache of its own size, by weight, not count: each
entry weighs about its pickled size in KB (measured on a four-player game: a state 5 to 7 KB,
a sheet region 2 to 8 KB, a scored game under 1 KB). So a table's big record (the scored games
of 50,000 games at most, the old cap of the record's own map) cannot push out the states and
regions the pages are polling. Thread-safe: cachetools' LRU is not (a read reorders it), so
reads take the lock too.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

from cachetools import LRUCache
from flask import current_app

from .rules.game_facts import GameFacts
from .rules.game_state import GameState
from .rules.stats import PlayedGame

STATE, REGION, SCORED = "state", "region", "scored"
SIZES = {STATE: 4096, REGION: 4096, SCORED: 50_000}  # units of about 1 KB pickled
STATE_WEIGHT = 8
EXTENSION = "scorekeeper.kept"  # the app's one cache, in app.extensions

Key = tuple[object, ...]


class Entry(NamedTuple):
    """A kept value and its weight (cachetools reads the weight through `getsizeof`)."""

    value: object
    weight: int


def _weight(entry: Entry) -> int:
    return entry.weight


class Kept:
    """The app's one cache: a weighed LRU per kind, behind one lock."""

    def __init__(self, sizes: dict[str, int] | None = None) -> None:
        self._kinds = {
            kind: LRUCache[Key, Entry](size, getsizeof=_weight)
            for kind, size in (sizes or SIZES).items()
        }
        self._lock = threading.Lock()

    def find(self, key: Key) -> tuple[bool, object]:
        """Whether a value is kept under this key (None may be one), and the value."""
        with self._lock:
            entry = self._kinds[str(key[0])].get(key)
        return (False, None) if entry is None else (True, entry.value)

    def put(self, key: Key, value: object, weight: int) -> None:
        """Keep a value, dropping its kind's least recently used beyond its size."""
        cache = self._kinds[str(key[0])]
        if weight <= cache.maxsize:
            with self._lock:
                cache[key] = Entry(value, weight)

    def weights(self) -> dict[str, int]:
        """How much each kind weighs now."""
        with self._lock:
            return {kind: int(cache.currsize) for kind, cache in self._kinds.items()}


def kept() -> Kept:
    """The current app's one cache (a test's database is not another's), made on first use."""
    found = current_app.extensions.get(EXTENSION)
    if found is None:
        found = current_app.extensions.setdefault(EXTENSION, Kept())
    assert isinstance(found, Kept)
    return found


def state_at(game_id: int, version: int) -> GameState | None:
    """The derived state kept for this version of the game, if any."""
    _hit, state = kept().find((STATE, game_id, version))
    return state if isinstance(state, GameState) else None


def keep_state(state: GameState) -> None:
    """Keep a state under the version its facts were read at."""
    facts = state.facts
    kept().put((STATE, facts.id, facts.version), state, STATE_WEIGHT)


def region_of(game: GameFacts, said: Key) -> str | None:
    """A region rendered for this version of the game, as `said` (template, language, link…)."""
    _hit, html = kept().find((REGION, game.id, game.version, *said))
    return html if isinstance(html, str) else None


def keep_region(game: GameFacts, said: Key, html: str) -> None:
    """Keep a rendered region, weighed by its length in KB."""
    kept().put((REGION, game.id, game.version, *said), html, 1 + len(html) // 1024)


def scored_of(game: GameFacts) -> tuple[bool, PlayedGame | None]:
    """Whether the game's scored result is kept at this version, and it (None: unfinished)."""
    hit, scored = kept().find(_scored_key(game))
    return hit, scored if isinstance(scored, PlayedGame) else None


def keep_scored(game: GameFacts, scored: PlayedGame | None) -> None:
    """Keep what a game scored to at this version (None: not finished)."""
    kept().put(_scored_key(game), scored, 1)


def _scored_key(game: GameFacts) -> Key:
    """The version tells a corrected game apart; the edit link, games of equal id."""
    return (SCORED, game.id, game.version, game.edit_token)
