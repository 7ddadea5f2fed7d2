"""A card party's changes: start, draw again, swap two people, confirm a seating, end.

Each is one transaction under the table's lock, carries the evening's version it was drawn
on (an older one is refused with 409) and writes one PartyChange the table can see.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy import update

from ..database import lock_table
from ..extensions import db
from ..games import actions
from ..games.refusals import Conflict
from ..link_tokens import new_token
from ..models import (
    CardParty,
    CardTable,
    PartyChange,
    PartyGame,
    PartyPerson,
    TablePlayer,
    person_of,
    utcnow,
)
from ..rules.errors import RuleError
from ..rules.messages import N_, msg
from ..rules.party_rotation import Rotation
from ..rules.party_seating import Seating, swap_people, table_sizes
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_to_dict
from . import people
from .party_evening import Evening, read_evening

MOST_PEOPLE = 64  # eight tables of eight: the most a card party seats
MOST_ROUNDS_PER_SEATING = 10
SEED_RANGE = 2**31 - 1  # fits the INTEGER column
STALE = N_("The evening changed on another phone since this page was shown: look again.")
OVER = N_("This evening has ended.")


def start(
    table: CardTable,
    rules: RuleSet,
    present: Sequence[int],
    new_names: Sequence[str],
    tables: int | None,
    rotation: Rotation,
    rotate_every: int = 1,
) -> CardParty:
    """Start an evening at the table with the people present (new names join the table) and
    draw its first seating; nothing is kept when the rules or the table refuse it."""
    lock_table(table.id)
    try:
        chosen = _people_present(table, present, new_names)
        table_sizes(len(chosen), rules, tables)
        if not 1 <= rotate_every <= MOST_ROUNDS_PER_SEATING:
            raise RuleError(
                msg(N_("Move after 1 to %(most)s games."), most=MOST_ROUNDS_PER_SEATING),
                field="rotate_every",
            )
        db.session.flush()  # the new people's ids
        party = CardParty(
            table_id=table.id,
            rules_json=ruleset_to_dict(rules),
            tables=tables,
            rotation=rotation.value,
            rotate_every=rotate_every,
            seed=secrets.randbelow(SEED_RANGE),
            version=0,
        )
        db.session.add(party)
        db.session.flush()
        db.session.add_all(
            PartyPerson(party_id=party.id, person_id=p.id, token=new_token()) for p in chosen
        )
        _changed(party, "start", people=[p.id for p in chosen])
        db.session.commit()
    except RuleError:
        db.session.rollback()  # the new names, too
        raise
    return party


def redraw(table: CardTable, party: CardParty, version: int) -> Evening:
    """Draw the proposed seating again with a new seed (before confirming it)."""
    _open(table, party, version)
    party.seed = secrets.randbelow(SEED_RANGE)
    party.seating = None
    _changed(party, "redraw", seed=party.seed)
    return _committed(table, party)


def swap(table: CardTable, party: CardParty, version: int, first: str, second: str) -> Evening:
    """Swap two people of the proposed seating before confirming it."""
    evening = _open(table, party, version)
    assert evening.proposal is not None  # _open refuses an evening with none
    swapped = swap_people(evening.proposal, first, second)
    party.seating = [[int(key) for key in seated] for seated in swapped]
    _changed(party, "swap", people=[int(first), int(second)])
    return _committed(table, party)


def confirm(table: CardTable, party: CardParty, version: int, shown: Seating) -> Evening:
    """Confirm the proposed seating as it was shown: each table's game starts, seating the
    table's people; refused (409) when the proposal changed since it was shown."""
    evening = _open(table, party, version)
    if shown != evening.proposal:
        raise Conflict(msg(STALE), field="seating")
    by_key = {str(p.id): p for p in _people(table)}
    number = evening.round_number + 1
    for index, seated in enumerate(shown, start=1):
        chosen = [by_key[key] for key in seated]
        game = actions.create_game(
            evening.rules, [p.name for p in chosen], None, None, chosen, commit=False
        )
        db.session.add(
            PartyGame(party_id=party.id, round=number, table_number=index, game_id=game.id)
        )
    party.seating = None
    party.state = "playing"
    _changed(party, "confirm", round=number, seating=[list(map(int, t)) for t in shown])
    return _committed(table, party)


def end(table: CardTable, party: CardParty, version: int) -> Evening:
    """End the evening now (the organiser's word)."""
    _stale_or_over(table, party, version)
    party.state = "ended"
    party.ended_at = utcnow()
    _changed(party, "end")
    return _committed(table, party)


def _open(table: CardTable, party: CardParty, version: int) -> Evening:
    """The evening under the table's lock, refused when the page was older or it cannot seat
    anyone now (a round still playing)."""
    evening = _stale_or_over(table, party, version)
    if evening.proposal is None:
        waiting = ", ".join(str(n) for n in evening.waiting_for)
        raise RuleError(
            msg(
                N_("Wait until every table has finished: still playing, table %(tables)s."),
                tables=waiting,
            ),
            field="seating",
        )
    return evening


def _stale_or_over(table: CardTable, party: CardParty, version: int) -> Evening:
    """The evening read under the table's lock; 409 if the page was drawn on an older version,
    422 once it has ended."""
    lock_table(table.id)
    db.session.refresh(party)
    if version != party.version:
        raise Conflict(msg(STALE), field="version")
    evening = read_evening(table, party)
    if evening.ended:
        raise RuleError(msg(OVER), field="version")
    return evening


def _committed(table: CardTable, party: CardParty) -> Evening:
    """Commit the evening's change and read it as it stands now."""
    db.session.commit()
    return read_evening(table, party)


def _changed(party: CardParty, kind: str, **after: Any) -> None:
    """Record one of the evening's changes and move its version once, from the one read under
    the table's lock (a game's version moves only through games/history)."""
    bumped = party.version + 1
    db.session.execute(
        update(CardParty)
        .where(CardParty.id == party.id, CardParty.version == party.version)
        .values(version=bumped, updated_at=utcnow())
    )
    change = PartyChange(party_id=party.id, kind=kind, after=after or None, version=bumped)
    db.session.add(change)


def _people(table: CardTable) -> list[TablePlayer]:
    """The table's people as they are now (merged spellings followed)."""
    return [person_of(p) for p in table.players]


def _people_present(
    table: CardTable, present: Sequence[int], new_names: Sequence[str]
) -> list[TablePlayer]:
    """The people ticked (each of this table) and those typed (new ones join the table)."""
    by_id = {p.id: p for p in people.people(table)}
    unknown = [person_id for person_id in present if person_id not in by_id]
    if unknown:
        raise RuleError(msg(N_("Choose people of this table.")), field="people")
    chosen = [by_id[person_id] for person_id in present]
    chosen += people.seat_people(table, list(new_names)) if new_names else []
    unique = list(dict.fromkeys(chosen))
    if len(unique) > MOST_PEOPLE:
        raise RuleError(
            msg(N_("A card party seats at most %(count)s people."), count=MOST_PEOPLE),
            field="people",
        )
    return unique
