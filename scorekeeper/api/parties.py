"""A table's card parties through the API: list its evenings, read one (settings, tables,
seating, standings).

They open with the table's edit or view link as a bearer token, as the table does; an evening
answers the same to both and names no link, so a relative's view link sees the standings and
never a way in. The organiser (the edit link) draws the seating again, swaps two people,
starts a round with the seating shown and ends the evening, each on the version it read (an
older one is 409, as on the pages); and starts one with the people here.
"""

from __future__ import annotations

from datetime import date
from typing import Literal, TypeVar

from flask import Blueprint, Response, url_for
from pydantic import Field

from ..models import LARGEST_INTEGER, CardParty, CardTable
from ..rules.messages import N_, msg
from ..rules.party_rotation import Rotation
from ..tables import party as parties
from ..tables.party_evening import Evening, find_party, read_evening
from ..tables.party_record import evening_lines
from .base import (
    TABLE,
    Answer,
    Count,
    Problem,
    Timestamp,
    With,
    answer,
    answer_list,
    documented,
    open_table,
)
from .fields import Body, RuleSetToken, whole
from .reading import PlayerName, read
from .rulesets import chosen

bp = Blueprint("parties", __name__)
PARTY = f"{TABLE}/parties/<int:party_id>"
NO_PARTY = N_("This table has no card party %(id)s.")


class PartySummary(Answer):
    """An evening as the table's record lists it."""

    id: Count = Field(validation_alias="party_id")
    started_on: date
    tables: Count = Field(description="The most tables any round of the evening had.")
    players: Count
    winners: list[str] = Field(description="First in its standings; none before a game ended.")
    ended: bool


class PartyTable(Answer):
    """One table of the evening's current round: its game and who sits there, by seat."""

    number: Count
    game_id: Count
    players: list[str]
    finished: bool


class PartyStanding(Answer):
    """One person's line in the evening's combined standings (docs/RULES.md, the card party)."""

    name: str
    points: float = Field(description="Placement points: 10 for first at a table, 0 for last.")
    won: Count
    margin: Count = Field(description="The sum of their totals minus each table's winner's.")
    played: Count
    place: Count


class PartyPerson(Answer):
    """Someone at the evening: the id a swap or a seating names them by, and their name."""

    id: Count
    name: str


class Party(Answer):
    """An evening: what the organiser chose, its current round's tables, what waits, the next
    seating proposed and the standings."""

    id: Count
    state: Literal["drawing", "playing", "ended"]
    ended: bool
    version: Count = Field(description="Moves with each of the evening's own changes.")
    ruleset: str
    ruleset_name: str
    rotation: Literal["progressive", "by_standings", "mix"]
    rotate_every: Count
    tables: Count | None = Field(description="The tables chosen; null: as even as possible.")
    started_at: Timestamp
    round: Count = Field(description="The round of the evening being (or last) played; 0 first.")
    current: list[PartyTable]
    waiting_for: list[Count] = Field(description="The tables of this round still playing.")
    people: list[PartyPerson]
    proposal: list[list[Count]] | None = Field(
        description="The next seating by table, people's ids; null while a round is played."
    )
    standings: list[PartyStanding]


@bp.get(f"{TABLE}/parties")
@documented({200: list[PartySummary]})
def parties_index(table_id: int) -> tuple[Response, int]:
    """List the table's card parties, newest first, each with its winners."""
    table, _access = open_table(table_id, change=False)
    return answer_list([PartySummary.model_validate(line) for line in evening_lines(table)])


@bp.get(PARTY)
@documented({200: Party})
def parties_show(table_id: int, party_id: int) -> tuple[Response, int]:
    """Show one card party: its settings, current tables, next seating and standings."""
    table, _access = open_table(table_id, change=False)
    return answer(Party.model_validate(party_of(_evening(table, party_id))))


class PartyVersion(Body):
    """The evening's version as this client read it: an older one is refused with 409."""

    version: whole(LARGEST_INTEGER)  # type: ignore[valid-type]


Changed = TypeVar("Changed", bound=Body)


class PartySwap(PartyVersion):
    """Swap two people of the proposed seating, by their ids."""

    first: whole(LARGEST_INTEGER)  # type: ignore[valid-type]
    second: whole(LARGEST_INTEGER)  # type: ignore[valid-type]


class PartyConfirm(PartyVersion):
    """Start the round with the seating as it was shown (`proposal`)."""

    seating: list[list[whole(LARGEST_INTEGER)]] = Field(max_length=8)  # type: ignore[valid-type]


