"""Games through the API: start one, read it, its version, links, history and undo."""

from __future__ import annotations

from flask import Blueprint, Response, url_for

from ..games import actions
from ..games.history import Actor, ChangeKind, actor_of, changes, describe
from ..games.opening import open_for_change, open_for_read, reread
from .answers import Game, GameCreated, Links, answer_game, links_of, with_links
from .base import (
    GAME,
    Answer,
    Count,
    Said,
    Timestamp,
    With,
    answer,
    answer_list,
    documented,
    game_access,
)
from .fields import GameRuleSet, RuleSetToken
from .reading import Action, LinkChange, Seating, read
from .rulesets import chosen

bp = Blueprint("games", __name__)


class NewGame(Seating):
    """Start a game: first_dealer null cuts for the deal at random."""

    ruleset: GameRuleSet
    ruleset_token: RuleSetToken = None


class GameVersion(Answer):
    """The game's version alone."""

    version: Count


class Change(Answer):
    """One line of the history."""

    id: Count
    kind: ChangeKind
    by: Actor  # who made it: the scorekeeper, the seat it names, or the table
    round: Count | None
    seat: Count | None
    text: Said
    # a saved round's hands entered on the players' own phones; the others the scorekeeper's
    from_phones: list[Count]
    created_at: Timestamp
    undone: bool


@bp.post("/v1/games")
@documented({201: GameCreated}, NewGame, errors=(409,))
def games_create() -> tuple[Response, int, dict[str, str]]:
    """Start a game: rule set, players in seat order, first dealer (null: cut at random)."""
    new = read(NewGame)
    rules = chosen(new.ruleset, new.ruleset_token)
    game = actions.create_game(rules, new.players, new.first_dealer, new.decks)
    state = reread(game.id)
    created = GameCreated.of(state, links=game)
    created.seat_links = links_of(state)  # the creator holds the edit link
    response, status = answer(created, 201)
    return response, status, {"Location": url_for(".games_show", game_id=game.id)}


@bp.get(GAME)
@documented({200: Game})
def games_show(game_id: int) -> tuple[Response, int]:
    """Show a game: table, rules, the round now, rounds played, totals and standings."""
    opened = game_access(game_id, change=False)
    state = open_for_read(game_id, opened)
    return answer(with_links(Game.of(state), state, opened))


@bp.get(f"{GAME}/version")
@documented({200: GameVersion})
def version_show(game_id: int) -> tuple[Response, int]:
    """Say the game's version from its row alone: poll this, fetch the game when it moves."""
    return answer(GameVersion.model_validate(game_access(game_id, change=False)))


@bp.post(f"{GAME}/links/<any(edit, view):role>")
@documented({200: Links}, LinkChange)
def links_create(game_id: int, role: str) -> tuple[Response, int]:
    """Replace the edit or view link (edit link only); the old one answers 410 from now on."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    read(LinkChange)  # its version is taken; a new link conflicts with no other change
    replaced = actions.rotate_link(state, "edit" if role == "edit" else "view").facts
    return answer(Links.model_validate(replaced))


@bp.post(f"{GAME}/undo")
@documented({200: Game}, Action)
def undo_create(game_id: int) -> tuple[Response, int]:
    """Undo the newest change that is not yet undone."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    undo = read(Action)
    undone = actions.undo_last(state, undo.action_id, undo.version)
    # A repeated action id changed nothing: the game as it stands is `state`, read with the lock.
    return answer_game(state if undone is None else undone.state)


@bp.get(f"{GAME}/history")
@documented({200: list[Change]})
def history_index(game_id: int) -> tuple[Response, int]:
    """List the game's changes, newest first, each as the table reads it."""
    state = open_for_read(game_id, game_access(game_id, change=False))
    names, regular = state.names, len(state.rules.rounds)
    return answer_list(
        [
            Change.model_validate(
                With(
                    change,
                    by=actor_of(change.kind),
                    round=change.round_number,
                    text=describe(change, names, regular),
                    from_phones=(change.after or {}).get("from_phones") or [],
                    undone=change.undone_at is not None,
                )
            )
            for change in changes(state.facts)
        ]
    )
