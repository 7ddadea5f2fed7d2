"""Organisers' phones at once on a real threaded server: one confirm lands, the rest are 409."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Game, PartyChange, PartyGame
from tests.conftest import at_once, make_app, serving
from tests.web.test_concurrency import OPENER

pytestmark = pytest.mark.storage

PHONES = 4
ELEVEN = ["Anna", "Ben", "Carla", "Dan", "Eva", "Fritz", "Gina", "Hugo", "Ida", "Jan", "Kim"]


def test_confirms_from_several_phones_on_one_version_start_one_round(
    database_url: str, tmp_path: Path
) -> None:
    app = make_app(database_url, str(tmp_path))
    client = app.test_client()
    table = client.post("/tables/", data={"name": "Reunion"}).headers["Location"]
    data = {"new_names": "\n".join(ELEVEN), "ruleset": "may-i", "rotation": "mix"}
    party = client.post(f"{table}/party", data=data | {"rotate_every": "1"}).headers["Location"]
    seating = re.search(r'name="seating" value="([^"]*)"', client.get(party).get_data(True))
    assert seating
    form = urllib.parse.urlencode({"version": "1", "seating": seating.group(1)}).encode()

    with serving(app) as base:

        def send(_: int) -> int:
            request = urllib.request.Request(f"{base}{party}/confirm", data=form)
            try:
                with OPENER.open(request, timeout=30) as answer:
                    return int(answer.status)
            except urllib.error.HTTPError as answer:
                return int(answer.code)

        codes = at_once(send, list(range(PHONES)))
    assert sorted(codes) == [303] + [409] * (PHONES - 1)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(PartyGame)) == 3
        assert db.session.scalar(select(func.count()).select_from(Game)) == 3
        kinds = db.session.scalars(select(PartyChange.kind).order_by(PartyChange.version))
        assert list(kinds) == ["start", "confirm"]
        db.session.remove()
        db.engine.dispose()
