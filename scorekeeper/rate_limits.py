"""Rate limits: how fast one client may create (games, tables, rule sets, restores) or try
links that open nothing, and how fast one seat link may write or one game or table replace links.

Creations and misses count per client address (X-Forwarded-For behind SCOREKEEPER_PROXY_HOPS
proxies); a seat's entries and calls per seat link (a table's phones share one address); link
replacements per game or table. Counted where every server process counts: a SQLite file in
the data folder by default (rate_counts.py), or RATELIMIT_STORAGE_URI (redis://…).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests
from werkzeug.wrappers import Response

from .security import LINK_PREFIXES
from .unchanged_poll import LINK_MISSES


def url_token() -> str | None:
    """The link token of a page's URL, read from the path: the link doors take it out of the
    view's arguments before any limit is checked."""
    parts = request.url_rule.rule.split("/") if request.url_rule else []
    return request.path.split("/")[parts.index("<token>")] if "<token>" in parts else None


def seat_link() -> str:
    """A seat link's own count: the link of the URL or the API's bearer token, hashed, as no
    token is stored where it could be read back."""
    auth = request.authorization
    token = url_token() or (auth.token if auth else None) or ""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def owner() -> str:
    """The count of the game or table whose links are replaced, whichever link asks."""
    args = request.view_args or {}
    return f"table-{args['table_id']}" if "table_id" in args else f"game-{args.get('game_id')}"


def accepted(response: Response) -> bool:
    """Only what was done counts: a refused link or entry wrote nothing, and a stranger's
    wrong token cannot use up a game's replacements."""
    return response.status_code < 400


class Limited(NamedTuple):
    """One limit: its setting, its doors (which share one count), whom it counts, and which
    answers (None: every request, counted before the view runs)."""

    setting: str
    endpoints: tuple[str, ...]
    key: Callable[[], str] = get_remote_address
    counts: Callable[[Response], bool] | None = None


LIMITS = {
    "new-games": Limited(
        "RATELIMIT_NEW_GAMES",
        (
            "games.create",
            "game.replay",
            "table.start",
            "api.games.games_create",
            "api.tables.table_games_create",
        ),
    ),
    "new-tables": Limited("RATELIMIT_NEW_TABLES", ("tables.create", "api.tables.tables_create")),
    "new-rule-sets": Limited(
        "RATELIMIT_NEW_RULESETS",
        (
            "house_rules.create",
            "house_rules.duplicate",
            "house_rules.import_file",
            "house_rules.save_shared",
            "api.rulesets.saved_create",
        ),
    ),
    "restores": Limited(
        "RATELIMIT_RESTORES", ("restores.create", "api.table_files.backups_restore")
    ),
    # Each entry and call redraws every phone of the game.
    "seat-writes": Limited(
        "RATELIMIT_SEAT_WRITES",
        (
            "seat.call",
            "seat.hand.enter",
            "api.seats.seat_calls_create",
            "api.seats.seat_hand_update",
        ),
        seat_link,
        accepted,
    ),
    # Each replacement keeps the old link as a retired row.
    "link-replacements": Limited(
        "RATELIMIT_LINK_REPLACEMENTS",
        (
            "game.replace_link",
            "game.seat_links.replace",
            "table.replace_link",
            "api.games.links_create",
            "api.seats.seat_links_create",
            "api.tables.table_links_create",
        ),
        owner,
        accepted,
    ),
}
# Game, table and saved rule set links: a miss on any is a guess at a secret token.
LINK_PATHS = (*LINK_PREFIXES, "/api/v1/games/", "/api/v1/tables/", "/api/v1/rulesets/saved/")
MISSES = (401, 404, 410)  # no link, no such game or link, a replaced link


def _setting(name: str) -> Callable[[], str]:
    """The limit a setting holds, read when a request is counted (tests change it per app)."""
    return lambda: str(current_app.config[name])


