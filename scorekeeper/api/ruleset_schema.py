"""The rule set's JSON Schema with the engine's bounds: the document says what the engine takes.

The rules engine checks a rule set (rules/bounds.py) and names each problem at its field; the
schema pydantic makes of its dataclasses knows only the types. Each bounded setting of a rule
set sent to the API gets its bound here, read from the same table.
"""

from __future__ import annotations

from typing import Any

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from ..rules.bounds import NUMBERS, Bound

Schema = dict[str, Any]


class BoundedSchema(GenerateJsonSchema):
    """Pydantic's JSON Schema, with a rule set's bounds on what a request sends."""

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> JsonSchemaValue:
        made = super().dataclass_schema(schema)
        if self.mode == "validation":
            for name, setting in made.get("properties", {}).items():
                bound = NUMBERS.get((schema["cls"], name))
                if bound is not None:
                    _bound(setting, bound)
        return made


def _bound(setting: Schema, bound: Bound) -> None:
    """Put a bound on a setting's value (a number), size (a list or text) or entries (a table)."""
    for kind in (setting, *setting.get("anyOf", ())):
        match kind.get("type"):
            case "integer":
                kind.update(minimum=bound.low, maximum=bound.high)
            case "array":
                kind.update(minItems=bound.low, maxItems=bound.high)
            case "string":
                kind.update(maxLength=bound.high)
            case "object" if isinstance(kind.get("additionalProperties"), dict):
                _bound(kind["additionalProperties"], bound)
