"""The HTML front door: pages and their htmx fragments over the games service."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register every page blueprint and the helpers the templates call."""
    from . import (
        buys,
        changes,
        checker,
        display,
        games,
        home,
        house_rules,
        install,
        links,
        rounds,
        stock,
        template_helpers,
    )

    for blueprint in (
        home.bp,
        home.rulesets_bp,
        home.language_bp,
        home.theme_bp,
        house_rules.bp,
        install.bp,
        games.bp,
        links.bp,
        changes.bp,
        buys.bp,
        buys.arbiter_bp,
        checker.bp,
        stock.bp,
        rounds.bp,
        display.bp,
    ):
        app.register_blueprint(blueprint)
    template_helpers.init_app(app)
