"""Scorekeeper: the score sheet for May I? and the Contract Rummy family."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from flask import Flask

from .version import __version__ as __version__

HERE = Path(__file__).parent


def bundled(folder: str) -> str:
    """templates/ or static/: inside the package when installed, beside it in a checkout."""
    inside = HERE / folder  # the wheel carries them there (setup.py)
    return str(inside if inside.is_dir() else HERE.parent / folder)


def create_app(
    config: dict[str, object] | None = None, served_on: Sequence[str] = (), threads: int = 0
) -> Flask:
    """Build the app: configuration, extensions, blueprints.

    `served_on`: the host names `scorekeeper serve` listens on, answered besides localhost
    when no TRUSTED_HOSTS or PUBLIC_URL is set (security.trusted_hosts); `threads`: the
    threads it serves with in a process, which PostgreSQL's pool keeps a connection for.
    """
    from . import config as settings
    from .pages.rendering import Templates

    app = Flask(
        __name__,
        instance_path=settings.data_dir(),
        instance_relative_config=True,
        template_folder=bundled("templates"),
        static_folder=bundled("static"),
    )
    app.jinja_environment = Templates  # before anything asks for app.jinja_env
    settings.configure(app, config, threads)
    Path(app.instance_path).mkdir(mode=0o700, parents=True, exist_ok=True)  # it holds every link

    from . import (
        assets,
        database,
        error_pages,
        i18n,
        models,  # noqa: F401  (its tables join db.metadata for the migrations)
        pages,
        rate_limits,
        security,
        unchanged_poll,
        version_map,
    )
    from .extensions import csrf, db, htmx, migrate
    from .hosting import access_log, health, schema

    db.init_app(app)
    database.init_app(app)
    migrate.init_app(app, db, directory=schema.MIGRATIONS)
    csrf.init_app(app)
    htmx.init_app(app)
    i18n.init_app(app)
    version_map.init_app(app)
    unchanged_poll.init_app(app)  # before security: inside its ProxyFix
    access_log.init_app(app)  # inside ProxyFix: it logs the path with the proxy's prefix
    security.init_app(app, served_on)
    assets.init_app(app)
    error_pages.init_app(app)

    from .api.routes import bp as api_bp

    pages.init_app(app)
    app.register_blueprint(api_bp)
    app.register_blueprint(health.bp)
    rate_limits.init_app(app)
    # The API takes changes only as application/json (else 415), which a cross-site form
    # cannot send without a CORS preflight; that protects it in place of a CSRF token.
    csrf.exempt(api_bp)
    return app