class LinkMisses:
    """Counts answers where a game link opened nothing; past the limit, game URLs answer 429.

    Flask-Limiter checks in before_request, after the page's URL preprocessor has already
    refused a wrong link, so this check runs as the app's own URL preprocessor, first.
    """

    def __init__(self, app: Flask) -> None:
        storage = storage_from_string(app.config["RATELIMIT_STORAGE_URI"])
        self.window = FixedWindowRateLimiter(storage)
        self.limits = parse_many(app.config["RATELIMIT_LINK_MISSES"])
        # Flask-Limiter's own keys: LIMITER/<prefix>/<client>/…, each part its own.
        prefix = app.config.get("RATELIMIT_KEY_PREFIX", "")
        self.scope = (prefix, "link-misses") if prefix else ("link-misses",)

    def allows(self, address: str) -> bool:
        """Whether this client address may still open game URLs."""
        return all(self.window.test(limit, *self.scope, address) for limit in self.limits)

    def check(self, _endpoint: str | None, _values: dict[str, Any] | None) -> None:
        """Refuse a game URL to a client that missed too often. A URL of no route answers its
        own 404 (counted too): refused here, no door's error handler would word it."""
        routed = request.routing_exception is None
        if routed and request.path.startswith(LINK_PATHS) and not self.allows(get_remote_address()):
            raise TooManyRequests(retry_after=60)

    def count(self, response: Response) -> Response:
        """Count a miss: guessing, not playing (a table reloading its game counts nothing)."""
        if response.status_code in MISSES and request.path.startswith(LINK_PATHS):
            for limit in self.limits:
                self.window.hit(limit, *self.scope, get_remote_address())
        return response


def in_one_process(config: Mapping[str, Any]) -> bool:
    """Whether the limits count in each process apart (memory://), so hold only in one."""
    return str(config["RATELIMIT_STORAGE_URI"]).startswith("memory:")


def finds_nothing_before_views(limiter: Limiter) -> bool:
    """Whether Flask-Limiter's before-request check can find no limit, so it need not run.

    That check looks only for application, default, blueprint and meta limits (and, with its
    storage down, in-memory fallback ones); a decorated view checks its own (each of LIMITS,
    where init_app wraps it). The app sets none of the first, so the check found nothing, on
    every request Flask answers, for 0.3-0.45 M instructions (`bench/cost_table.py`,
    2026-12-05, against main at 99ecfe5: the API buy 6.62 M -> 6.30 M on SQLite, 7.03 M ->
    6.58 M on PostgreSQL; the round's end 7.98 M -> 7.57 M). An operator's RATELIMIT_DEFAULT
    or RATELIMIT_APPLICATION keeps it.
    """
    manager = limiter.limit_manager
    return not (
        manager.application_limits
        or manager.default_limits
        or manager._blueprint_limits
        or limiter._meta_limits
        or limiter._in_memory_fallback_enabled
    )


def init_app(app: Flask) -> None:
    """Limit each kind of creation, seat writes, link replacements, and link misses across
    every game URL."""
    limiter = Limiter(key_func=get_remote_address)  # one per app: it keeps its storage
    limiter.init_app(app)
    if not limiter.enabled:
        return
    if finds_nothing_before_views(limiter):
        app.before_request_funcs[None].remove(limiter._check_request_limit)
    for scope, limited in LIMITS.items():
        # One count for every door of a kind.
        limit = limiter.shared_limit(
            _setting(limited.setting), scope, key_func=limited.key, deduct_when=limited.counts
        )
        for endpoint in limited.endpoints:
            # Wrapped here, so the blueprints stay free of the limiter.
            app.view_functions[endpoint] = limit(app.view_functions[endpoint])
    misses = LinkMisses(app)
    app.extensions[LINK_MISSES] = misses  # the unchanged poll's shortcut asks it too
    app.url_value_preprocessor(misses.check)
    app.after_request(misses.count)
