"""The home page, the preset rules cards, and the language switch."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..i18n import LANGUAGE_COOKIE
from ..rules.presets import PRESETS
from ..tables.table_links import known_tables
from .game_door import GAMES, openable_games
from .posted import local_target
from .remembered_rule_sets import saved_here
from .rendering import rules_card_page
from .table_door import TABLES

bp = Blueprint("home", __name__)
rulesets_bp = Blueprint("rulesets", __name__)
language_bp = Blueprint("language", __name__)
theme_bp = Blueprint("theme", __name__)
THEME_COOKIE = "theme"
THEMES = ("auto", "light", "dark")
A_YEAR = 365 * 24 * 3600


@bp.get("/")
def index() -> str:
    """Show the home page: start a game, resume one, recent results, the rule sets."""
    games = openable_games()
    table_tokens = TABLES.remembered()
    return render_template(
        "main/index.html",
        tokens=GAMES.remembered(),
        playing=[state for state in games if not state.finished],
        finished=[state for state in games if state.finished][:10],
        presets=PRESETS.values(),
        house=saved_here(),
        tables=known_tables(table_tokens),
        table_tokens=table_tokens,
    )


@rulesets_bp.get("/rules/<key>")
def show(key: str) -> Response:
    """Show the rules card of a preset."""
    if key not in PRESETS:
        abort(404)
    return rules_card_page(
        PRESETS[key],
        edit_link=url_for("house_rules.new", **{"from": key}),
        sheet_link=url_for("printed_sheets.preset", key=key),
    )


@language_bp.post("/language")
def update() -> Response:
    """Remember the chosen language in a cookie and go back."""
    language = request.form.get("language", "")
    response = redirect(local_target(url_for("home.index")), code=303)
    if language in current_app.config["LANGUAGES"]:
        response.set_cookie(
            LANGUAGE_COOKIE, language, max_age=A_YEAR, samesite="Lax", secure=request.is_secure
        )
    return response


@theme_bp.post("/theme")
def update_theme() -> Response:
    """Remember light, dark or the phone's own setting in a cookie and go back."""
    theme = request.form.get("theme", "")
    response = redirect(local_target(url_for("home.index")), code=303)
    if theme in THEMES:
        response.set_cookie(
            THEME_COOKIE, theme, max_age=A_YEAR, samesite="Lax", secure=request.is_secure
        )
    return response


def current_theme() -> str:
    """The theme this browser chose: auto (follow the phone), light or dark."""
    theme = request.cookies.get(THEME_COOKIE, "auto")
    return theme if theme in THEMES else "auto"
