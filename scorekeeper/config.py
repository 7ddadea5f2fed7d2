"""Configuration: defaults, then instance/config.py, then SCOREKEEPER_* environment variables.

The environment follows Flask's prefixed convention (`app.config.from_prefixed_env`): any
setting may be given as SCOREKEEPER_<NAME>, its value read as JSON when it parses. The
settings of SETTINGS are read by their own rule instead (a secret of digits stays text);
README.md lists them with their defaults, and deploy/.env.sample holds every one.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import Callable, Mapping
from importlib.util import find_spec
from pathlib import Path
from typing import Any, NamedTuple

from flask import Config, Flask

from .rate_counts import file_uri

# The header's choice shows each code (EN … FR); every test of the catalogs runs over them.
LANGUAGES = ("en", "de", "nl", "es", "fr")
PREFIX = "SCOREKEEPER_"


def flag(value: str) -> bool:
    """A yes/no setting: 0, false, no, off and empty are no."""
    return value.strip().lower() not in ("", "0", "false", "no", "off")


def host_names(value: str) -> list[str]:
    """Host names, comma-separated (or a JSON list)."""
    names = json.loads(value) if value.lstrip().startswith("[") else value.split(",")
    return [str(name).strip() for name in names if str(name).strip()]


class Setting(NamedTuple):
    """One SCOREKEEPER_<name> variable: the config key it sets and how its text is read."""

    name: str
    key: str | None  # None: read by `scorekeeper serve` or before the app exists
    read: Callable[[str], object] = str


SETTINGS = (
    Setting("DATA_DIR", None),
    Setting("DATABASE_URL", "SQLALCHEMY_DATABASE_URI"),
    Setting("SECRET_KEY", "SECRET_KEY"),
    Setting("PUBLIC_URL", "PUBLIC_URL"),
    Setting("TRUSTED_HOSTS", "TRUSTED_HOSTS", host_names),
    Setting("PROXY_HOPS", "PROXY_HOPS", int),
    Setting("HTTPS", "SESSION_COOKIE_SECURE", flag),
    Setting("RATELIMIT_STORAGE_URI", "RATELIMIT_STORAGE_URI"),
    Setting("RATELIMIT_NEW_GAMES", "RATELIMIT_NEW_GAMES"),
    Setting("RATELIMIT_NEW_TABLES", "RATELIMIT_NEW_TABLES"),
    Setting("RATELIMIT_NEW_RULESETS", "RATELIMIT_NEW_RULESETS"),
    Setting("RATELIMIT_RESTORES", "RATELIMIT_RESTORES"),
    Setting("RATELIMIT_LINK_MISSES", "RATELIMIT_LINK_MISSES"),
    Setting("RATELIMIT_SEAT_WRITES", "RATELIMIT_SEAT_WRITES"),
    Setting("RATELIMIT_LINK_REPLACEMENTS", "RATELIMIT_LINK_REPLACEMENTS"),
    Setting("VERSION_MAP_URL", "VERSION_MAP_URL"),
    Setting("ACCESS_LOG", "ACCESS_LOG", flag),
    Setting("BACKUP_DIR", "BACKUP_DIR"),
    Setting("HOST", None),
    Setting("PORT", None, int),
    Setting("SERVER", None),
    Setting("WORKERS", None, int),
    Setting("THREADS", None, int),
)
# Names kept from before the SCOREKEEPER_ prefix covered everything.
UNPREFIXED = {"DATABASE_URL": "DATABASE_URL", "HOST": "HOST", "PORT": "PORT"}


class BadSetting(ValueError):
    """A SCOREKEEPER_* variable holds what its setting cannot take."""


def environment(name: str, environ: Mapping[str, str] = os.environ) -> Any:
    """A setting's value from the environment as its Setting reads it; None when unset."""
    setting = next(s for s in SETTINGS if s.name == name)
    value = environ.get(PREFIX + name) or environ.get(UNPREFIXED.get(name, ""))
    if value is None or value == "":
        return None
    try:
        return setting.read(value)
    except ValueError as error:
        raise BadSetting(f"{PREFIX}{name}={value!r} is not a setting it takes: {error}") from None


