"""What a table's page and a person's page show of the record: filters read, stats asked for."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from ..collation import collation_key
from ..models import CardTable, TablePlayer
from ..rules.presets import PRESETS
from ..rules.stats import PlayedGame, PlayerRecord, only, player_record
from ..tables import people
from ..tables.record import played_games
from .table_links import table_access


@dataclass(frozen=True)
class Filters:
    """The rule set and period the record is narrowed to, and what was wrong with them."""

    ruleset: str
    since: date | None
    until: date | None
    errors: dict[str, list[str]]

    def apply(self, played: list[PlayedGame]) -> tuple[PlayedGame, ...]:
        """The games these filters keep."""
        return only(played, self.ruleset or None, self.since, self.until)


def read_filters(args: MultiDict[str, str]) -> Filters:
    """The filters from the query string; a bad one is reported at its field and ignored."""
    errors: dict[str, list[str]] = {}
    ruleset = args.get("ruleset", "")
    if ruleset and ruleset not in PRESETS:
        errors["ruleset"] = [gettext("Choose one of the rule sets.")]
        ruleset = ""
    since, until = _date(args, "since", errors), _date(args, "until", errors)
    return Filters(ruleset, since, until, errors)


def _date(args: MultiDict[str, str], name: str, errors: dict[str, list[str]]) -> date | None:
    """A date field as YYYY-MM-DD, or None when empty or wrong."""
    text = args.get(name, "")
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        errors[name] = [gettext("Enter a date like 2026-12-31.")]
        return None


def played(table: CardTable) -> list[PlayedGame]:
    """The table's finished games as facts for the stats, loaded in a fixed number of queries."""
    return played_games(table.id)


def record_context(table: CardTable, args: MultiDict[str, str]) -> dict[str, Any]:
    """The table page's record: each person's figures under the filters, and merge offers."""
    filters = read_filters(args)
    kept = filters.apply(played(table))
    present = people.people(table)
    records: list[tuple[TablePlayer, PlayerRecord]] = [
        (person, player_record(kept, person.id)) for person in present
    ]
    records.sort(key=lambda pair: (-pair[1].won, pair[1].average or 0, collation_key(pair[0].name)))
    return {
        "table": table,
        "editable": table_access().can_edit,
        "records": records,
        "filters": filters,
        "presets": PRESETS.values(),
        "status": 422 if filters.errors else 200,
    }
