"""What every request body shares: a closed object, one-of choices, a rule set by key or whole."""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import JsonDict
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..rules.bounds import MAX_ROUNDS, MIN_ROUNDS
from ..rules.errors import RuleSetInvalid
from ..rules.messages import N_, Message, msg
from ..rules.presets import PRESETS
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict
from .fields import (
    refusal,
    text,
)

PresetKey = Literal[tuple(PRESETS)]  # type: ignore[valid-type]


def _one_of_schema(schema: JsonDict, model: type[BaseModel]) -> None:
    """Say in the schema that exactly one of the model's `choices` is given."""
    choices: tuple[str, ...] = getattr(model, "choices", ())
    if choices:
        schema["oneOf"] = [{"required": [choice]} for choice in choices]


class Body(BaseModel):
    """A JSON object whose fields are all declared: any other is refused as unknown."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_one_of_schema)
    choices: ClassVar[tuple[str, ...]] = ()  # exactly one of these fields is given
    choices_at: ClassVar[str] = ""  # where a problem with the choice is told ("": the object)

    @model_validator(mode="after")
    def _exactly_one(self) -> Any:
        """Of the `choices`, exactly one must be given."""
        given = [name for name in self.choices if name in self.model_fields_set]
        if self.choices and len(given) != 1:
            listed = ", ".join(self.choices)
            message = msg(N_("Give exactly one of: %(choices)s."), choices=listed)
            raise problems_at(type(self).__name__, {self.choices_at: [message]})
        return self


def problems_at(title: str, errors: dict[str, list[Message]]) -> ValidationError:
    """Problems found beyond the shapes, each at its own field below the one being read."""
    details = [
        InitErrorDetails(
            type=PydanticCustomError("scorekeeper", "{message}", {"message": message}),
            loc=(field,) if field else (),
            input=None,
        )
        for field, messages in errors.items()
        for message in messages
    ]
    return ValidationError.from_exception_data(title, details)


def _ruleset(value: Any) -> RuleSet:
    """A preset by key, or a whole rule set checked field by field by the rules engine."""
    if isinstance(value, str) and value in PRESETS:
        return PRESETS[value]
    if isinstance(value, str):
        raise refusal(N_("There is no rule set %(key)s."), key=value)
    if not isinstance(value, dict):
        raise refusal(N_("Give a rule set's key or a whole rule set."))
    try:
        return ruleset_from_dict(value)
    except RuleSetInvalid as error:
        raise problems_at("RuleSet", error.errors) from None


RuleSetChoice = Annotated[
    RuleSet,
    Field(
        description=f"A preset's key, or a whole rule set (checked field by field; "
        f"{MIN_ROUNDS} to {MAX_ROUNDS} rounds)."
    ),
    PlainValidator(_ruleset, json_schema_input_type=PresetKey | RuleSet),
]
SAVED_KEY = "house-[0-9]{1,10}"  # a saved house rule set's key (house_rules.KEY_PREFIX)
HouseKey = Annotated[str, Field(pattern=f"^{SAVED_KEY}$")]


def _ruleset_or_saved(value: Any) -> RuleSet | str:
    """A saved set's key as sent (its token opens it later), else a preset or a whole set."""
    if isinstance(value, str) and re.fullmatch(SAVED_KEY, value):
        return value
    return _ruleset(value)


GameRuleSet = Annotated[
    RuleSet | str,
    Field(
        description=f"A preset's key, a saved house rule set's (\"house-7\", opened by "
        f"`ruleset_token`), or a whole rule set ({MIN_ROUNDS} to {MAX_ROUNDS} rounds)."
    ),
    PlainValidator(_ruleset_or_saved, json_schema_input_type=PresetKey | HouseKey | RuleSet),
]
RuleSetToken = Annotated[
    text(64) | None,  # type: ignore[valid-type]
    Field(description="For a saved house rule set: its token, answered when it was saved."),
]
MAY_I = Field("may-i", validate_default=True)
# A field that may be left out but not sent as null: None stands for "not given".
ABSENT: Any = Field(None, json_schema_extra=lambda schema: schema.pop("default"))