def data_dir() -> str | None:
    """The instance folder: SCOREKEEPER_DATA_DIR, else the user's data folder once installed.

    None in a checkout, where Flask's `instance/` beside the package serves `make run`.
    """
    folder = environment("DATA_DIR")
    if folder:
        return str(Path(folder).expanduser().resolve())
    if not installed():
        return None
    # Before 0.2.0 an installed app kept its data inside the venv (Flask's default), where a
    # new venv loses it: an instance found there is used, and `serve` says where it is.
    inside_venv = Path(sys.prefix) / "var" / "scorekeeper-instance"
    if any((inside_venv / name).exists() for name in ("scorekeeper.db", "secret_key")):
        return str(inside_venv)
    return str(user_data_dir())


def installed() -> bool:
    """Whether this is an installed app: only the wheel carries templates/ inside the package."""
    return (Path(__file__).parent / "templates").is_dir()


def user_data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The operator's data folder: %LOCALAPPDATA% on Windows, $XDG_DATA_HOME or ~/.local/share."""
    if sys.platform == "win32" and environ.get("LOCALAPPDATA"):
        return Path(environ["LOCALAPPDATA"]) / "Scorekeeper"
    base = environ.get("XDG_DATA_HOME") or str(Path("~/.local/share").expanduser())
    return Path(base).expanduser().resolve() / "scorekeeper"


def with_psycopg(url: str) -> str:
    """Name the psycopg 3 driver; a bare postgres:// URL would pick psycopg2."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def database_url(instance_path: str) -> str:
    """The database URL: SCOREKEEPER_DATABASE_URL, then DATABASE_URL, else SQLite in instance/."""
    url = environment("DATABASE_URL")
    if not url:
        return f"sqlite:///{Path(instance_path) / 'scorekeeper.db'}"
    return with_psycopg(url)


def secret_key(instance_path: str) -> str:
    """The secret key generated once into instance/secret_key, by whichever process is first."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # it holds every link
        draft = path.with_name(f"secret_key.{os.getpid()}")
        draft.write_text(secrets.token_urlsafe(48))
        draft.chmod(0o600)
        try:
            os.link(draft, path)  # atomic: two workers starting at once keep one key
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


def _from_environment(config: Config) -> None:
    """Every SCOREKEEPER_* variable, by Flask's convention and then by SETTINGS' own rules.

    An empty variable counts as unset (deploy/.env.sample leaves some empty to be filled in).
    """
    before = dict(config)
    config.from_prefixed_env(PREFIX.rstrip("_"))
    for name, value in os.environ.items():
        key = name.removeprefix(PREFIX)
        if name.startswith(PREFIX) and value == "" and key in config:
            if key in before:
                config[key] = before[key]
            else:
                del config[key]
    for setting in SETTINGS:
        value = environment(setting.name)
        if setting.key and value is not None:
            config[setting.key] = value


class MissingExtra(RuntimeError):
    """A setting names a service whose client library is an extra that is not installed."""


def _require_extras(config: Mapping[str, Any]) -> None:
    """Say which extra to install when a setting needs a library the install left out."""
    needs = {
        "postgres": str(config["SQLALCHEMY_DATABASE_URI"]).startswith("postgresql")
        and find_spec("psycopg") is None,
        "redis": (
            str(config["RATELIMIT_STORAGE_URI"]).startswith(("redis", "rediss"))
            or bool(config.get("VERSION_MAP_URL"))
        )
        and find_spec("redis") is None,
    }
    for extra, missing in needs.items():
        if missing:
            raise MissingExtra(
                f"The configured {extra} server needs the {extra} extra: "
                f"pip install 'scorekeeper-rummy[{extra}]' (in a checkout: make run EXTRAS={extra})"
            )


