"""Sharing a game through the API: replacing its links, and a cheap check for polling clients."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ..games import actions
from .access import open_game
from .parse import read_body

GAME = "/v1/games/<int:game_id>"


def version_show(game_id: int) -> Response:
    """Say the game's version from its row alone: poll this, fetch the game when it moves."""
    return jsonify({"version": open_game(game_id, change=False, facts=False).version})


def links_create(game_id: int, role: str) -> Response:
    """Replace the edit or view link; whoever holds the old one gets 410 from now on."""
    game = open_game(game_id, change=True, facts=False)
    body = read_body()
    body.version()  # taken like every change's; a new link conflicts with no other change
    body.finish()
    actions.rotate_link(game, "edit" if role == "edit" else "view")
    return jsonify({"edit": game.edit_token, "view": game.view_token})


def register(bp: Blueprint) -> None:
    """Add the version and link routes to the API."""
    bp.add_url_rule(f"{GAME}/version", view_func=version_show, methods=["GET"])
    bp.add_url_rule(
        f"{GAME}/links/<any(edit, view):role>", view_func=links_create, methods=["POST"]
    )
