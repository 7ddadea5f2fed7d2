"""Rate limits: how fast one client may create (games, tables, rule sets, restores) or try
links that open nothing.

Per client address (X-Forwarded-For behind SCOREKEEPER_PROXY_HOPS proxies), counted in
memory, or shared by every server process on RATELIMIT_STORAGE_URI (redis://…).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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

# Each kind of creation: its limit's setting, and its doors, which share one count.
CREATIONS = {
    "new-games": (
        "RATELIMIT_NEW_GAMES",
        (
            "games.create",
            "games.replay",
            "tables.start",
            "api.games_create",
            "api.table_games_create",
        ),
    ),
    "new-tables": ("RATELIMIT_NEW_TABLES", ("tables.create", "api.tables_create")),
    "new-rule-sets": (
        "RATELIMIT_NEW_RULESETS",
        (
            "house_rules.create",
            "house_rules.duplicate",
            "house_rules.import_file",
            "house_rules.save_shared",
            "api.saved_create",
        ),
    ),
    "restores": ("RATELIMIT_RESTORES", ("restores.create", "api.backups_restore")),
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
        self.prefix = f"{app.config.get('RATELIMIT_KEY_PREFIX', '')}link-misses"

    def allows(self, address: str) -> bool:
        """Whether this client address may still open game URLs."""
        return all(self.window.test(limit, self.prefix, address) for limit in self.limits)

    def check(self, _endpoint: str | None, _values: dict[str, Any] | None) -> None:
        """Refuse a game URL to a client that missed too often."""
        if request.path.startswith(LINK_PATHS) and not self.allows(get_remote_address()):
            raise TooManyRequests(retry_after=60)

    def count(self, response: Response) -> Response:
        """Count a miss: guessing, not playing (a table reloading its game counts nothing)."""
        if response.status_code in MISSES and request.path.startswith(LINK_PATHS):
            for limit in self.limits:
                self.window.hit(limit, self.prefix, get_remote_address())
        return response


def init_app(app: Flask) -> None:
    """Limit each kind of creation, and link misses across every game URL, per client."""
    limiter = Limiter(key_func=get_remote_address)  # one per app: it keeps its storage
    limiter.init_app(app)
    if not limiter.enabled:
        return
    for scope, (setting, endpoints) in CREATIONS.items():
        limit = limiter.shared_limit(_setting(setting), scope=scope)  # one count, every door
        for endpoint in endpoints:
            # Wrapped here, so the blueprints stay free of the limiter.
            app.view_functions[endpoint] = limit(app.view_functions[endpoint])
    misses = LinkMisses(app)
    app.extensions[LINK_MISSES] = misses  # the unchanged poll's shortcut asks it too
    app.url_value_preprocessor(misses.check)
    app.after_request(misses.count)
