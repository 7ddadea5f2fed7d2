"""What each API request sends, declared once: the body is read and documented from these."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import (
    Field,
    StrictBool,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic import ValidatorFunctionWrapHandler as Handler
from pydantic import WrapValidator as Wrap

from ..rules.bounds import MAX_DECKS, MAX_PLAYERS, MIN_PLAYERS
from ..rules.messages import N_, Message, msg
from ..rules.player_names import name_key
from .fields import (
    SEAT_OUTSIDE,
    ActionId,
    Cards,
    Counts,
    Name,
    Seat,
    Version,
    Whole,
    first_error,
    refusal,
    whole,
)
from .request_base import ABSENT, Body, GameRuleSet, RuleSetToken, problems_at


def _named(value: Any, handler: Handler) -> list[str]:
    """Players' names in seat order; two at least (every rule set's fewest), eight at most."""
    try:
        names: list[str] = handler(value)
    except ValidationError as error:
        if first_error(error) == "too_short" and isinstance(value, list) and value:
            message = N_("At least %(count)s players sit at one table.")
            raise refusal(message, count=MIN_PLAYERS) from None
        if first_error(error) == "too_short":
            raise refusal(N_("Name the players.")) from None
        if first_error(error) == "too_long":
            message = N_("At most %(count)s players sit at one table.")
            raise refusal(message, count=MAX_PLAYERS) from None
        raise
    return names


PlayerName = Annotated[
    Name,
    Field(
        description=(
            "1 to 40 visible characters. Control, format (zero width, direction marks, BOM), "
            "private-use and unassigned characters are refused; names that differ only in "
            "case or compatibility form (Ömer, ÖMER, ＯＭＥＲ) are one player."
        )
    ),
]
Players = Annotated[
    list[PlayerName], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS), Wrap(_named)
]


class Action(Body):
    """A change to a game: a one-time token against double taps, and the version it was made on."""

    action_id: ActionId = None
    version: Version = None


class Seating(Body):
    """Who sits where in a new game: first_dealer null cuts for the deal at random."""

    players: Players
    first_dealer: Seat | None = None
    decks: whole(MAX_DECKS) | None = None  # type: ignore[valid-type]

    @model_validator(mode="after")
    def _table(self) -> Seating:
        """Each name differs from the others in any case; the first dealer sits at the table."""
        errors: dict[str, list[Message]] = {}
        seen: set[str] = set()
        for index, name in enumerate(self.players):
            if name_key(name) in seen:
                errors[f"players.{index}"] = [msg(N_("Each player needs a different name."))]
            seen.add(name_key(name))
        if self.first_dealer is not None and self.first_dealer >= len(self.players):
            errors["first_dealer"] = [msg(SEAT_OUTSIDE, value=self.first_dealer)]
        if errors:
            raise problems_at(type(self).__name__, errors)
        return self


class NewGame(Seating):
    """Start a game: first_dealer null cuts for the deal at random."""

    ruleset: GameRuleSet
    ruleset_token: RuleSetToken = None


class SeatChange(Action):
    """A buy, or taking one back, for one seat."""

    seat: Seat


class DownMark(SeatChange):
    """Mark that a player's contract is down this round (down: false takes the mark back)."""

    down: StrictBool = True


class Call(Action):
    """Callers for a discard; with add_buy, the buy is added when it is one."""

    discarder: Seat
    callers: list[Seat]
    turn_player_draws: StrictBool = False
    add_buy: StrictBool = Field(
        False, description="Add the buy when the ruling is one (the edit link only)."
    )
    # The field's old name, still read: "record" means a table's figures now (issue 19).
    record: StrictBool = Field(
        False,
        description="Deprecated alias of `add_buy`; either true adds the buy.",
        json_schema_extra={"deprecated": True},
    )
    bought_above: Seat | None = Field(
        None,
        description=(
            "For the next card down at the same discard: who bought the card above it. "
            "Only within that chain may nobody buy twice in a row; a new discard has none."
        ),
    )

    @property
    def adds_buy(self) -> bool:
        """Whether the buy is to be added: `add_buy`, or its deprecated alias `record`."""
        return self.add_buy or self.record


class RunOutReport(Action):
    """The stock ran out."""

    seen: Whole | None = Field(
        None,
        description=(
            "How often this client saw the stock run out this round: two clients reporting "
            "one run-out count it once (this, not `version`, settles that)."
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
    confirm_warnings: StrictBool = Field(
        True,
        description=(
            "true (the default): save the round and list its warnings (a 0 for a player who "
            "did not go out, an unusually high hand) in `warnings`. false: save it only when "
            "it has none; otherwise answer 422 with each warning under its hand "
            '(`errors["hands.<seat>"]`) and save nothing, as the end-of-round form does.'
        ),
    )

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
