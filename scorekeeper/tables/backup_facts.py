"""One game's stored facts as their backup form: seats by person, rounds, history, old links."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..extensions import db
from ..models import Change, Game, RetiredLink, Round, SeatLink
from .backup_format import (
    BackupChange,
    BackupGame,
    BackupRetiredLink,
    BackupRound,
    BackupSeatLink,
)

CHANGE_FIELDS = (
    "action_id",
    "kind",
    "round_number",
    "seat",
    "before",
    "after",
    "version",
    "created_at",
    "undone_at",
)


def changes_by_game(game_ids: list[int]) -> dict[int, list[Change]]:
    """The history of these games in one query, oldest change first."""
    query = db.select(Change).where(Change.game_id.in_(game_ids)).order_by(Change.id)
    return _by_game(game_ids, db.session.scalars(query))


def retired_by_game(game_ids: list[int]) -> dict[int, list[RetiredLink]]:
    """The replaced links of these games in one query, oldest first."""
    query = db.select(RetiredLink).where(RetiredLink.game_id.in_(game_ids))
    return _by_game(game_ids, db.session.scalars(query.order_by(RetiredLink.id)))


def seat_links_by_game(game_ids: list[int]) -> dict[int, list[SeatLink]]:
    """The seats' links of these games, replaced ones too, in one query, oldest first."""
    query = db.select(SeatLink).where(SeatLink.game_id.in_(game_ids))
    return _by_game(game_ids, db.session.scalars(query.order_by(SeatLink.id)))


def _by_game(game_ids: list[int], rows: Iterable[Any]) -> dict[int, list[Any]]:
    """Rows grouped by their game, every game listed."""
    found: dict[int, list[Any]] = {game_id: [] for game_id in game_ids}
    for row in rows:
        found[row.game_id].append(row)
    return found


def games_facts(loaded: list[Game], uid_of: dict[int, str]) -> list[BackupGame]:
    """Loaded games of a table as their backup form: history and links read in three queries."""
    ids = [game.id for game in loaded]
    history, retired, seats = changes_by_game(ids), retired_by_game(ids), seat_links_by_game(ids)
    links = {game.id: game.edit_token for game in loaded}
    return [
        game_facts(
            g, uid_of, history[g.id], retired[g.id], seats[g.id], links.get(g.rematch_id or 0)
        )
        for g in loaded
    ]


def game_facts(
    game: Game,
    uid_of: dict[int, str],
    changes: list[Change],
    retired: list[RetiredLink],
    seat_links: list[SeatLink],
    rematch: str | None = None,
) -> BackupGame:
    """A loaded game of a table, with its history and every link, as its backup form;
    `rematch` the edit link of the game Play again started after it."""
    return BackupGame(
        edit_token=game.edit_token,
        view_token=game.view_token,
        rules=game.rules_json,
        first_dealer=game.first_dealer,
        dealer_was_cut=game.dealer_was_cut,
        decks=game.decks,
        version=game.version,
        created_at=game.created_at,
        updated_at=game.updated_at,
        seats=[uid_of[seat.table_player_id or 0] for seat in game.seats],
        rounds=[_round_facts(played) for played in game.rounds],
        changes=[
            BackupChange(**{name: getattr(change, name) for name in CHANGE_FIELDS})
            for change in changes
        ],
        retired_links=[BackupRetiredLink.model_validate(link) for link in retired],
        seat_links=[BackupSeatLink.model_validate(link) for link in seat_links],
        rematch=rematch,
    )


def _round_facts(played: Round) -> BackupRound:
    """A round as its backup form: the same fields, read from the stored round."""
    return BackupRound.model_validate(played)
