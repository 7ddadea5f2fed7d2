"""The version map: unchanged polls answered from Redis without the database, and never stale:
changes published in any order or not at all, links revoked, Redis down, two processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import version_map
from scorekeeper.extensions import db
from scorekeeper.games import actions, seat_links
from scorekeeper.games.game_links import check_link
from scorekeeper.games.opening import open_for_change
from scorekeeper.rules.presets import MAY_I
from scorekeeper.version_map import GAME, SEAT, VersionMap
from tests.databases import close, make_app
from tests.tables.helpers import open_table, start_at
from tests.tables.test_tables import person_id
from tests.web.test_games import HX, PLAYERS
from tests.web.test_queries import statements
from tools.nginx_proxy import free_port

pytestmark = pytest.mark.storage

REDIS = "redis://127.0.0.1:6379/15"


def redis_up(url: str) -> bool:
    """Whether a Redis server answers at this URL."""
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except (redis.RedisError, OSError):
        return False


@pytest.fixture
def prefix() -> Iterator[str]:
    """A key prefix of this test's own on the shared Redis, its keys deleted afterwards."""
    if not redis_up(REDIS):
        reason = f"no Redis at {REDIS}: the version map's tests need one"
        pytest.fail(reason) if os.environ.get("SCOREKEEPER_REQUIRE_REDIS") else pytest.skip(reason)
    import redis

    mine = f"sktest:{uuid.uuid4().hex}:"
    yield mine
    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{mine}*"):
        client.delete(key)


def mapped(database_url: str, tmp_path: Path, prefix: str, url: str = REDIS) -> Flask:
    """An app (a process) with the version map on."""
    return make_app(database_url, str(tmp_path), VERSION_MAP_URL=url, VERSION_MAP_PREFIX=prefix)


@pytest.fixture
def on(database_url: str, tmp_path: Path, prefix: str) -> Iterator[Flask]:
    app = mapped(database_url, tmp_path, prefix)
    yield app
    close(app)


class Game:
    """A game, its links and a seat's, polled as the phones poll it."""

    def __init__(self, app: Flask) -> None:
        with app.app_context():
            game = actions.create_game(MAY_I, PLAYERS, 0)
            self.id, self.edit, self.view = game.id, game.edit_token, game.view_token
            self.seat = seat_links.links_of(game.id)[1]
            db.session.remove()

    def url(self, token: str | None = None, seat: bool = False) -> str:
        return f"/{'s' if seat else 'g'}/{self.id}/{token or (self.seat if seat else self.edit)}"


def poll(app: Flask, url: str, version: int) -> tuple[int, bytes, int]:
    """A poll's status, body and the statements it sent."""
    with statements(app) as sent:
        answer = app.test_client().get(f"{url}/version?v={version}&on=round", headers=HX)
    return answer.status_code, answer.get_data(), len(sent)


UNCHANGED = (200, b"")


def test_an_unchanged_poll_sends_no_statement_with_the_map_and_one_without(
    on: Flask, app: Flask
) -> None:
    for each, statements_sent in ((on, 0), (app, 1)):
        game = Game(each)
        for url in (game.url(), game.url(game.view), game.url(seat=True)):
            poll(each, url, 1)  # the first poll fills the map
            status, body, sent = poll(each, url, 1)
            assert (status, body, sent) == (*UNCHANGED, statements_sent)


def test_a_change_is_seen_at_once_and_its_version_answered_without_the_database(
    on: Flask,
) -> None:
    game = Game(on)
    client: FlaskClient = on.test_client()
    assert poll(on, game.url(), 1) == (*UNCHANGED, 1)  # a miss: read, and filled
    assert client.post(f"{game.url()}/buys", data={"seat": 2}).status_code == 303
    status, body, _sent = poll(on, game.url(), 1)
    assert status == 200 and b"hx-swap-oob" in body  # the old version: the change's regions
    assert poll(on, game.url(), 2) == (*UNCHANGED, 0)  # published with the change
    assert poll(on, game.url(seat=True), 2)[:2] == UNCHANGED


def test_two_processes_sharing_the_map_see_each_others_changes(
    database_url: str, tmp_path: Path, prefix: str
) -> None:
    one, other = mapped(database_url, tmp_path, prefix), mapped(database_url, tmp_path, prefix)
    try:
        game = Game(one)
        assert poll(other, game.url(), 1)[:2] == UNCHANGED
        assert poll(one, game.url(), 1) == (*UNCHANGED, 0)  # the other process filled it
        assert one.test_client().post(f"{game.url()}/buys", data={"seat": 2}).status_code == 303
        assert poll(other, game.url(), 1)[0:1] == (200,) and poll(other, game.url(), 1)[1] != b""
        assert poll(other, game.url(), 2) == (*UNCHANGED, 0)
    finally:
        close(one)
        close(other)


