"""Sharing a game through the API: replacing its links, and a cheap check for polling clients."""

from __future__ import annotations

from flask import Blueprint, Response

from ..games import actions
from ..games.opening import open_for_change
from .access import game_access
from .answer_base import answer
from .answers import GameVersion, Links
from .openapi import documented
from .reading import read
from .requests import LinkChange


@documented({200: GameVersion})
def version_show(game_id: int) -> tuple[Response, int]:
    """Say the game's version from its row alone: poll this, fetch the game when it moves."""
    return answer(GameVersion(version=game_access(game_id, change=False).version))


@documented({200: Links}, LinkChange)
def links_create(game_id: int, role: str) -> tuple[Response, int]:
    """Replace the edit or view link (edit link only); the old one answers 410 from now on."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    read(LinkChange)  # its version is taken; a new link conflicts with no other change
    replaced = actions.rotate_link(state, "edit" if role == "edit" else "view").facts
    return answer(Links(edit=replaced.edit_token, view=replaced.view_token))


def register(bp: Blueprint, game: str) -> None:
    """Add the version and link routes to the API, under the game's URL."""
    bp.add_url_rule(f"{game}/version", view_func=version_show, methods=["GET"])
    bp.add_url_rule(
        f"{game}/links/<any(edit, view):role>", view_func=links_create, methods=["POST"]
    )
