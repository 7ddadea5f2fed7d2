"""One game's stored facts to and from its backup form: seats by person, rounds, history."""

from __future__ import annotations

from ..extensions import db
from ..models import Buy, CardTable, Change, Game, Round, RoundResult, Seat, TablePlayer
from .backup_format import BackupChange, BackupGame, BackupRound

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
    found: dict[int, list[Change]] = {game_id: [] for game_id in game_ids}
    for change in db.session.scalars(query):
        found[change.game_id].append(change)
    return found


def game_facts(game: Game, uid_of: dict[int, str], changes: list[Change]) -> BackupGame:
    """A loaded game of a table, with its history, as its backup form."""
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
    )


def _round_facts(played: Round) -> BackupRound:
    """A round as its backup form: the same fields, read from the stored round."""
    return BackupRound.model_validate(played)


def rebuild_game(facts: BackupGame, table: CardTable, people: dict[str, TablePlayer]) -> Game:
    """A game of the table made again from its backup form, added to the session."""
    game = Game(
        table_id=table.id,
        rules_json=facts.rules,
        first_dealer=facts.first_dealer,
        dealer_was_cut=facts.dealer_was_cut,
        version=facts.version,
        edit_token=facts.edit_token,
        view_token=facts.view_token,
        created_at=facts.created_at,
        updated_at=facts.updated_at,
    )
    game.decks = facts.decks
    game.seats = [Seat(position=i, table_player=people[uid]) for i, uid in enumerate(facts.seats)]
    game.rounds = [_rebuild_round(played) for played in facts.rounds]
    db.session.add(game)
    db.session.flush()
    db.session.add_all(Change(game_id=game.id, **change.model_dump()) for change in facts.changes)
    return game


def _rebuild_round(played: BackupRound) -> Round:
    """A round made again from its backup form."""
    made = Round(**played.model_dump(exclude={"results", "buys"}))
    made.results = [RoundResult(**result.model_dump()) for result in played.results]
    made.buys = [Buy(**buy.model_dump()) for buy in played.buys]
    return made
