"""A game's rounds through the API: buys, contracts down, the arbiter, run-outs, a round's end.

What the API reads about hands beyond their shape is checked against the cards in play.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from flask import Blueprint, Response
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

from ..games import actions, round_end
from ..games.may_i import rule_on_call
from ..games.opening import open_for_change, open_for_read
from ..rules.arbiter import BuyRuling
from ..rules.deal import Deal
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.hand_warnings import HandWarning
from ..rules.messages import N_, Message, msg
from ..rules.round_end import setup_for
from ..rules.round_entry import Hand as HandEnd
from ..rules.round_entry import RoundEnd, cards_of
from .answers import Game, answer_game
from .base import GAME, Answer, Count, Problem, Said, With, answer, documented, game_access
from .fields import (
    ABSENT,
    MAX_NUMBER,
    SEAT_OUTSIDE,
    Body,
    Cards,
    Counts,
    Seat,
    Whole,
    problems_at,
    refusal,
)
from .reading import Action, SeatChange, read, read_json
from .rulesets import points_of

bp = Blueprint("rounds", __name__)


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


class GameWithWarnings(Game):
    """A game after a round's result, with any warnings about the hands entered."""

    warnings: list[Said]


class Refusal(Answer):
    seat: Count
    reason: Said


class Ruling(Answer):
    """Who gets the discard, whether it is a buy, why each other caller does not; what was kept."""

    winner: Count | None
    is_buy: bool
    refusals: list[Refusal]
    explanation: Said
    recorded: bool
    game: Game | None


def ruling_of(ruling: BuyRuling, game: Game | None) -> Ruling:
    """The arbiter's ruling in the request's language, and the game if a buy was added."""
    refusals = [Refusal(seat=seat, reason=reason) for seat, reason in ruling.refusals.items()]
    return Ruling.model_validate(
        With(ruling, refusals=refusals, recorded=game is not None, game=game)
    )


class RunOut(Answer):
    """Which run-out of the round this was, whether it ends the round, and what to do now."""

    number: Count
    ends_round: bool
    instruction: Said
    game: Game


def changed(state: GameState, before: GameState) -> int:
    """201 when the action changed something, 200 when a repeated action_id changed nothing."""
    return 201 if state.facts.version != before.facts.version else 200


def warnings_at_hands(warnings: tuple[HandWarning, ...]) -> dict[str, list[Message]]:
    """A round's unconfirmed warnings as a problem's errors, each under its hand."""
    errors: dict[str, list[Message]] = {}
    for warning in warnings:
        errors.setdefault(f"hands.{warning.seat}", []).append(warning.message)
    return errors


def round_end_of(result: RoundResult, state: GameState, number: int) -> RoundEnd:
    """A round's end as the body says it, tapped cards checked against the cards in play;
    else 422 with every hand's refusal."""
    setup = round_setup(state, number)
    out = result.went_out
    hands = {} if out is None else {out: HandEnd(went_out=True)}  # who went out holds no cards
    errors: dict[str, list[Message]] = {}
    for key, given in result.hands.items():
        if int(key) == out:
            continue
        if given.points is not None:
            hands[int(key)] = HandEnd(points=given.points)
            continue
        tapped = given.cards if given.cards is not None else given.counts or {}
        try:
            if setup is not None:  # a round not played yet is refused by the action
                points_of(tapped, state.rules, setup, f"hands.{key}")
            hands[int(key)] = HandEnd(cards=cards_of(tapped))
        except RuleError as error:
            errors[f"hands.{key}"] = [error.message]
    if errors:
        raise Problem(422, errors=errors)
    return RoundEnd(hands, out is None, result.cut_bonus_seat)


def round_setup(state: GameState, number: int) -> Deal | None:
    """The decks and jokers a round is played with; None for a round not yet played."""
    current = state.current
    if current is not None and current.number == number:
        return current.setup
    record = state.rounds.get(number)
    if record is None or not record.results:
        return None
    return setup_for(state, number)


@bp.post(f"{GAME}/buys")
@documented({201: Game, 200: Game}, SeatChange)
def buys_create(game_id: int) -> tuple[Response, int]:
    """Add a "May I?" buy (200 when the action_id was already used)."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    buy = read(SeatChange, players=state.players)
    after = actions.add_buy(state, buy.seat, buy.action_id, buy.version)
    return answer_game(after, changed(after, state))


@bp.post(f"{GAME}/buys/remove")
@documented({200: Game}, SeatChange)
def buys_remove(game_id: int) -> tuple[Response, int]:
    """Take back a player's last buy this round (a mis-tap)."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    mistap = read(SeatChange, players=state.players)
    return answer_game(actions.remove_buy(state, mistap.seat, mistap.action_id, mistap.version))


@bp.post(f"{GAME}/down")
@documented({201: Game, 200: Game}, DownMark)
def down_create(game_id: int) -> tuple[Response, int]:
    """Mark that a player's contract is down this round, or take the mark back."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    mark = read(DownMark, players=state.players)
    after = actions.mark_down(state, mark.seat, mark.down, mark.action_id)
    return answer_game(after, changed(after, state))


@bp.post(f"{GAME}/arbiter")
@documented({200: Ruling, 201: Ruling}, Call)
def arbiter_rule(game_id: int) -> tuple[Response, int]:
    """Say who gets a discard and why; with "add_buy", add the buy when it is one."""
    body = read_json()
    # Only the edit link may add the buy; "record" is the field's deprecated old name.
    adding = body.get("add_buy") is True or body.get("record") is True
    access = game_access(game_id, change=adding)
    state = open_for_change(game_id, access) if adding else open_for_read(game_id, access)
    call = read(Call, players=state.players)
    ruling = rule_on_call(
        state, call.discarder, call.callers, call.turn_player_draws, call.bought_above
    )
    winner = ruling.winner if call.adds_buy and ruling.is_buy else None
    if winner is None:
        return answer(ruling_of(ruling, None), 200)
    after = actions.add_buy(state, winner, call.action_id, call.version, call.bought_above)
    return answer(ruling_of(ruling, Game.of(after)), 201)


@bp.post(f"{GAME}/run-outs")
@documented({201: RunOut, 200: RunOut}, RunOutReport)
def run_outs_create(game_id: int) -> tuple[Response, int]:
    """Say that the stock ran out, and what the table does now."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    report = read(RunOutReport)  # its version is taken but `seen` settles two taps for one
    outcome, after = actions.add_run_out(state, report.seen, report.action_id)
    run_out = RunOut.model_validate(With(outcome, game=Game.of(after)))
    return answer(run_out, changed(after, state))


@bp.put(f"{GAME}/rounds/<int(max={MAX_NUMBER}):number>")
@documented({200: GameWithWarnings}, RoundResult)
def rounds_update(game_id: int, number: int) -> tuple[Response, int]:
    """Save or correct how a round ended: who went out (null: the stock) and every hand.

    Its warnings come in `warnings`; with `confirm_warnings` false a round that has any is
    not saved but answered with 422, each warning under its hand.
    """
    state = open_for_change(game_id, game_access(game_id, change=True))
    result = read(RoundResult, players=state.players)
    end = round_end_of(result, state, number)
    try:
        saved = round_end.save_result(
            state, number, end, result.action_id, result.version, result.confirm_warnings
        )
    except round_end.Unconfirmed as unconfirmed:
        raise Problem(422, errors=warnings_at_hands(unconfirmed.warnings)) from unconfirmed
    said = [warning.message for warning in saved.warnings]
    # A repeated action id changed nothing: the game as it stands is `state`, read with the lock.
    return answer(GameWithWarnings.of(saved.state or state, warnings=said))