def test_a_revoked_link_is_refused_as_before_never_unchanged(on: Flask) -> None:
    game = Game(on)
    for url in (game.url(), game.url(seat=True)):
        assert poll(on, url, 1) == (*UNCHANGED, 1)
        assert poll(on, url, 1) == (*UNCHANGED, 0)
    with on.app_context():
        seat_links.rotate(game.id, 1)
        access = check_link(game.id, game.edit, change=True)
        actions.rotate_link(open_for_change(game.id, access), "view")
        db.session.remove()
    assert poll(on, game.url(seat=True), 1)[0] == 410
    assert poll(on, game.url(game.view), 2)[0] in (404, 410)  # its digest dropped: read again
    assert poll(on, game.url(), 2) == (*UNCHANGED, 0)  # and filled by that read
    assert poll(on, game.url(game.view), 2)[0] in (404, 410)


def test_publications_out_of_order_only_ever_raise_the_version(on: Flask) -> None:
    shared: VersionMap = on.extensions[version_map.KEY]
    key = shared.key(7)
    first, second = shared.mark(7, ()), shared.mark(7, ())
    assert first and second
    shared.settle(7, first, 5)  # the earlier change's publication, late
    assert shared.client.hget(key, "p") is not None  # the later change is still on its way
    assert shared.look(7, GAME, "t", 5) == (None, None)
    shared.settle(7, second, 6)
    shared.settle(7, first, 5)  # once more, after: nothing
    assert shared.client.hget(key, "v") == "6" and shared.client.hget(key, "p") is None


def test_a_read_from_before_a_change_is_never_written_after_it(on: Flask) -> None:
    shared: VersionMap = on.extensions[version_map.KEY]
    said, fence = shared.look(8, GAME, "t", 1)  # a miss: the poll reads the database …
    assert said is None and fence is not None
    shared.settle(8, shared.mark(8, ()), 2)  # … while a change commits
    shared.fill(8, fence, 1, GAME, version_map.digest(["t"]))  # what it read: refused
    assert shared.client.hget(shared.key(8), "v") == "2"
    assert shared.client.hget(shared.key(8), GAME) is None  # and so never "unchanged" at 1
    assert shared.look(8, GAME, "t", 1)[0] is None


def test_an_entry_lost_before_its_change_settles_is_deleted(on: Flask) -> None:
    shared: VersionMap = on.extensions[version_map.KEY]
    fence = shared.mark(9, ())
    shared.client.delete(shared.key(9))  # expired, or Redis restarted
    shared.client.hset(shared.key(9), mapping={"b": "other", "n": "0", "v": "1", GAME: "x"})
    shared.settle(9, fence, 2)
    assert shared.client.exists(shared.key(9)) == 0