DEFAULTS: dict[str, Any] = {
    # No pre-ping: it costs a round trip on every request. Connections are recycled before
    # servers and firewalls drop idle ones; one dropped anyway fails one request and is
    # replaced (SQLAlchemy invalidates the pool on a disconnect).
    # A failed statement's error names no parameter: new games' and seats' tokens are some.
    "SQLALCHEMY_ENGINE_OPTIONS": {"pool_recycle": 300, "hide_parameters": True},
    "BABEL_DEFAULT_LOCALE": "en",
    "BABEL_TRANSLATION_DIRECTORIES": str(Path(__file__).parent / "translations"),
    "LANGUAGES": LANGUAGES,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "WTF_CSRF_TIME_LIMIT": None,  # a game evening outlasts the default hour
    # Over HTTPS Flask-WTF would also demand a same-site Referer, which our
    # Referrer-Policy: no-referrer never sends; the token and SameSite cookie suffice.
    "WTF_CSRF_SSL_STRICT": False,
    "MAX_CONTENT_LENGTH": 256 * 1024,
    "RATELIMIT_HEADERS_ENABLED": True,
    # A table starts a few games an evening; a script starting hundreds is refused.
    "RATELIMIT_NEW_GAMES": "10 per minute; 100 per hour",
    # A family opens a table once; saves a few rule sets an evening; restores now and then.
    "RATELIMIT_NEW_TABLES": "10 per minute; 50 per hour",
    "RATELIMIT_NEW_RULESETS": "20 per minute; 200 per hour",
    "RATELIMIT_RESTORES": "5 per minute; 30 per hour",
    # Answers that opened no game (wrong, missing or replaced link) per client address:
    # a phone with an old link retries a few times, a token guesser is stopped.
    "RATELIMIT_LINK_MISSES": "30 per minute; 300 per hour",
    # A seat's phone enters its hand and calls "May I?" a few times a round; each redraws
    # every phone of the game.
    "RATELIMIT_SEAT_WRITES": "20 per minute; 200 per hour",
    # Replacing a leaked link is rare; each replacement keeps the old one as a retired row.
    "RATELIMIT_LINK_REPLACEMENTS": "10 per minute; 50 per hour",
    "ACCESS_LOG": True,  # one line per request (hosting/access_log.py)
}


CONNECT_TIMEOUT = 5  # s: then a request without a database answers 503 (error_pages)


def _postgresql_options(config: Config, threads: int) -> None:
    """PostgreSQL's connections give up after CONNECT_TIMEOUT unless the URL says otherwise: a
    database machine that stops answering would hold every request until TCP gives up. A
    served process's pool keeps a connection for each of its threads: SQLAlchemy's 5 would
    make the sixth request at once open a connection (a new backend) and close it after."""
    url = str(config["SQLALCHEMY_DATABASE_URI"])
    if not url.startswith("postgresql"):
        return
    options = dict(config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    if "connect_timeout=" not in url:
        options["connect_args"] = {
            "connect_timeout": CONNECT_TIMEOUT,
            **options.get("connect_args", {}),
        }
    if threads and "poolclass" not in options:  # one of the operator's may take no size
        options.setdefault("pool_size", threads)
    config["SQLALCHEMY_ENGINE_OPTIONS"] = options


def configure(app: Flask, overrides: dict[str, object] | None, threads: int = 0) -> None:
    """Load defaults, instance/config.py and the environment, then a test's overrides; size
    the database pool for `threads` threads (`serve`'s) when given."""
    app.config.from_mapping(DEFAULTS)
    if overrides is None:
        app.config.from_pyfile("config.py", silent=True)
    _from_environment(app.config)
    app.config.from_mapping(overrides or {})
    app.config.setdefault("SQLALCHEMY_DATABASE_URI", database_url(app.instance_path))
    app.config["SQLALCHEMY_DATABASE_URI"] = with_psycopg(app.config["SQLALCHEMY_DATABASE_URI"])
    _postgresql_options(app.config, threads)
    app.config.setdefault("BACKUP_DIR", str(Path(app.instance_path) / "backups"))
    # Counted where every process of this machine counts: workers never multiply a limit.
    app.config.setdefault("RATELIMIT_STORAGE_URI", file_uri(app.instance_path))
    _require_extras(app.config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)
