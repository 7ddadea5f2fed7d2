"""Many phones writing at once, against a real threaded server, on SQLite and PostgreSQL.

Before, on SQLite, a write that read first (a house rule set saved, a table opened) took the
write lock only at its first write, failing at once with "database is locked" (503) when
another phone had written meanwhile: 130 of 200 saves. Every write now takes the lock at
BEGIN and waits its turn.
"""

from __future__ import annotations

import itertools
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Buy, HouseRules, TablePlayer
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.conftest import OPENER, serving, status_of
from tests.databases import close, make_app
from tests.figures import FIGURES
from tests.web.test_house_rules import form_of

# What is stored before and after every refusal, and writers taking turns: both databases.
pytestmark = pytest.mark.storage

SAVES = 200
SAVERS = 4
NEW_GAME = {"ruleset": "may-i", "first_dealer": "0", "players-0": "Anna", "players-1": "Ben"}
OTHERS = 4  # phones buying, renaming people and opening tables meanwhile


def send(
    url: str, form: dict[str, list[str]] | None = None, token: str = "", body: object = None
) -> int:
    """POST a form, or PUT a JSON body with a bearer token; the status code."""
    if token:
        data, kind, method = json.dumps(body).encode(), "application/json", "PUT"
    else:
        data = urllib.parse.urlencode(form or {}, doseq=True).encode()
        kind, method = "application/x-www-form-urlencoded", "POST"
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", kind)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    return status_of(request, timeout=60, opener=OPENER.open)


@pytest.fixture
def served(database_url: str, tmp_path: Path) -> Iterator[tuple[Flask, str]]:
    """The app (SQLite in a file, as shipped) on a real threaded server."""
    app = make_app(database_url, str(tmp_path))
    with serving(app) as base:
        yield app, base
    close(app)


def test_rule_sets_saved_while_others_write_all_land(served: tuple[Flask, str]) -> None:
    app, base = served
    client = app.test_client()
    game = client.post("/games/", data=NEW_GAME)
    game_url = base + game.headers["Location"]
    table_url = base + client.post("/tables/", data={"name": "Club"}).headers["Location"]
    assert client.post(table_url.removeprefix(base) + "/games", data=NEW_GAME).status_code == 303
    with app.app_context():
        person = db.session.scalar(select(TablePlayer.id).where(TablePlayer.name == "Anna"))
    client.post("/house-rules/", data=form_of({**ruleset_to_dict(MAY_I), "name": "Ours"}))
    with app.app_context():
        one = db.session.scalars(select(HouseRules)).one()
        token, saved_url = one.token, f"{base}/house-rules/{one.id}/{one.token}"
        api_url = f"{base}/api/v1/rulesets/saved/{one.id}"
    codes: Counter[str] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(SAVERS + OTHERS)
    saves = iter(range(SAVES))
    done = threading.Event()

    def saver() -> None:
        start.wait()
        for number in saves:
            rules = {**ruleset_to_dict(MAY_I), "name": f"Set {number}"}
            if number % 3 == 0:
                status = send(f"{base}/house-rules/", form_of(rules))
            elif number % 3 == 1:
                status = send(saved_url, form_of(rules))
            else:
                status = send(api_url, token=token, body={"name": f"Set {number}", "rules": rules})
            with lock:
                codes[f"save {status}"] += 1
        done.set()

    def other(number: int) -> None:
        start.wait()
        for turn in itertools.count():
            if done.is_set():
                return
            if number % 2:
                status = send(f"{game_url}/buys", {"seat": [str(turn % 2)]})
                status = send(f"{game_url}/undo", {}) if status == 303 else status
            elif turn % 2:
                status = send(f"{base}/tables/", {"name": [f"Club {number} {turn}"]})
            else:
                status = send(f"{table_url}/people/{person}/name", {"name": [f"Anna {turn}"]})
            with lock:
                codes[f"other {status}"] += 1

    threads = [threading.Thread(target=saver) for _ in range(SAVERS)]
    threads += [threading.Thread(target=other, args=(n,)) for n in range(OTHERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    FIGURES.update({f"writers at once:{kind}": n for kind, n in codes.items()})
    assert sum(n for kind, n in codes.items() if kind.startswith("save")) == SAVES
    assert codes["save 303"] + codes["save 200"] == SAVES, codes
    assert not [kind for kind in codes if kind.endswith("503") or kind.endswith("500")], codes
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(HouseRules)) == 1 + 67
        assert db.session.scalar(select(func.count()).select_from(Buy)) == 0
