"""The version map: each game's version and a digest of its live links, in Redis for every process.

With SCOREKEEPER_VERSION_MAP_URL set, an unchanged poll (unchanged_poll.py) is answered from
here without the database; off by default (SQLite at home reads its one row from a local file
as cheaply). Redis, not PostgreSQL's LISTEN/NOTIFY: the hosting recipe runs Redis for the rate
limits already, and a map in Redis is one for every process, with nothing to rebuild after a
listener's connection drops (a notice missed meanwhile would leave a process's own map stale).

An entry is one hash per game: `v` its version, `g` and `s` digests of its live game links and
seat links (a SHA-256 prefix of each token, never a token), `b` and `n` its lineage (random,
set when the entry is made) and generation, `p` set while a change is on its way. Never
stale, because:

- A change marks the entry before its commit (history.write, seat_links.rotate: `p`, `n` + 1,
  the digest it replaces dropped) and settles it after (`v` raised to its version, `p`
  cleared) only if no later change marked it since and the entry is the one it marked; one
  lost since (expired, Redis restarted) is deleted. A poll never trusts an entry with `p`.
  A publication that fails after the commit leaves `p`: polls read the database until the
  entry expires or the game's next change settles it.
- A poll that finds no version or digest reads the database and fills the entry only if its
  lineage and generation are those it saw (made by itself, `claim`, when there was none)
  before its read, with no change on its way: no read from before a change's commit is
  written after it.
- Every write gives the entry TTL seconds more; one left (a change whose process could not
  reach Redis while others could) answers for TTL seconds at most. A poll that cannot reach
  Redis reads the database, and leaves the map for DOWN_FOR seconds.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Iterable
from typing import Any, NamedTuple

from flask import Flask, current_app
from sqlalchemy import event
from sqlalchemy.orm import Session

from .extensions import db

KEY = "scorekeeper.version_map"  # app.extensions
MARKS = "scorekeeper.version_marks"  # session.info: the entries to settle after the commit
TTL = 30  # s an entry lasts after its last write: a live table's changes and polls renew it
DOWN_FOR = 5.0  # s a poll leaves the map alone after Redis failed it
TIMEOUT = 0.25  # s for a connection or an answer: Redis on this network answers in well under 1 ms
GAME, SEAT = "g", "s"  # an entry's digests: of the game's edit and view links, of its seat links
KINDS = {GAME: b"g", SEAT: b"s"}

MARK = """
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HSET', KEYS[1], 'b', ARGV[2]) end
local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
redis.call('HSET', KEYS[1], 'p', n)
for i = 3, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
redis.call('EXPIRE', KEYS[1], ARGV[1])
return {redis.call('HGET', KEYS[1], 'b'), tostring(n)}
"""
SETTLE = """
local b, n, v = unpack(redis.call('HMGET', KEYS[1], 'b', 'n', 'v'))
if b ~= ARGV[2] then redis.call('DEL', KEYS[1]) return 0 end
if n ~= ARGV[3] then return 0 end
if ARGV[4] ~= '' and (not v or tonumber(v) < tonumber(ARGV[4])) then
  redis.call('HSET', KEYS[1], 'v', ARGV[4])
end
redis.call('HDEL', KEYS[1], 'p')
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""
CLAIM = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'b', ARGV[2], 'n', '0')
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return redis.call('HMGET', KEYS[1], 'b', 'n', 'p')
"""
FILL = """
local b, n, p, v = unpack(redis.call('HMGET', KEYS[1], 'b', 'n', 'p', 'v'))
if b ~= ARGV[2] or n ~= ARGV[3] or p or (v and tonumber(v) > tonumber(ARGV[4])) then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[4], ARGV[5], ARGV[6])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""


class Fence(NamedTuple):
    """An entry's lineage and generation as a poll saw them before reading the database."""

    lineage: str
    generation: str


def digest(tokens: Iterable[str]) -> str:
    """The links as the map keeps them: each token's SHA-256 prefix, never the token."""
    return " ".join(_hashed(token) for token in tokens)


def _hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:32]


