"""Scorekeeper: the score sheet for May I? and the Contract Rummy family."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

MIGRATIONS = str(Path(__file__).parent / "migrations")


def create_app(config: dict[str, object] | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    from . import config as settings

    settings.configure(app, config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

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
    )
    from .extensions import csrf, db, htmx, migrate

    db.init_app(app)
    database.init_app(app)
    migrate.init_app(app, db, directory=MIGRATIONS)
    csrf.init_app(app)
    htmx.init_app(app)
    i18n.init_app(app)
    unchanged_poll.init_app(app)  # before security: inside its ProxyFix
    security.init_app(app)
    assets.init_app(app)
    error_pages.init_app(app)

    from .api.routes import bp as api_bp

    pages.init_app(app)
    app.register_blueprint(api_bp)
    rate_limits.init_app(app)
    # The API takes changes only as application/json (else 415), which a cross-site form
    # cannot send without a CORS preflight; that protects it in place of a CSRF token.
    csrf.exempt(api_bp)
    return app
