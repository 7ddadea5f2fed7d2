"""Sharing a game through the API: replacing its links, and a cheap check for polling clients."""

from __future__ import annotations

from flask import Blueprint, Response

from ..games import actions
from .access import open_game, open_version
from .answer_base import answer
from .answers import GameVersion, Links
from .openapi import documented
from .reading import read
from .requests import LinkChange


@documented({200: GameVersion})
def version_show(game_id: int) -> tuple[Response, int]:
    """Say the game's version from its row alone: poll this, fetch the game when it moves."""
    return answer(GameVersion(version=open_version(game_id)))


@documented({200: Links}, LinkChange)
def links_create(game_id: int, role: str) -> tuple[Response, int]:
    """Replace the edit or view link (edit link only); the old one answers 410 from now on."""
    game = open_game(game_id, change=True, facts=False)
    read(LinkChange)  # its version is taken; a new link conflicts with no other change
    actions.rotate_link(game, "edit" if role == "edit" else "view")
    return answer(Links(edit=game.edit_token, view=game.view_token))


def register(bp: Blueprint, game: str) -> None:
    """Add the version and link routes to the API, under the game's URL."""
    bp.add_url_rule(f"{game}/version", view_func=version_show, methods=["GET"])
    bp.add_url_rule(
        f"{game}/links/<any(edit, view):role>", view_func=links_create, methods=["POST"]
    )
