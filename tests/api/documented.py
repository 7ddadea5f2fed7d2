"""Checking values against the API's own OpenAPI document with a standard JSON Schema validator."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator


def problems(value: Any, schema: dict[str, Any], document: dict[str, Any]) -> list[str]:
    """Where `value` breaks `schema` (a part of the document); an empty list means it fits."""
    # The part's references (#/components/schemas/...) point into the document: check the part
    # from a root that holds the document's components beside it.
    root = {"$ref": "#/$defs/checked", "$defs": {"checked": schema}, **document}
    validator = Draft202012Validator(root)
    return [
        f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(value)
    ]
