"""A table's stored games in their backup form, and where a restored file disagrees with them.

A restore never changes a stored fact (RULES.md §10): an older backup does not undo a merge
made since, redo an undone one, take back a rename or a corrected round. It says what
differs instead, read after the restore from what is stored.
"""

from __future__ import annotations

from typing import Any

from ...extensions import db
from ...games.history import round_label
from ...models import CardTable, Change, Game, RetiredLink, SeatLink, TablePlayer
from ...rules.messages import N_, Message, msg
from ...rules.ruleset_json import ruleset_from_dict
from .. import games
from .format import (
    Backup,
    BackupChange,
    BackupGame,
    BackupPlayer,
    BackupRetiredLink,
    BackupRound,
    BackupSeatLink,
)


def games_facts(loaded: list[Game], uid_of: dict[int, str]) -> list[BackupGame]:
    """Loaded games of a table as their backup form: history and links read in three queries."""
    ids = [game.id for game in loaded]
    history, retired, seats = (_by_game(model, ids) for model in (Change, RetiredLink, SeatLink))
    links = {game.id: game.edit_token for game in loaded}
    return [
        game_facts(
            g, uid_of, history[g.id], retired[g.id], seats[g.id], links.get(g.rematch_id or 0)
        )
        for g in loaded
    ]


def _by_game(model: Any, game_ids: list[int]) -> dict[int, list[Any]]:
    """A model's rows of these games in one query, oldest first, grouped by game (every one)."""
    query = db.select(model).where(model.game_id.in_(game_ids)).order_by(model.id)
    found: dict[int, list[Any]] = {game_id: [] for game_id in game_ids}
    for row in db.session.scalars(query):
        found[row.game_id].append(row)
    return found


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
        rounds=[BackupRound.model_validate(played) for played in game.rounds],
        changes=[BackupChange.model_validate(change) for change in changes],
        retired_links=[BackupRetiredLink.model_validate(link) for link in retired],
        seat_links=[BackupSeatLink.model_validate(link) for link in seat_links],
        rematch=rematch,
    )


STARTED = ("rules", "first_dealer", "dealer_was_cut", "decks", "seats", "created_at")


def differences(backup: Backup, table: CardTable, present: frozenset[str]) -> list[Message]:
    """What the file says otherwise than the table, for the table, its people and games."""
    found = []
    if backup.table.name != table.name:
        message = N_("The table is called %(here)s here and %(file)s in the file.")
        found.append(msg(message, here=table.name, file=backup.table.name))
    if backup.table.view_token != table.view_token:
        found.append(msg(N_("The table's view link was replaced here since the backup.")))
    people = {person.uid: person for person in games.load_people(table)}
    in_file = {player.uid: player for player in backup.players}
    for player in backup.players:
        found += _person(player, people, in_file)
    return found + _games(backup, table, people, present)


def _person(
    player: BackupPlayer, people: dict[str, TablePlayer], in_file: dict[str, BackupPlayer]
) -> list[Message]:
    """How one person of the file differs from them at the table: their name, their merge."""
    here = people[player.uid]
    found = []
    if here.name != player.name:
        message = N_("%(here)s is called %(file)s in the file.")
        found.append(msg(message, here=here.name, file=player.name))
    by_id = {person.id: person for person in people.values()}
    into_here = by_id[here.merged_into_id] if here.merged_into_id else None
    into_file = in_file[player.merged_into] if player.merged_into else None
    if into_here is None and into_file is not None:
        message = N_("%(name)s counts as %(into)s in the file; here as themselves.")
        found.append(msg(message, name=here.name, into=into_file.name))
    elif into_here is not None and into_file is None:
        message = N_("%(name)s counts as %(into)s here; in the file as themselves.")
        found.append(msg(message, name=here.name, into=into_here.name))
    elif into_here is not None and into_file is not None and into_here.uid != into_file.uid:
        message = N_("%(name)s counts as %(here)s here and as %(file)s in the file.")
        found.append(msg(message, name=here.name, here=into_here.name, file=into_file.name))
    return found


def _games(
    backup: Backup, table: CardTable, people: dict[str, TablePlayer], present: frozenset[str]
) -> list[Message]:
    """The games the table had already that the file holds otherwise, with what differs."""
    stored = [game for game in games.all_game_rows(table) if game.edit_token in present]
    uid_of = {person.id: uid for uid, person in people.items()}
    here = {facts.edit_token: facts for facts in games_facts(stored, uid_of)}
    by_token = {game.edit_token: game for game in stored}
    found = []
    for facts in backup.games:
        if facts.edit_token in here:
            parts = _parts(here[facts.edit_token], facts, by_token[facts.edit_token])
            if parts:
                message = N_("The game of %(date)s (%(players)s) differs at %(parts)s.")
                date = facts.created_at.date().isoformat()
                names = tuple(seat.name for seat in by_token[facts.edit_token].seats)
                found.append(msg(message, date=date, players=names, parts=parts))
    return found


def _parts(here: BackupGame, file: BackupGame, game: Game) -> tuple[Message, ...]:
    """Which parts of a game differ: how it began, each round, its history, its links."""
    parts = []
    if any(getattr(here, name) != getattr(file, name) for name in STARTED):
        parts.append(msg(N_("how it began")))
    rounds_here = {played.number: played for played in here.rounds}
    rounds_file = {played.number: played for played in file.rounds}
    regular = len(ruleset_from_dict(game.rules_json, stored=True).rounds)
    for number in sorted(rounds_here.keys() | rounds_file.keys()):
        if rounds_here.get(number) != rounds_file.get(number):
            parts.append(round_label(number, regular))
    if here.changes != file.changes:
        parts.append(msg(N_("its history")))
    links = ("view_token", "retired_links", "seat_links")
    if any(getattr(here, name) != getattr(file, name) for name in links):
        parts.append(msg(N_("its links")))
    return tuple(parts)
