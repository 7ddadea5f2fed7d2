"""A person's own link for an evening, "my seat tonight": it follows them from table to table."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from ..extensions import db
from ..games import seat_links
from ..link_tokens import LinkRefused
from ..models import LARGEST_INTEGER, CardParty, CardTable, PartyPerson, TablePlayer, person_of
from ..rules.messages import N_, msg
from .party_evening import Evening

UNKNOWN = N_("No one's evening %(id)s opens with that link.")


@dataclass(frozen=True)
class SeatTonight:
    """Where a person sits now: the table of the evening, the game and their seat's link."""

    table_number: int
    game_id: int
    seat: int
    token: str


def open_person(party_id: int, token: str) -> tuple[CardParty, TablePlayer]:
    """The evening and person a link opens, compared in constant time; 404 for any other."""
    party = db.session.get(CardParty, party_id) if party_id <= LARGEST_INTEGER else None
    rows = (
        []
        if party is None
        else list(
            db.session.execute(
                select(PartyPerson.person_id, PartyPerson.token).where(
                    PartyPerson.party_id == party_id
                )
            ).tuples()
        )
    )
    found = seat_links.matching_seat(token, rows)  # every row compared, in constant time
    if party is None or found is None:
        raise LinkRefused(404, msg(UNKNOWN, id=party_id))
    return party, person_of(db.session.get_one(TablePlayer, found))


def links_of(party: CardParty) -> dict[int, str]:
    """Each person's link token for the evening, by their table person id."""
    query = select(PartyPerson.person_id, PartyPerson.token).where(PartyPerson.party_id == party.id)
    return {
        person_of(db.session.get_one(TablePlayer, pid)).id: token
        for pid, token in db.session.execute(query).tuples()
    }


def seat_tonight(evening: Evening, person: TablePlayer) -> SeatTonight | None:
    """The person's seat in the round being played (or last played), with its seat link."""
    found = evening.seat_of(str(person.id))
    if found is None:
        return None
    table, seat = found
    token = seat_links.links_of(table.game.facts.id)[seat]
    return SeatTonight(table.number, table.game.facts.id, seat, token)


def table_of(party: CardParty) -> CardTable:
    """The table whose evening it is."""
    return db.session.get_one(CardTable, party.table_id)
