"""A table's card parties in its backup: written out, checked whole, and restored whole.

An evening names its people by uid and its games by their edit links; its own changes name
people too (who came, who swapped, each round's seating), so those are uids in the file and
the restored rows' ids in the database. An evening is known by its people's links: one already
here is kept as it is. A broken evening (a game the file lacks, someone not of the table or not
at the evening) refuses the whole file before anything is written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import insert, select

from ...extensions import db
from ...models import CardParty, CardTable, Game, PartyChange, PartyGame, PartyPerson
from ...rules.errors import RuleError
from ...rules.messages import N_, msg
from ...rules.party_seating import table_sizes
from ...rules.ruleset_json import ruleset_from_dict
from .format import (
    Backup,
    BackupParty,
    BackupPartyChange,
    BackupPartyGame,
    BackupPartyPerson,
    BackupRefused,
    person_of,
    refused_at,
)
from .rows import found_in, insert_rows

PEOPLE_IN_CHANGES = ("people", "seating")  # the keys of a change's `after` that name people


def parties_facts(table: CardTable, uid_of: Mapping[int, str]) -> list[BackupParty]:
    """The table's evenings, oldest first, as their backup form, in four queries."""
    parties = list(
        db.session.scalars(
            select(CardParty).where(CardParty.table_id == table.id).order_by(CardParty.id)
        )
    )
    ids = [party.id for party in parties]
    people = _by_party(select(PartyPerson).order_by(PartyPerson.id), PartyPerson, ids)
    played = _by_party(
        select(PartyGame).order_by(PartyGame.round, PartyGame.table_number), PartyGame, ids
    )
    changes = _by_party(select(PartyChange).order_by(PartyChange.id), PartyChange, ids)
    game_ids = [row.game_id for rows in played.values() for row in rows]
    tokens = _edit_links(game_ids)
    return [
        BackupParty(
            rules=party.rules_json,
            tables=party.tables,
            rotation=party.rotation,  # type: ignore[arg-type]  # checked when stored
            rotate_every=party.rotate_every,
            seed=party.seed,
            seating=_named(party.seating, uid_of.__getitem__),
            state=party.state,  # type: ignore[arg-type]
            version=party.version,
            started_at=party.started_at,
            updated_at=party.updated_at,
            ended_at=party.ended_at,
            people=[
                BackupPartyPerson(uid=uid_of[p.person_id], token=p.token) for p in people[party.id]
            ],
            games=[
                BackupPartyGame(round=g.round, table_number=g.table_number, game=tokens[g.game_id])
                for g in played[party.id]
            ],
            changes=[
                BackupPartyChange(
                    kind=c.kind,
                    after=_after(c.after, uid_of.__getitem__),
                    version=c.version,
                    created_at=c.created_at,
                )
                for c in changes[party.id]
            ],
        )
        for party in parties
    ]


def _by_party(query: Any, model: Any, party_ids: list[int]) -> dict[int, list[Any]]:
    """A model's rows of these evenings in one query, grouped by evening (every one)."""
    found: dict[int, list[Any]] = {party_id: [] for party_id in party_ids}
    for row in db.session.scalars(query.where(model.party_id.in_(party_ids))):
        found[row.party_id].append(row)
    return found


def _edit_links(game_ids: list[int]) -> dict[int, str]:
    """The edit links of these games, by id."""
    return found_in(select(Game.id, Game.edit_token), Game.id, game_ids)


def _named(seating: Any, name: Callable[[Any], Any]) -> Any:
    """A seating (tables of people) with each person renamed; None stays None."""
    return None if seating is None else [[name(person) for person in t] for t in seating]


def _after(after: dict[str, Any] | None, name: Callable[[Any], Any]) -> dict[str, Any] | None:
    """A change's `after` with the people it names renamed (ids to uids, or back)."""
    if after is None:
        return None
    renamed = dict(after)
    if "people" in renamed:
        renamed["people"] = [name(person) for person in renamed["people"]]
    if "seating" in renamed:
        renamed["seating"] = _named(renamed["seating"], name)
    return renamed


def check_parties(backup: Backup) -> None:
    """Every evening of the file whole: its rules, people of the file once each, its games the
    file's (each in one evening, its rules, seating only the evening's people), its seatings
    and changes naming only its people; else the file is refused at the broken field."""
    into = {p.uid: p.merged_into for p in backup.players}
    games = {game.edit_token: game for game in backup.games}
    taken: Counter[str] = Counter()
    links: Counter[str] = Counter()
    for number, party in enumerate(backup.parties):
        where = f"parties.{number}"
        try:
            rules = ruleset_from_dict(party.rules, stored=True)
        except RuleError as error:
            raise refused_at(f"{where}.rules", error.message) from None
        uids = [person.uid for person in party.people]
        if any(uid not in into for uid in uids):
            raise _not_held(f"{where}.people")
        present = [person_of(uid, into) for uid in uids]
        if len(set(present)) != len(present):
            raise refused_at(f"{where}.people", msg(N_("One person is there twice.")))
        if not party.games:  # its first seating is drawn from the people and the rules
            try:
                table_sizes(len(uids), rules, party.tables)
            except RuleError as error:
                raise refused_at(f"{where}.people", error.message) from None
        links.update(person.token for person in party.people)
        _check_games(where, party, games, into, set(present))
        taken.update(played.game for played in party.games)
        _check_named(where, party, set(uids))
    if any(count > 1 for count in taken.values()):
        raise BackupRefused(msg(N_("The backup holds one game in two evenings.")))
    if any(count > 1 for count in links.values()):
        raise BackupRefused(msg(N_("The backup holds one person's evening link twice.")))


