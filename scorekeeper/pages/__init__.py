"""The HTML front door: pages and their htmx fragments over the games service."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register every page blueprint and the helpers the templates call."""
    from . import (
        blank_sheets,
        buys,
        changes,
        checker,
        display,
        exports,
        game_door,
        games,
        home,
        house_rules,
        install,
        keeper_seat,
        party,
        party_changes,
        party_person,
        party_rating,
        pending_hands,
        people,
        restores,
        rounds,
        seat_hands,
        seats,
        stock,
        table_door,
        tables,
        template_helpers,
    )

    for blueprint in (
        home.bp,
        home.rulesets_bp,
        blank_sheets.bp,
        home.language_bp,
        home.theme_bp,
        house_rules.bp,
        install.bp,
        games.bp,
        game_door.bp,
        seats.bp,
        seats.links_bp,
        seats.calls_bp,
        seat_hands.bp,
        keeper_seat.bp,
        changes.bp,
        buys.bp,
        buys.arbiter_bp,
        checker.bp,
        stock.bp,
        rounds.bp,
        pending_hands.bp,
        display.bp,
        tables.bp,
        table_door.bp,
        people.bp,
        party.bp,
        party_changes.bp,
        party_rating.bp,
        party_person.bp,
        exports.bp,
        exports.game_bp,
        restores.bp,
    ):
        app.register_blueprint(blueprint)
    template_helpers.init_app(app)
