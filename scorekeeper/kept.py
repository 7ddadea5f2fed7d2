"""Everything a process keeps of games: one least-recently-used cache per app, on cachetools.

It keeps what is derived from a game's facts, by (kind, game id, version, …): a derived
state (games/opening.py), a rendered region of the score sheet (pages/kept_regions.py), and
the scored result the table's record reads (tables/record.py). No other module keeps game data
(tests/test_layers.py).

Never stale, for one reason: every change to a game's facts (buys, hands, corrections, undo,
run-outs, links, "May I?" calls) bumps its version in its own transaction, and versions only
grow, so no read names an older version's entry, and nothing is ever cleared. One exception:
a card table's games show its people's names, which a rename or a merge changes without a
version, so their states and regions are never kept. Their scored results are: a scored game
holds no names, its key adds the edit link (games of equal id in two databases), and the
record applies the people after it is read.

Bounded by weight, not count: each entry weighs about its pickled size in KB (measured on a
four-player game: a state 5 to 7 KB, a sheet region 2 to 8 KB, a scored game under 1 KB). The
budget is one for all, the least recently used dropped first, and each kind has a share it
never grows past, so a table's big record (the scored games of 50,000 games at most, the old
cap of the record's own map) cannot push out the states and regions the pages are polling: at
least BUDGET - SHARES[SCORED] units always stay for them. Thread-safe: cachetools' LRU is not
(a read reorders it), so reads take the lock too.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple

from cachetools import LRUCache
from flask import current_app

from .rules.game_facts import GameFacts
from .rules.game_state import GameState
from .rules.stats import PlayedGame

STATE, REGION, SCORED = "state", "region", "scored"
BUDGET = 56 * 1024  # units of about 1 KB pickled (what was measured; more in memory)
SHARES = {STATE: 4096, REGION: 4096, SCORED: 50_000}
STATE_WEIGHT = 8
EXTENSION = "scorekeeper.kept"  # the app's one cache, in app.extensions

Key = tuple[object, ...]


class Entry(NamedTuple):
    """A kept value and its weight (cachetools reads the weight through `getsizeof`)."""

    value: object
    weight: int


class Weighed(LRUCache[Key, Entry]):
    """cachetools' LRU by weight, where no kind (a key's first item) grows past its share:
    a kind over its share drops its own least recently used entries first."""

    def __init__(self, budget: int, shares: dict[str, int]) -> None:
        super().__init__(maxsize=budget, getsizeof=lambda entry: entry.weight)
        self.shares = shares
        self.weights = dict.fromkeys(shares, 0)
        self._kinds: dict[object, OrderedDict[Key, int]] = {kind: OrderedDict() for kind in shares}

    def __getitem__(self, key: Key) -> Entry:
        entry = super().__getitem__(key)
        self._kinds[key[0]].move_to_end(key)
        return entry

    def __setitem__(self, key: Key, entry: Entry) -> None:
        kind = str(key[0])
        if key in self:
            del self[key]
        own = self._kinds[kind]
        while own and self.weights[kind] + entry.weight > self.shares[kind]:
            del self[next(iter(own))]
        super().__setitem__(key, entry)  # may drop the least recently used of any kind
        own[key] = entry.weight
        self.weights[kind] += entry.weight

    def __delitem__(self, key: Key) -> None:
        super().__delitem__(key)  # also how LRUCache.popitem drops an entry
        self.weights[str(key[0])] -= self._kinds[key[0]].pop(key)


class Kept:
    """The app's one cache: values by key, weighed, behind one lock."""

    def __init__(self, budget: int = BUDGET, shares: dict[str, int] | None = None) -> None:
        self._cache = Weighed(budget, shares or SHARES)
        self._lock = threading.Lock()

    def find(self, key: Key) -> tuple[bool, object]:
        """Whether a value is kept under this key (None may be one), and the value."""
        with self._lock:
            entry = self._cache.get(key)
        return (False, None) if entry is None else (True, entry.value)

    def put(self, key: Key, value: object, weight: int) -> None:
        """Keep a value, dropping the least recently used beyond the budget or its share."""
        if weight <= min(self._cache.maxsize, self._cache.shares[str(key[0])]):
            with self._lock:
                self._cache[key] = Entry(value, weight)

    def weights(self) -> dict[str, int]:
        """How much each kind weighs now."""
        with self._lock:
            return dict(self._cache.weights)


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
    """Keep a state under the version its facts were read at (not a card table's game)."""
    facts = state.facts
    if facts.table_id is None:
        kept().put((STATE, facts.id, facts.version), state, STATE_WEIGHT)


def region_of(game: GameFacts, said: Key) -> str | None:
    """A region rendered for this version of the game, as `said` (template, language, link…)."""
    _hit, html = kept().find((REGION, game.id, game.version, *said))
    return html if isinstance(html, str) else None


def keep_region(game: GameFacts, said: Key, html: str) -> None:
    """Keep a rendered region (not a card table's game), weighed by its length in KB."""
    if game.table_id is None:
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
