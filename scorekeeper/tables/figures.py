"""The record as both front doors show it: the filters read, each person's figures, head-to-head.

The table's page, a person's page and the API's record routes read the same filters and ask
for the same figures here, so a figure is worked out one way whichever door shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from ..collation import collation_key
from ..extensions import db
from ..models import CardTable, Game, TablePlayer
from ..rules.messages import N_, Message, msg
from ..rules.presets import PRESETS
from ..rules.stats import HeadToHead, PlayedGame, PlayerRecord, head_to_head, only, player_record
from . import people
from .record import played_games

FILTERS = ("ruleset", "since", "until")
HOUSE = "house:"  # a house set the table played, by the name its games keep: "house:At Oma's"


@dataclass(frozen=True)
class Filters:
    """The rule set and period the record is narrowed to, and what was wrong with them."""

    ruleset: str  # a preset's key, HOUSE and a house set's name, or "" for every rule set
    since: date | None
    until: date | None
    errors: dict[str, list[Message]]
    house_sets: tuple[str, ...] = ()  # the names of the house sets the table has played

    @property
    def house_choices(self) -> list[tuple[str, str]]:
        """Each house set the table has played as the filter offers it: its value and name."""
        return [(HOUSE + name, name) for name in self.house_sets]

    def apply(self, played: list[PlayedGame]) -> tuple[PlayedGame, ...]:
        """The games these filters keep."""
        if self.ruleset.startswith(HOUSE):
            name = self.ruleset.removeprefix(HOUSE)
            # By name, never a preset's game: a house set may be called "May I?" too.
            played = [g for g in played if g.ruleset not in PRESETS and g.ruleset_name == name]
            return only(played, None, self.since, self.until)
        return only(played, self.ruleset or None, self.since, self.until)


@dataclass(frozen=True)
class PersonFigures:
    """A person's figures, and head-to-head with each other person they played against."""

    record: PlayerRecord
    versus: list[tuple[TablePlayer, HeadToHead]]
    others: list[TablePlayer]  # everyone else of the table, played against or not


def read_filters(args: Mapping[str, str], table: CardTable) -> Filters:
    """The filters from a query string: a preset or a house set the table has played, and a
    period; a bad one is reported at its field and ignored."""
    errors: dict[str, list[Message]] = {}
    house = house_sets(table)
    ruleset = args.get("ruleset", "")
    played_house_set = ruleset.startswith(HOUSE) and ruleset.removeprefix(HOUSE) in house
    if ruleset and ruleset not in PRESETS and not played_house_set:
        errors["ruleset"] = [msg(N_("Choose one of the rule sets."))]
        ruleset = ""
    since, until = _date(args, "since", errors), _date(args, "until", errors)
    return Filters(ruleset, since, until, errors, house)


def house_sets(table: CardTable) -> tuple[str, ...]:
    """The names of the house sets the table's games were started with, in the table's order:
    each game keeps its own copy of its set, name and all, so games from before a rename go by
    the old name."""
    key, name = Game.rules_json["key"].as_string(), Game.rules_json["name"].as_string()
    query = select(name).where(Game.table_id == table.id, key.not_in(list(PRESETS))).distinct()
    return tuple(sorted(db.session.scalars(query), key=collation_key))


def _date(args: Mapping[str, str], name: str, errors: dict[str, list[Message]]) -> date | None:
    """A date field as YYYY-MM-DD, or None when empty or wrong."""
    text = args.get(name, "")
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        errors[name] = [msg(N_("Enter a date like 2026-12-31."))]
        return None


def table_record(table: CardTable, filters: Filters) -> list[tuple[TablePlayer, PlayerRecord]]:
    """Each person's figures under the filters: most wins first, then the lower average, then
    by name in the table's language."""
    kept = filters.apply(played_games(table.id))
    records = [(person, player_record(kept, person.id)) for person in people.people(table)]
    records.sort(key=lambda pair: (-pair[1].won, pair[1].average or 0, collation_key(pair[0].name)))
    return records


def person_figures(table: CardTable, person: TablePlayer, filters: Filters) -> PersonFigures:
    """One person's figures under the filters, and head-to-head with those they played."""
    kept = filters.apply(played_games(table.id))
    others = [p for p in people.people(table) if p.id != person.id]
    versus = [(other, head_to_head(kept, person.id, other.id)) for other in others]
    return PersonFigures(
        player_record(kept, person.id), [(o, h) for o, h in versus if h.games], others
    )
