"""Just enough JSON Schema (the subset openapi.py uses) to check answers against the document."""

from __future__ import annotations

import re
from typing import Any

TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
    "integer": int,
}


def problems(
    value: Any, schema: dict[str, Any], components: dict[str, Any], at: str = "$"
) -> list[str]:
    """Where `value` breaks `schema`; an empty list means it fits."""
    if "$ref" in schema:
        return problems(value, components[schema["$ref"].rsplit("/", 1)[1]], components, at)
    found: list[str] = []
    if "anyOf" in schema and all(problems(value, s, components, at) for s in schema["anyOf"]):
        found.append(f"{at}: fits none of anyOf")
    if "oneOf" in schema:
        fits = sum(not problems(value, s, components, at) for s in schema["oneOf"])
        if fits != 1:
            found.append(f"{at}: fits {fits} of oneOf")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{at}: {value!r} not in {schema['enum']}")
    if "type" in schema:
        kind = TYPES[schema["type"]]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return [*found, f"{at}: {value!r} is not {schema['type']}"]
    number = isinstance(value, int) and not isinstance(value, bool)
    if number and not schema.get("minimum", value) <= value <= schema.get("maximum", value):
        found.append(f"{at}: {value} out of range")
    if isinstance(value, str) and not schema.get("minLength", 0) <= len(value) <= schema.get(
        "maxLength", len(value)
    ):
        found.append(f"{at}: {value!r} has the wrong length")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            found.append(f"{at}: too few items")
        for index, item in enumerate(value):
            found += problems(item, schema.get("items", {}), components, f"{at}[{index}]")
    if isinstance(value, dict):
        found += _object_problems(value, schema, components, at)
    return found


def _object_problems(
    value: dict[str, Any], schema: dict[str, Any], components: dict[str, Any], at: str
) -> list[str]:
    """Required, declared and extra properties of an object."""
    found = [f"{at}: {name} missing" for name in schema.get("required", ()) if name not in value]
    declared = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    pattern = schema.get("propertyNames", {}).get("pattern")
    for name, item in value.items():
        if pattern and not re.search(pattern, name):
            found.append(f"{at}: property name {name!r}")
        if name in declared:
            found += problems(item, declared[name], components, f"{at}.{name}")
        elif extra is False:
            found.append(f"{at}: {name} is not documented")
        elif isinstance(extra, dict):
            found += problems(item, extra, components, f"{at}.{name}")
    return found