def test_a_publication_that_fails_after_the_commit_leaves_no_unchanged_answer(
    on: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game(on)
    poll(on, game.url(), 1)
    assert poll(on, game.url(), 1) == (*UNCHANGED, 0)
    monkeypatch.setattr(VersionMap, "settle", lambda *_args: None)  # Redis failed after commit
    assert on.test_client().post(f"{game.url()}/buys", data={"seat": 2}).status_code == 303
    assert poll(on, game.url(), 1)[1] != b""  # the change, from the database
    assert poll(on, game.url(), 2) == (*UNCHANGED, 1)  # marked: read, and not filled
    assert poll(on, game.url(), 2) == (*UNCHANGED, 1)


def test_a_change_whose_mark_fails_deletes_the_entry_after_its_commit(
    on: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game(on)
    poll(on, game.url(), 1)
    monkeypatch.setattr(VersionMap, "mark", lambda *_args: None)
    assert on.test_client().post(f"{game.url()}/buys", data={"seat": 2}).status_code == 303
    shared: VersionMap = on.extensions[version_map.KEY]
    assert shared.client.exists(shared.key(game.id)) == 0
    assert poll(on, game.url(), 1)[1] != b""
    assert poll(on, game.url(), 2) == (*UNCHANGED, 0)  # the poll before read it again


def test_a_change_rolled_back_leaves_the_entry_to_the_database_until_the_next(
    on: Flask,
) -> None:
    """A change refused after its version moved (the rules' last word comes after the write)
    is rolled back: nothing to settle, and a failed commit may have committed, so the mark
    stays and polls read the database until the game's next change settles it."""
    game = Game(on)
    poll(on, game.url(), 1)
    with on.app_context():
        version_map.moving(game.id, 2)
        db.session.rollback()
        db.session.remove()
    assert poll(on, game.url(), 1) == (*UNCHANGED, 1)
    assert poll(on, game.url(), 1) == (*UNCHANGED, 1)  # not filled while marked
    assert on.test_client().post(f"{game.url()}/buys", data={"seat": 2}).status_code == 303
    assert poll(on, game.url(), 2) == (*UNCHANGED, 0)


def test_redis_out_of_reach_reads_the_database(
    database_url: str, tmp_path: Path, prefix: str
) -> None:
    app = mapped(database_url, tmp_path, prefix, f"redis://127.0.0.1:{free_port()}/0")
    try:
        game = Game(app)
        assert poll(app, game.url(), 1) == (*UNCHANGED, 1)
        assert app.test_client().post(f"{game.url()}/buys", data={"seat": 2}).status_code == 303
        assert poll(app, game.url(), 2) == (*UNCHANGED, 1)
        assert poll(app, game.url(seat=True), 2) == (*UNCHANGED, 1)
        assert poll(app, game.url(), 1)[1] != b""
    finally:
        close(app)


class OwnRedis:
    """A Redis server of this test's own, to stop and start (the shared one is never stopped)."""

    def __init__(self, server: str) -> None:
        self.server, self.port = server, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.running: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [self.server, "--port", str(self.port), "--save", "", "--appendonly", "no"]
        self.running = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        for _ in range(200):
            if redis_up(self.url):
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.running is not None:
            self.running.kill()
            self.running.wait()
            self.running = None


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed: Redis stopped mid-run is not tried")
    redis = OwnRedis(server)
    redis.start()
    yield redis
    redis.stop()


def test_redis_stopped_mid_run_reads_the_database_and_never_answers_stale(
    database_url: str, tmp_path: Path, own_redis: OwnRedis
) -> None:
    app = mapped(database_url, tmp_path, "sk:", own_redis.url)
    try:
        game = Game(app)
        poll(app, game.url(), 1)
        assert poll(app, game.url(), 1) == (*UNCHANGED, 0)
        own_redis.stop()
        assert poll(app, game.url(), 1) == (*UNCHANGED, 1)
        assert app.test_client().post(f"{game.url()}/buys", data={"seat": 2}).status_code == 303
        assert poll(app, game.url(), 1)[1] != b""
        assert poll(app, game.url(), 2) == (*UNCHANGED, 1)
        own_redis.start()  # empty, as Redis restarts with nothing kept on disk
        assert poll(app, game.url(), 2) == (*UNCHANGED, 1)  # still left alone for DOWN_FOR
        app.extensions[version_map.KEY].down_until = 0  # DOWN_FOR later
        assert poll(app, game.url(), 2) == (*UNCHANGED, 1)  # filled again …
        assert poll(app, game.url(), 2) == (*UNCHANGED, 0)  # … and answered from the map
        assert poll(app, game.url(), 1)[1] != b""
    finally:
        close(app)


def test_the_map_keeps_no_link(on: Flask) -> None:
    game = Game(on)
    for url in (game.url(), game.url(seat=True)):
        poll(on, url, 1)
    shared: VersionMap = on.extensions[version_map.KEY]
    kept = shared.client.hgetall(shared.key(game.id))
    assert kept[GAME] and kept[SEAT]
    assert not any(token in str(kept) for token in (game.edit, game.view, game.seat))


def test_a_rename_at_the_table_moves_every_game_of_the_person(on: Flask) -> None:
    client = on.test_client()
    url = open_table(client)
    games = [start_at(client, url, players).url for players in (["Anna", "Ben"], ["Ben", "Ann"])]
    for game in games:
        poll(on, game, 1)
        assert poll(on, game, 1) == (*UNCHANGED, 0)
    ben = person_id(on, "Ben")
    assert client.post(f"{url}/people/{ben}/name", data={"name": "Benno"}).status_code == 303
    for game in games:
        assert poll(on, game, 1)[1] != b""
        assert poll(on, game, 2) == (*UNCHANGED, 0)
