"""Rows a restore reads and writes a few at a time: found by a column's values, inserted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, insert

from ...extensions import db

Row = dict[str, Any]
CHUNK = 1000  # values per IN (…): well inside every database's limit on parameters


def insert_rows(model: Any, rows: list[Row]) -> None:
    """Insert a few rows of a model through its columns' own conversions."""
    if rows:
        db.session.connection().execute(insert(model), rows)


def found_in(query: Select[Any], column: Any, values: Sequence[Any]) -> dict[Any, Any]:
    """The query's rows whose `column` is one of the values, as a map of their first column to
    their second; a thousand values to each IN (…)."""
    found: dict[Any, Any] = {}
    for start in range(0, len(values), CHUNK):
        chunk = query.where(column.in_(values[start : start + CHUNK]))
        found |= dict(db.session.execute(chunk).tuples().all())
    return found
