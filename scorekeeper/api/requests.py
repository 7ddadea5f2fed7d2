"""What each API request sends, declared once: the body is read and documented from these."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    StrictBool,
    StringConstraints,
    Tag,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic import ValidatorFunctionWrapHandler as Handler
from pydantic import WrapValidator as Wrap
from pydantic.json_schema import JsonDict
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..rules.errors import RuleSetInvalid
from ..rules.messages import N_, Message, msg
from ..rules.presets import PRESETS
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict
from .fields import (
    SEAT_OUTSIDE,
    ActionId,
    Cards,
    Counts,
    MeldKind,
    Name,
    Seat,
    Version,
    Whole,
    first_error,
    refusal,
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
    Field(description="A preset's key, or a whole rule set (checked field by field)."),
    PlainValidator(_ruleset, json_schema_input_type=PresetKey | RuleSet),
]
MAY_I = Field("may-i", validate_default=True)
# A field that may be left out but not sent as null: None stands for "not given".
ABSENT: Any = Field(None, json_schema_extra=lambda schema: schema.pop("default"))


def _named(value: Any, handler: Handler) -> list[str]:
    """Players' names in seat order; at least one."""
    try:
        names: list[str] = handler(value)
    except ValidationError as error:
        if first_error(error) == "too_short":
            raise refusal(N_("Name the players.")) from None
        raise
    return names


Players = Annotated[list[Name], Field(min_length=1), Wrap(_named)]


class Action(Body):
    """A change to a game: a one-time token against double taps, and the version it was made on."""

    action_id: ActionId = None
    version: Version = None


class NewGame(Body):
    """Start a game: first_dealer null cuts for the deal at random."""

    ruleset: RuleSetChoice
    players: Players
    first_dealer: Seat | None = None
    decks: Whole | None = None

    @model_validator(mode="after")
    def _table(self) -> NewGame:
        """Each name differs from the others in any case; the first dealer sits at the table."""
        errors: dict[str, list[Message]] = {}
        seen: set[str] = set()
        for index, name in enumerate(self.players):
            if name.casefold() in seen:
                errors[f"players.{index}"] = [msg(N_("Each player needs a different name."))]
            seen.add(name.casefold())
        if self.first_dealer is not None and self.first_dealer >= len(self.players):
            errors["first_dealer"] = [msg(SEAT_OUTSIDE, value=self.first_dealer)]
        if errors:
            raise problems_at("NewGame", errors)
        return self


class SeatChange(Action):
    """A buy, or taking one back, for one seat."""

    seat: Seat


class Call(Action):
    """Callers for a discard; with record, the buy is recorded when it is one."""

    discarder: Seat
    callers: list[Seat]
    turn_player_draws: StrictBool = False
    record: StrictBool = False


class RunOutReport(Action):
    """The stock ran out."""

    seen: Whole | None = Field(
        None,
        description=(
            "How often this client saw the stock run out this round: two clients reporting "
            "one run-out record it once (this, not `version`, settles that)."
        ),
    )


class Hand(Body):
    """A hand: typed points, the cards, or the cards counted per rank."""

    choices: ClassVar[tuple[str, ...]] = ("points", "cards", "counts")
    points: Whole = ABSENT
    cards: Cards = ABSENT
    counts: Counts = ABSENT

    def given(self) -> Any:
        """The points, cards or counts, whichever was given."""
        return self.points if self.points is not None else self.cards or self.counts or []


def _hand_seat(key: Any, handler: Handler) -> str:
    """A hand's key is its seat, written as a number."""
    try:
        seat: str = handler(key)
    except ValidationError:
        raise refusal(SEAT_OUTSIDE, value=key) from None
    return seat


HandSeat = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,3}$"), Wrap(_hand_seat)]
EMPTY_HANDS = (0, [], {})


class RoundResult(Action):
    """How a round ended: who went out (null: the stock ended it) and each other hand."""

    went_out: Seat | None
    hands: dict[HandSeat, Hand]
    cut_bonus_seat: Seat | None = None

    @model_validator(mode="after")
    def _hands_at_table(self, info: ValidationInfo) -> RoundResult:
        """Each hand is a seat at the table; the player who went out holds no cards."""
        players = (info.context or {}).get("players", len(self.hands))
        errors: dict[str, list[Message]] = {}
        for key, hand in self.hands.items():
            if int(key) >= players:
                errors[f"hands.{key}"] = [msg(SEAT_OUTSIDE, value=key)]
            elif int(key) == self.went_out and hand.given() not in EMPTY_HANDS:
                errors[f"hands.{key}"] = [msg(N_("The player who went out holds no cards."))]
        if errors:
            raise problems_at("RoundResult", errors)
        return self


class LinkChange(Body):
    """Replace a link; the version is taken, but a new link conflicts with no other change."""

    version: Version = None


class TallyRequest(Body):
    """A hand to count, as cards or counted per rank, at a table of players and decks."""

    choices: ClassVar[tuple[str, ...]] = ("cards", "counts")
    choices_at: ClassVar[str] = "cards"  # at the top, "" would stand for the whole request
    ruleset: RuleSetChoice = MAY_I
    players: Whole = 4
    decks: Whole | None = None
    cards: Cards = ABSENT
    counts: Counts = ABSENT


class OneMeld(Body):
    """One book or run, at the lengths of a round's contract when a round is named."""

    ruleset: RuleSetChoice = MAY_I
    meld: Cards
    kind: MeldKind
    round: Whole | None = None


class Laydown(Body):
    """A laydown checked against a round's contract."""

    ruleset: RuleSetChoice = MAY_I
    melds: list[Cards]
    round: Whole


def _meld_or_laydown(value: Any) -> str:
    return "meld" if isinstance(value, dict) and "meld" in value else "melds"


MeldCheckRequest = Annotated[
    Annotated[OneMeld, Tag("meld")] | Annotated[Laydown, Tag("melds")],
    Discriminator(_meld_or_laydown),
]
