"""What a table's page and a person's page show of the record: the service's figures, worded."""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from ..i18n import translate
from ..models import CardTable
from ..rules.presets import PRESETS
from ..tables.figures import Filters, read_filters, table_record
from ..tables.party_record import evening_lines
from ..tables.rating import table_ratings
from .table_door import TABLES


def filter_errors(filters: Filters) -> dict[str, list[str]]:
    """The filters' problems in the page's language, under each field of the filter form."""
    return {name: [translate(m) for m in said] for name, said in filters.errors.items()}


def record_context(table: CardTable, args: MultiDict[str, str]) -> dict[str, Any]:
    """The table page's record: each person's figures under the filters, and its evenings."""
    filters = read_filters(args, table)
    return {
        "table": table,
        "editable": TABLES.access().can_edit,
        "records": table_record(table, filters),
        "filters": filters,
        "filter_errors": filter_errors(filters),
        "presets": PRESETS.values(),
        "status": 422 if filters.errors else 200,
        "ratings": table_ratings(table),
        "evening_lines": evening_lines(table),
    }
