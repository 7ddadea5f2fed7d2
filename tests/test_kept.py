"""The one cache (scorekeeper/kept.py): a big record keeps no state out, a new version is never
served an old entry, a card table's game is kept like any other, and threads share it safely."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime

import pytest
from flask import Flask

from scorekeeper import kept
from scorekeeper.kept import REGION, SCORED, STATE, Kept
from scorekeeper.rules.game_facts import GameFacts, SeatFacts
from scorekeeper.rules.game_state import GameState, game_state
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from scorekeeper.rules.stats import PlayedGame

NOW = datetime(2026, 1, 1, tzinfo=UTC)
RULES = json.dumps(ruleset_to_dict(MAY_I))


def facts(game_id: int, version: int = 1, table_id: int | None = None) -> GameFacts:
    """A game of four at its first round, at `version`."""
    return GameFacts(
        id=game_id,
        version=version,
        table_id=table_id,
        first_dealer=0,
        dealer_was_cut=False,
        decks=None,
        edit_token=f"e{game_id}",
        view_token=f"v{game_id}",
        created_at=NOW,
        updated_at=NOW,
        rules_text=RULES,
        seats=tuple(SeatFacts(i, name) for i, name in enumerate(["Anna", "Ben", "Carla", "Dan"])),
    )


def state_of(game: GameFacts) -> GameState:
    return game_state(game, MAY_I)


def played(game_id: int) -> PlayedGame:
    return PlayedGame("may-i", date(2026, 1, 1), (game_id, 0, 0, 0), (), ())


@pytest.fixture
def app() -> Iterator[Flask]:
    """A bare app, for the cache of its own (kept.kept is one per app)."""
    app = Flask(__name__)
    with app.app_context():
        yield app


def test_a_big_record_keeps_no_state_out(app: Flask) -> None:
    state = state_of(facts(1))
    kept.keep_state(state)
    kept.keep_region(state.facts, ("games/_sheet.html",), "<section>" * 1000)
    for game_id in range(2, kept.SIZES[SCORED] + 5_000):  # past the record's size
        kept.keep_scored(facts(game_id), played(game_id))
    assert kept.state_at(1, 1) is state
    assert kept.region_of(state.facts, ("games/_sheet.html",)) is not None
    weights = kept.kept().weights()
    assert all(weights[kind] <= kept.SIZES[kind] for kind in weights)
    # The most recently read games are the ones kept, the oldest dropped.
    assert kept.scored_of(facts(kept.SIZES[SCORED] + 4_999)) != (False, None)
    assert kept.scored_of(facts(2)) == (False, None)


def test_a_new_version_is_never_served_an_old_entry(app: Flask) -> None:
    old = facts(1, version=3)
    kept.keep_state(state_of(old))
    kept.keep_region(old, ("games/_sheet.html", "en"), "old")
    kept.keep_scored(old, played(1))
    new = replace(old, version=4)
    assert kept.state_at(1, 4) is None
    assert kept.region_of(new, ("games/_sheet.html", "en")) is None
    assert kept.scored_of(new) == (False, None)
    assert kept.region_of(old, ("games/_sheet.html", "de")) is None  # another language
    assert kept.scored_of(replace(old, edit_token="other")) == (False, None)  # another game


def test_a_card_tables_game_is_kept_like_any_other(app: Flask) -> None:
    game = facts(1, table_id=7)  # a rename moves its version (games/history.write)
    state = state_of(game)
    kept.keep_state(state)
    kept.keep_region(game, ("games/_sheet.html",), "<section>")
    kept.keep_scored(game, None)  # no names in it: the record applies the people after
    assert kept.state_at(1, 1) is state
    assert kept.region_of(game, ("games/_sheet.html",)) == "<section>"
    assert kept.scored_of(game) == (True, None)


def test_each_app_has_its_own_cache() -> None:
    with Flask("one").app_context():
        kept.keep_scored(facts(1), None)
        assert kept.scored_of(facts(1)) == (True, None)
    with Flask("two").app_context():
        assert kept.scored_of(facts(1)) == (False, None)


def test_the_least_recently_used_goes_first_by_weight() -> None:
    cache = Kept(sizes={STATE: 10, REGION: 4, SCORED: 4})
    cache.put((STATE, 1), "a", 4)
    cache.put((STATE, 2), "b", 4)
    assert cache.find((STATE, 1)) == (True, "a")  # read: now the most recent
    cache.put((STATE, 3), "c", 2)
    cache.put((STATE, 4), "d", 2)  # over its size: state 2 goes, the least recently read
    assert cache.find((STATE, 2)) == (False, None)
    assert cache.find((STATE, 1)) == (True, "a") and cache.find((STATE, 4)) == (True, "d")
    for game_id in range(10):  # the scored games drop their own oldest, never another kind
        cache.put((SCORED, game_id), None, 1)
    assert cache.weights() == {STATE: 8, REGION: 0, SCORED: 4}
    assert cache.find((SCORED, 9)) == (True, None) and cache.find((SCORED, 5)) == (False, None)
    cache.put((REGION, 5), "too heavy", 5)  # heavier than its kind's size: not kept
    assert cache.find((REGION, 5)) == (False, None)


def test_threads_share_one_cache_safely() -> None:
    cache = Kept(sizes={STATE: 300, REGION: 300, SCORED: 200})
    failures: list[str] = []

    def work(thread: int) -> None:
        for n in range(2_000):
            kind = (STATE, REGION, SCORED)[n % 3]
            key = (kind, n % 97, thread)
            cache.put(key, (thread, n), 1 + n % 5)
            hit, value = cache.find(key)
            if hit and value != (thread, n):
                failures.append(f"{key}: {value}")

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    weights = cache.weights()
    assert failures == []
    assert weights[STATE] <= 300 and weights[REGION] <= 300 and weights[SCORED] <= 200
    assert all(weight >= 0 for weight in weights.values())
