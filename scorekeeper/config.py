"""Configuration: defaults, then instance/config.py, then the environment."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

LANGUAGES = ("en", "de", "nl", "es")


def database_url(instance_path: str) -> str:
    """The database URL: SCOREKEEPER_DATABASE_URL, then DATABASE_URL, else SQLite in instance/."""
    url = os.environ.get("SCOREKEEPER_DATABASE_URL") or os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{Path(instance_path) / 'scorekeeper.db'}"
    return with_psycopg(url)


def with_psycopg(url: str) -> str:
    """Name the psycopg 3 driver; a bare postgres:// URL would pick psycopg2."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def secret_key(instance_path: str) -> str:
    """The secret key from the environment, else one generated once into instance/secret_key."""
    if key := os.environ.get("SCOREKEEPER_SECRET_KEY"):
        return key
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    return path.read_text().strip()


def _from_environment(app: Flask) -> None:
    """Deployment settings from SCOREKEEPER_* variables, where instance/config.py left them out."""
    environ = os.environ
    if url := environ.get("SCOREKEEPER_PUBLIC_URL"):
        app.config.setdefault("PUBLIC_URL", url)
    if (hosts := environ.get("SCOREKEEPER_TRUSTED_HOSTS")) and not app.config["TRUSTED_HOSTS"]:
        app.config["TRUSTED_HOSTS"] = [host.strip() for host in hosts.split(",") if host.strip()]
    if hops := environ.get("SCOREKEEPER_PROXY_HOPS"):
        app.config.setdefault("PROXY_HOPS", int(hops))
    if storage := environ.get("SCOREKEEPER_RATELIMIT_STORAGE_URI"):
        app.config.setdefault("RATELIMIT_STORAGE_URI", storage)
    if environ.get("SCOREKEEPER_HTTPS"):
        app.config["SESSION_COOKIE_SECURE"] = True


def configure(app: Flask, overrides: dict[str, object] | None) -> None:
    """Load defaults, instance/config.py and the environment, then the test overrides."""
    app.config.from_mapping(
        # No pre-ping: it costs a round trip on every request. Connections are recycled before
        # servers and firewalls drop idle ones; one dropped anyway fails one request and is
        # replaced (SQLAlchemy invalidates the pool on a disconnect).
        SQLALCHEMY_ENGINE_OPTIONS={"pool_recycle": 300},
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        LANGUAGES=LANGUAGES,
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,  # a game evening outlasts the default hour
        # Over HTTPS Flask-WTF would also demand a same-site Referer, which our
        # Referrer-Policy: no-referrer never sends; the token and SameSite cookie suffice.
        WTF_CSRF_SSL_STRICT=False,
        MAX_CONTENT_LENGTH=256 * 1024,
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_HEADERS_ENABLED=True,
        # A table starts a few games an evening; a script starting hundreds is refused.
        RATELIMIT_NEW_GAMES="10 per minute; 100 per hour",
        # Answers that opened no game (wrong, missing or replaced link) per client address:
        # a phone with an old link retries a few times, a token guesser is stopped.
        RATELIMIT_LINK_MISSES="30 per minute; 300 per hour",
    )
    if overrides is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(overrides)
    _from_environment(app)
    app.config.setdefault("SQLALCHEMY_DATABASE_URI", database_url(app.instance_path))
    app.config["SQLALCHEMY_DATABASE_URI"] = with_psycopg(app.config["SQLALCHEMY_DATABASE_URI"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)