def _check_games(
    where: str,
    party: BackupParty,
    games: Mapping[str, Any],
    into: Mapping[str, str | None],
    present: set[str | None],
) -> None:
    """The evening's games: the file's, one per table and round, rounds and tables counted
    from 1, each played under the evening's rules by its people."""
    places = Counter((played.round, played.table_number) for played in party.games)
    if any(count > 1 for count in places.values()):
        reason = msg(N_("Two games are at one table in one round."))
        raise refused_at(f"{where}.games", reason)
    rounds = sorted({played.round for played in party.games})
    if rounds != _counted(rounds) or any(
        sorted(t for r, t in places if r == number)
        != _counted([t for r, t in places if r == number])
        for number in rounds
    ):
        raise refused_at(f"{where}.games", msg(N_("Its rounds and tables must count from 1.")))
    for index, played in enumerate(party.games):
        game = games.get(played.game)
        if game is None:
            raise _not_held(f"{where}.games.{index}.game")
        if game.rules != party.rules:
            reason = msg(N_("This game is played under other rules than its evening."))
            raise refused_at(f"{where}.games.{index}.game", reason)
        if any(person_of(uid, into) not in present for uid in game.seats):
            reason = msg(N_("This game seats someone who is not at the evening."))
            raise refused_at(f"{where}.games.{index}.game", reason)
    seated: dict[int, list[str | None]] = {}
    for played in party.games:
        seated.setdefault(played.round, []).extend(
            person_of(uid, into) for uid in games[played.game].seats
        )
    if any(sorted(map(str, people)) != sorted(map(str, present)) for people in seated.values()):
        # As live: a round starts with every person of the evening at one of its tables.
        reason = msg(N_("Each round of the evening seats each of its people once."))
        raise refused_at(f"{where}.games", reason)


def _counted(numbers: list[int]) -> list[int]:
    """1, 2, … as many as the numbers: what they are when counted from 1 without a gap."""
    return list(range(1, len(numbers) + 1))


def _check_named(where: str, party: BackupParty, uids: set[str]) -> None:
    """The evening's seating and changes name only its people."""
    for table in party.seating or []:
        if any(uid not in uids for uid in table):
            raise _not_held(f"{where}.seating")
    for index, change in enumerate(party.changes):
        after = change.after or {}
        named = after.get("people") or []
        seating = after.get("seating") or []
        if not isinstance(named, list) or not isinstance(seating, list):
            raise _not_held(f"{where}.changes.{index}.after")
        named = list(named)
        for table in seating:
            named += table if isinstance(table, list) else [None]
        if any(not isinstance(uid, str) or uid not in uids for uid in named):
            raise _not_held(f"{where}.changes.{index}.after")


def _not_held(where: str) -> BackupRefused:
    """A refusal for an evening's reference to someone or something the file lacks."""
    message = N_("The backup refers to something it does not hold, at %(where)s.")
    return BackupRefused(msg(message, where=where))


def insert_parties(backup: Backup, table_id: int, people: Mapping[str, int]) -> int:
    """Write the file's evenings the table lacks, under ids the restore gave its people and
    games; an evening already here is kept. Answers how many were added."""
    tokens = [person.token for party in backup.parties for person in party.people]
    query = select(PartyPerson.token, CardParty.table_id).join(
        CardParty, CardParty.id == PartyPerson.party_id
    )
    here = found_in(query, PartyPerson.token, tokens)
    wanted = [played.game for party in backup.parties for played in party.games]
    query = select(Game.edit_token, Game.id).where(Game.table_id == table_id)
    games = found_in(query, Game.edit_token, wanted)
    query = select(PartyGame.game_id, PartyGame.party_id)
    in_evenings = set(found_in(query, PartyGame.game_id, list(games.values())))
    added = 0
    for number, party in enumerate(backup.parties):
        owners = {here[p.token] for p in party.people if p.token in here}
        if owners - {table_id}:
            reason = msg(N_("This evening is already here, at another table."))
            raise refused_at(f"parties.{number}", reason)
        if owners:
            continue
        if any(games[played.game] in in_evenings for played in party.games):
            reason = msg(N_("One of its games is already in another evening here."))
            raise refused_at(f"parties.{number}.games", reason)
        _insert_party(party, table_id, people, games)
        added += 1
    return added


def _insert_party(
    party: BackupParty, table_id: int, people: Mapping[str, int], games: Mapping[str, int]
) -> None:
    """One evening and its people, games and changes."""
    row = party.model_dump(exclude={"rules", "seating", "people", "games", "changes"})
    row |= {
        "table_id": table_id,
        "rules_json": party.rules,
        "seating": _named(party.seating, people.__getitem__),
    }
    statement = insert(CardParty).returning(CardParty.id)
    party_id = db.session.execute(statement, row).scalar_one()
    insert_rows(
        PartyPerson,
        [
            {"party_id": party_id, "person_id": people[p.uid], "token": p.token}
            for p in party.people
        ],
    )
    insert_rows(
        PartyGame,
        [
            {
                "party_id": party_id,
                "round": g.round,
                "table_number": g.table_number,
                "game_id": games[g.game],
            }
            for g in party.games
        ],
    )
    insert_rows(
        PartyChange,
        [
            {
                "party_id": party_id,
                "kind": c.kind,
                "after": _after(c.after, people.__getitem__),
                "version": c.version,
                "created_at": c.created_at,
            }
            for c in party.changes
        ],
    )