class NewParty(Body):
    """Start an evening at the table: who is here (ids), new names joining the table, the rule
    set, how many tables (null: as even as possible) and how people move."""

    ruleset: str = Field(
        max_length=80, description='A preset\'s key ("may-i") or a saved set\'s ("house-7").'
    )
    ruleset_token: RuleSetToken = None
    people: list[whole(LARGEST_INTEGER)] = Field(default=[], max_length=parties.MOST_PEOPLE)  # type: ignore[valid-type]
    players: list[PlayerName] = Field(default=[], max_length=parties.MOST_PEOPLE)
    tables: whole(8) | None = None  # type: ignore[valid-type]
    rotation: Literal["progressive", "by_standings", "mix"] = "mix"
    rotate_every: whole(parties.MOST_ROUNDS_PER_SEATING) = 1  # type: ignore[valid-type]


@bp.post(f"{TABLE}/parties")
@documented({201: Party}, NewParty, errors=(422,))
def parties_create(table_id: int) -> tuple[Response, int, dict[str, str]]:
    """Start a card party with the people here and draw its first seating."""
    table, body = _for_change(table_id, NewParty)
    rules = chosen(body.ruleset, body.ruleset_token)
    started = parties.start(
        table,
        rules,
        body.people,
        body.players,
        body.tables or None,
        Rotation(body.rotation),
        body.rotate_every,
    )
    response, status = answer(Party.model_validate(party_of(read_evening(table, started))), 201)
    where = url_for(".parties_show", table_id=table.id, party_id=started.id)
    return response, status, {"Location": where}


@bp.post(f"{PARTY}/redraw")
@documented({200: Party}, PartyVersion, errors=(409, 422))
def parties_redraw(table_id: int, party_id: int) -> tuple[Response, int]:
    """Draw the proposed seating again (before a round starts)."""
    table, body = _for_change(table_id, PartyVersion)
    return _answered(parties.redraw(table, _party(table, party_id), body.version))


@bp.post(f"{PARTY}/swap")
@documented({200: Party}, PartySwap, errors=(409, 422))
def parties_swap(table_id: int, party_id: int) -> tuple[Response, int]:
    """Swap two people of the proposed seating."""
    table, body = _for_change(table_id, PartySwap)
    found = _party(table, party_id)
    changed = parties.swap(table, found, body.version, str(body.first), str(body.second))
    return _answered(changed)


@bp.post(f"{PARTY}/confirm")
@documented({200: Party}, PartyConfirm, errors=(409, 422))
def parties_confirm(table_id: int, party_id: int) -> tuple[Response, int]:
    """Start the evening's next round with the seating shown: each table's game starts."""
    table, body = _for_change(table_id, PartyConfirm)
    found = _party(table, party_id)
    shown = tuple(tuple(str(person) for person in seated) for seated in body.seating)
    return _answered(parties.confirm(table, found, body.version, shown))


@bp.post(f"{PARTY}/end")
@documented({200: Party}, PartyVersion, errors=(409, 422))
def parties_end(table_id: int, party_id: int) -> tuple[Response, int]:
    """End the evening now."""
    table, body = _for_change(table_id, PartyVersion)
    return _answered(parties.end(table, _party(table, party_id), body.version))


def _for_change(table_id: int, model: type[Changed]) -> tuple[CardTable, Changed]:
    """The table (its edit link only) and the body read, refused at its fields, before the
    evening is looked up (as a table's other changes read theirs)."""
    table, _access = open_table(table_id, change=True)
    return table, read(model)


def _answered(evening: Evening) -> tuple[Response, int]:
    """The evening after a change, as GET answers it."""
    return answer(Party.model_validate(party_of(evening)))


def _party(table: CardTable, party_id: int) -> CardParty:
    """The table's evening of this id; another table's or none is 404."""
    try:
        return find_party(table, party_id)
    except LookupError:
        raise Problem(404, msg(NO_PARTY, id=party_id)) from None


def _evening(table: CardTable, party_id: int) -> Evening:
    """The table's evening of this id, read once."""
    return read_evening(table, _party(table, party_id))


def party_of(evening: Evening) -> With:
    """An evening as its answer reads it: people by name, the engine's standings."""
    names = evening.names
    party = evening.party
    return With(
        party,
        ruleset=evening.rules.key,
        ruleset_name=evening.rules.name,
        ended=evening.ended,
        round=evening.round_number,
        current=[
            With(
                table,
                game_id=table.game.facts.id,
                players=list(table.game.names),
                finished=table.finished,
            )
            for table in evening.current
        ],
        waiting_for=list(evening.waiting_for),
        people=[PartyPerson(id=int(key), name=name) for key, name in names.items()],
        proposal=None
        if evening.proposal is None
        else [[int(key) for key in seated] for seated in evening.proposal],
        standings=[With(row, name=names[row.person]) for row in evening.standings],
    )