class VersionMap:
    """The map on one Redis server, under one key prefix."""

    def __init__(self, url: str, prefix: str) -> None:
        import redis  # the redis extra: config._require_extras says so when it is missing
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self.errors = (redis.RedisError, OSError)
        self.client = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=TIMEOUT,
            socket_connect_timeout=TIMEOUT,
            retry=Retry(NoBackoff(), 0),  # a failure reads the database at once
        )
        self.prefix = prefix.encode()
        self.local = threading.local()  # each thread's own connection, for the polls
        self.down_until = 0.0
        self.no_script = redis.exceptions.NoScriptError
        sources = {"mark": MARK, "settle": SETTLE, "claim": CLAIM, "fill": FILL}
        self.scripts = {
            name: (hashlib.sha1(source.encode()).hexdigest().encode(), source.encode())
            for name, source in sources.items()
        }

    def key(self, game_id: int) -> bytes:
        return b"%s%d" % (self.prefix, game_id)

    def look(
        self, game_id: int, kind: str, token: str, seen: int
    ) -> tuple[bool | None, Fence | None]:
        """Whether the map says the poll is unchanged (None: it cannot say), and when it cannot,
        the fence a fill after the database's read must find (None: fill nothing)."""
        if time.monotonic() < self.down_until:
            return None, None
        try:
            v, links, pending = self._hmget(game_id, kind)
            if pending is not None:
                return None, None
            if v is not None and links is not None:
                return int(v) == seen and _hashed(token) in links.split(" "), None
            # Made now if there is none, so a change from here on moves its generation.
            lineage, generation, pending = self._run("claim", game_id, secrets.token_hex(8))
        except self.errors:
            self.down_until = time.monotonic() + DOWN_FOR
            return None, None
        return None, None if pending is not None else Fence(lineage, generation)

    def _hmget(self, game_id: int, kind: str) -> list[str | None]:
        """The entry's version, digest of `kind` and mark."""
        found: list[str | None] = self._ask(b"HMGET", self.key(game_id), b"v", KINDS[kind], b"p")
        return found

    def _ask(self, *words: bytes) -> Any:
        """One command's answer."""
        packed = b"".join([b"$%d\r\n%s\r\n" % (len(word), word) for word in words])
        return self._send(b"*%d\r\n%s" % (len(words), packed))

    def _send(self, command: bytes) -> Any:
        """A packed command's answer, on this thread's own connection.

        redis-py's client spent about 290 Python function calls on a poll's look (its pool,
        its observability hooks, its packing), sent this way 81 (cProfile): the unchanged poll
        answered from the map costs 0.91 M instructions instead of 1.10 M (17 %; SQLite, the
        cost table, 2026-12-05), and a change's mark and settle about 300 calls fewer each.
        """
        connection = getattr(self.local, "connection", None)
        if connection is None:
            connection = self.local.connection = self.client.connection_pool.make_connection()
        try:
            connection.send_packed_command([command], False)
            return connection.read_response()
        except BaseException:
            connection.disconnect()  # nothing half read is left for the next command
            raise

    def fill(self, game_id: int, fence: Fence, version: int, kind: str, links: str) -> None:
        """Write what the database answered, unless a change marked the entry since the look."""
        try:
            self._run("fill", game_id, *fence, version, kind, links)
        except self.errors:
            self.down_until = time.monotonic() + DOWN_FOR

    def mark(self, game_id: int, drop: tuple[str, ...]) -> Fence | None:
        """Before a change's commit: no poll trusts the entry until it is settled. None if
        Redis did not answer."""
        try:
            lineage, generation = self._run("mark", game_id, secrets.token_hex(8), *drop)
        except self.errors:
            return None
        return Fence(lineage, generation)

    def settle(self, game_id: int, fence: Fence | None, version: int | None) -> None:
        """After the commit: the entry at the change's version, trusted again (or deleted, if
        the mark did not reach Redis)."""
        try:
            if fence is None:
                self._ask(b"DEL", self.key(game_id))
            else:
                self._run("settle", game_id, *fence, "" if version is None else version)
        except self.errors:
            pass  # the mark stays: polls read the database until the entry expires

    def _run(self, script: str, game_id: int, *args: Any) -> Any:
        """One of the scripts on the game's entry (loaded again after Redis lost them)."""
        sha, source = self.scripts[script]
        words = (b"EVALSHA", sha, b"1", self.key(game_id), b"%d" % TTL)
        words += tuple(str(arg).encode() for arg in args)
        try:
            return self._ask(*words)
        except self.no_script:
            self._ask(b"SCRIPT", b"LOAD", source)
            return self._ask(*words)


def moving(game_id: int, version: int | None, drop: tuple[str, ...] = ()) -> None:
    """A change of the game is written in this transaction (at `version`; None: its version
    stays): mark its entry now, settle it after the commit. `drop`: the digests it replaces."""
    shared: VersionMap | None = current_app.extensions.get(KEY)
    if shared is None:
        return
    marks = db.session.info.setdefault(MARKS, {})
    before = marks.get(game_id)
    if before is not None and version is None:
        version = before[2]
    marks[game_id] = (shared, shared.mark(game_id, drop), version)


def _settle(session: Session) -> None:
    """After a commit: settle each entry its changes marked."""
    for game_id, (shared, fence, version) in session.info.pop(MARKS, {}).items():
        shared.settle(game_id, fence, version)


def _forget(session: Session, *_: Any) -> None:
    """After a rollback: nothing committed, so the marks stay (the entry's next change or its
    expiry clears them; a failed commit may have committed)."""
    session.info.pop(MARKS, None)


def init_app(app: Flask) -> None:
    """Share the map when SCOREKEEPER_VERSION_MAP_URL names a Redis server."""
    url = app.config.get("VERSION_MAP_URL")
    if not url:
        return
    app.extensions[KEY] = VersionMap(url, app.config.get("VERSION_MAP_PREFIX", "scorekeeper:v:"))
    if not event.contains(Session, "after_commit", _settle):
        event.listen(Session, "after_commit", _settle)
        event.listen(Session, "after_soft_rollback", _forget)
