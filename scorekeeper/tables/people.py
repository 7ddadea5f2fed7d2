"""A table's people: add, rename once for every game, merge two spellings and undo the merge."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import select

from ..collation import by_name
from ..database import lock_games, lock_writes
from ..extensions import db
from ..games import history
from ..link_tokens import new_token
from ..models import CardTable, Seat, TablePlayer, person_of, utcnow
from ..rules.errors import RuleError
from ..rules.messages import N_, msg
from ..rules.player_names import NAME_LENGTH, clean_name, name_key

TABLE_NAME_LENGTH = 60


@dataclass(frozen=True)
class MergePreview:
    """What a merge will do, shown before it is done: whose games move to whom."""

    merged: TablePlayer
    into: TablePlayer
    games_moved: int


def create_table(name: str) -> CardTable:
    """Open a new table with fresh links."""
    table = CardTable(
        uid=uuid.uuid4().hex,
        name=clean_table_name(name),
        edit_token=new_token(),
        view_token=new_token(),
    )
    lock_writes()
    db.session.add(table)
    db.session.commit()
    return table


def clean_table_name(name: str) -> str:
    """A table's name as kept: the table form's and a restored backup's, refused at "name"."""
    return _typed_name(name, "name", TABLE_NAME_LENGTH)


def people(table: CardTable) -> list[TablePlayer]:
    """The table's people as they are now: merged spellings left out, by name in the table's
    language."""
    return by_name((p for p in table.players if p.merged_into_id is None), lambda p: p.name)


def merged(table: CardTable) -> list[TablePlayer]:
    """The spellings merged into someone else, newest merge first, so they can be undone."""
    found = [p for p in table.players if p.merged_into_id is not None]
    return sorted(found, key=lambda p: p.merged_at or p.created_at, reverse=True)


def find(table: CardTable, player_id: int) -> TablePlayer:
    """One of this table's people; someone of another table is not found (404 at the door)."""
    for player in table.players:
        if player.id == player_id:
            return player
    raise LookupError(player_id)


def seat_people(table: CardTable, names: list[str]) -> list[TablePlayer]:
    """The table's people of these names (any case), adding whoever is new to the table."""
    # A merged spelling typed again seats the person it was merged into, not a new one.
    by_name = {name_key(p.name): person_of(p) for p in merged(table)}
    by_name |= {name_key(p.name): p for p in people(table)}
    chosen = []
    for name in names:
        player = by_name.get(name_key(name)) or _new_player(table, name)
        by_name[name_key(player.name)] = player
        chosen.append(player)
    db.session.flush()  # a new person gets the table's id before a seat names them
    return chosen


def rename(table: CardTable, player: TablePlayer, name: str) -> None:
    """Give a person a new name, in every game of the table at once."""
    name = _typed_name(name, "name")
    _check_free(table, name, but=player)
    _tell_games(player, "rename", player.name, name)
    player.name = name
    db.session.commit()


def preview_merge(table: CardTable, merged_id: int, into_id: int) -> MergePreview:
    """Check a merge and say what it will do; refuse one person twice at the same game."""
    merged_player, into = find(table, merged_id), find(table, into_id)
    if merged_player.id == into.id or merged_player.merged_into_id or into.merged_into_id:
        raise RuleError(msg(N_("Choose two different people of this table.")), field="into")
    games = _games_of(merged_player)
    if games & _games_of(into):
        message = msg(
            N_("%(merged)s and %(into)s played in the same game: they are two people."),
            merged=merged_player.name,
            into=into.name,
        )
        raise RuleError(message, field="into")
    return MergePreview(merged_player, into, len(games))


def merge(table: CardTable, merged_id: int, into_id: int) -> MergePreview:
    """Count one spelling's games as the other person's; kept as a fact, so it can be undone."""
    preview = preview_merge(table, merged_id, into_id)
    _tell_games(preview.merged, "merge", preview.merged.name, preview.into.name)
    preview.merged.merged_into_id = preview.into.id
    preview.merged.merged_at = utcnow()
    db.session.commit()
    return preview


def undo_merge(table: CardTable, player_id: int) -> TablePlayer:
    """Make a merged spelling a person of their own again, with their own games."""
    player = find(table, player_id)
    if player.merged_into_id is None:
        raise RuleError(msg(N_("%(name)s is not merged."), name=player.name), field="player")
    _check_free(table, player.name, but=player)
    shown = person_of(player).name
    player.merged_into_id = None
    player.merged_at = None
    _tell_games(player, "unmerge", shown, player.name)
    db.session.commit()
    return player


def similar(table: CardTable) -> list[tuple[TablePlayer, TablePlayer]]:
    """Pairs of people whose names look like one person typed two ways, offered for merging."""
    found = people(table)
    return [
        (a, b)
        for i, a in enumerate(found)
        for b in found[i + 1 :]
        if _looks_alike(name_key(a.name), name_key(b.name))
    ]


def _looks_alike(a: str, b: str) -> bool:
    """One letter added, dropped or changed ("Ann", "Anne"; "Jon", "John")."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return a == b
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _games_of(player: TablePlayer) -> set[int]:
    """The games this spelling (and whoever was merged into it) sat at."""
    return {game_id for game_id, _seat in _seats_of(player)}


def _seats_of(player: TablePlayer) -> list[tuple[int, int]]:
    """Each game and seat this spelling (and whoever was merged into it) sat at."""
    ids = {p.id for p in player.table.players if person_of(p).id == player.id}
    query = select(Seat.game_id, Seat.position).where(Seat.table_player_id.in_(ids))
    return [(int(game_id), int(seat)) for game_id, seat in db.session.execute(query)]


def _tell_games(player: TablePlayer, kind: str, old: str, new: str) -> None:
    """Move on every game that shows this person, with an entry in its history naming the
    table's change (games/history.write, the one change path): every open phone's poll shows
    the new name within 2 s, and a state kept for an older version is never read again."""
    seats = _seats_of(player)
    versions = lock_games({game_id for game_id, _seat in seats})
    for game_id, seat in sorted(seats):
        facts = {"seat": seat, "before": {"name": old}, "after": {"name": new}}
        versions[game_id], _now = history.write(
            game_id, versions[game_id], kind, None, None, **facts
        )


def _new_player(table: CardTable, name: str) -> TablePlayer:
    """A person new to the table."""
    player = TablePlayer(uid=uuid.uuid4().hex, name=_typed_name(name, "players"))
    table.players.append(player)
    return player


def _check_free(table: CardTable, name: str, but: TablePlayer) -> None:
    """Refuse a name another person of the table already has."""
    if any(name_key(p.name) == name_key(name) and p is not but for p in people(table)):
        raise RuleError(
            msg(N_("Someone at this table is already called %(name)s."), name=name), "name"
        )


def _typed_name(name: str, field: str, length: int = NAME_LENGTH) -> str:
    """A person's or a table's name cleaned as every player name is (rules/player_names):
    invisible characters (controls, NUL, direction overrides) refused at `field`."""
    try:
        return clean_name(name, length)
    except RuleError as error:
        raise RuleError(error.message, field=field) from None
