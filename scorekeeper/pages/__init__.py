"""The HTML front door: pages and their htmx fragments over the games service."""

from __future__ import annotations

from flask import Flask

from . import (
    buys,
    changes,
    checker,
    display,
    downloads,
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
    party_watch,
    pending_hands,
    people,
    printed_sheets,
    restores,
    rounds,
    seat_hands,
    seats,
    stock,
    table_door,
    tables,
    template_helpers,
)

# The pages behind a link, each nested under its door, which checks the link once for all.
for page in (
    buys.bp,
    buys.arbiter_bp,
    changes.bp,
    checker.bp,
    display.bp,
    downloads.game_bp,
    keeper_seat.bp,
    pending_hands.bp,
    rounds.bp,
    seats.calls_bp,
    seats.links_bp,
    stock.bp,
):
    game_door.door.register_blueprint(page)
seats.door.register_blueprint(seat_hands.bp)
for page in (
    people.bp,
    downloads.table_bp,
    party.bp,
    party_changes.bp,
    party_rating.bp,
    party_watch.bp,
):
    table_door.door.register_blueprint(page)


def init_app(app: Flask) -> None:
    """Register every page blueprint and the helpers the templates call."""
    for blueprint in (
        home.bp,
        home.rulesets_bp,
        printed_sheets.bp,
        home.language_bp,
        home.theme_bp,
        house_rules.bp,
        install.bp,
        games.bp,
        tables.bp,
        restores.bp,
        party_person.bp,  # a person's own link for an evening: its own door
        party_watch.relatives_bp,  # the relatives' link to an evening: its own door
        game_door.door,
        seats.door,
        table_door.door,
    ):
        app.register_blueprint(blueprint)
    template_helpers.init_app(app)
