"""A backup's games replayed fact by fact through the checks live entry makes (RULES.md §10).

Each game is built again in memory as its facts (rules.game_facts.GameFacts, what the
rules engine derives a state from), never in the session: its rule set goes through the rule
set's validation and its table through a new game's check; then each round in turn, each buy
as the Buy button checks it, each run-out as "The stock ran out" does and each round's end as
the end-of-round form does (rules/round_end.checked_end), which must make exactly the facts
the file holds. The first fact they refuse refuses the file, naming the game, the round and
the reason. Nothing is written and no lock is held, so a long file keeps no phone waiting.

The file does not say when a buy came among a round's run-outs and down marks: its buys are
checked before them, so a table's buys are never refused for an order the file cannot show.

Its history is checked kind by kind: what the history page reads and what undo puts back are
of the shapes live entry writes, and name the game's own seats and rounds. Undo itself checks
what it puts back against the rules (games/writes.finish), as for any game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import Field, TypeAdapter, ValidationError

from ...games.actions import buy_refused, check_deal
from ...games.history import round_label
from ...games.state import game_state
from ...rules.errors import RuleError
from ...rules.game_facts import BuyFacts, GameFacts, ResultFacts, RoundFacts, SeatFacts
from ...rules.game_state import GameState
from ...rules.messages import N_, Message, msg
from ...rules.round_end import checked_end, setup_for
from ...rules.round_entry import from_stored
from ...rules.ruleset import RuleSet
from ...rules.ruleset_json import ruleset_from_dict
from ...rules.stock import stock_ran_out
from ...rules.tally import points_from_counts
from .format import Backup, BackupChange, BackupGame, BackupRefused, BackupResult, BackupRound, Part

Seat = Field(ge=0, le=7)


class RunOuts(Part):
    """A run-out's count before and after it."""

    run_outs: int = Field(ge=0, le=10)


class Down(Part):
    """Who was marked down, before and after a mark."""

    down: list[int] = Field(max_length=8)


class BuyMade(Part):
    """The row a buy added (older entries have none)."""

    buy_id: int = Field(ge=0, le=2**63 - 1)


class Players(Part):
    """The names a game started with."""

    players: list[str] = Field(min_length=2, max_length=8)


class Undone(Part):
    """The change an undo took back."""

    change_id: int = Field(ge=0, le=2**63 - 1)


class Replaced(Part):
    """Which link a replacement replaced."""

    role: Literal["edit", "view"]


class HandEntered(Part):
    """What a seat's phone entered: went out, or what the hand counted ("?" when unknown)."""

    went_out: bool
    points: int | None = Field(default=None, ge=0, le=100_000)


class Note(Part):
    """The scorekeeper's word to a seat whose hand was sent back."""

    note: str | None = Field(default=None, max_length=140)


class Name(Part):
    """A person's name as a game showed it, before and after a change at the table."""

    name: str = Field(max_length=80)


class RoundEnd(Part):
    """A round's end as history.snapshot writes it."""

    ended_by_stock: bool
    cut_bonus_seat: int | None = Field(default=None, ge=0, le=7)
    results: list[BackupResult] = Field(max_length=8)
    from_phones: list[int] | None = Field(default=None, max_length=8)  # entered on seats' phones


NONE = type(None)
# What each kind of change holds before and after: the shapes games/history.py writes.
SHAPES: dict[str, tuple[Any, Any]] = {
    "create": (NONE, Players),
    "buy": (NONE, BuyMade | None),
    "buy_removed": (NONE, NONE),
    "down": (Down, Down),
    "down_removed": (Down, Down),
    "run_out": (RunOuts, RunOuts),
    "result": (RoundEnd | None, RoundEnd),
    "undo": (Undone, NONE),
    "rotate_link": (NONE, Replaced),
    "call": (NONE, NONE),
    "calls_dismissed": (NONE, NONE),
    "hand_entered": (NONE, HandEntered),
    "hand_sent_back": (NONE, Note),
    "rename": (Name, Name),
    "merge": (Name, Name),
    "unmerge": (Name, Name),
    "rematch": (NONE, NONE),
}
ADAPTERS = {kind: (TypeAdapter(b), TypeAdapter(a)) for kind, (b, a) in SHAPES.items()}
OF_A_ROUND = {"buy", "buy_removed", "down", "down_removed", "run_out", "result"}
OF_A_SEAT = {"buy", "buy_removed", "down", "down_removed"}
OF_THE_GAME = {"create", "rotate_link", "rematch"}


def check_history(facts: BackupGame, state: GameState) -> tuple[str, Message] | None:
    """The first entry of the history the app could not read or undo: its place and reason."""
    last = 0
    for index, change in enumerate(facts.changes):
        if not last < change.version <= facts.version:
            reason = msg(N_("The history's versions must grow, up to the game's own."))
            return f"changes.{index}.version", reason
        last = change.version
        problem = _problem(change, state)
        if problem is not None:
            return f"changes.{index}", problem
    return None


def _problem(change: BackupChange, state: GameState) -> Message | None:
    """Why one entry cannot be read or undone, or None."""
    unreadable = msg(N_("This entry of the history cannot be read."))
    before, after = ADAPTERS[change.kind]
    try:
        parts = (before.validate_python(change.before), after.validate_python(change.after))
    except ValidationError:
        return unreadable
    number, seat = change.round_number, change.seat
    if change.kind in OF_THE_GAME and (number is not None or seat is not None):
        return unreadable
    seats = _seats_of(state, number) if change.kind in OF_A_ROUND else range(state.players)
    if seats is None or (seat is not None and seat not in seats):
        return msg(N_("This entry of the history names a round or seat the game does not have."))
    if change.kind in OF_A_ROUND and (change.kind in OF_A_SEAT) != (seat is not None):
        return unreadable
    for part in parts:
        problem = _part_problem(part, state, number, seats)
        if problem is not None:
            return problem
    return None


def _part_problem(
    part: object, state: GameState, number: int | None, seats: tuple[int, ...] | range
) -> Message | None:
    """Why what an entry holds before or after cannot be put back in its round, or None."""
    if isinstance(part, Down) and (
        len(set(part.down)) != len(part.down) or not set(part.down) <= set(seats)
    ):
        return msg(N_("This entry of the history names a round or seat the game does not have."))
    if isinstance(part, RoundEnd) and number is not None:
        return _round_end_problem(part, state, number, seats)
    return None


def _round_end_problem(
    end: RoundEnd, state: GameState, number: int, seats: tuple[int, ...] | range
) -> Message | None:
    """A round's end undo would put back: one hand per player of the round, counted cards."""
    hands = sorted(result.seat for result in end.results)
    out = [result for result in end.results if result.went_out]
    phones = set(end.from_phones or ())
    if hands != sorted(seats) or len(out) > 1 or end.ended_by_stock != (not out):
        return msg(N_("This entry of the history holds a round's end no table can have."))
    if not phones <= set(hands):
        return msg(N_("This entry of the history holds a round's end no table can have."))
    try:
        setup = setup_for(state, number)
        for result in end.results:
            points_from_counts(result.cards or {}, state.rules, setup.decks, setup.jokers)
    except RuleError as error:
        return error.message
    return None


def _seats_of(state: GameState, number: int | None) -> tuple[int, ...] | None:
    """Who plays a round the game holds (regular or tiebreaker), else None."""
    record = None if number is None else state.rounds.get(number)
    if record is None:
        return None
    return tuple(record.tiebreak_seats or range(state.players))


THIS_ROUND = N_("Game %(game)s of the file (%(date)s, %(players)s), %(round)s: %(reason)s")
THIS_GAME = N_("Game %(game)s of the file (%(date)s, %(players)s): %(reason)s")


@dataclass(frozen=True)
class Replayed:
    """Which game of the file is replayed, to name it in a refusal."""

    number: int  # 1-based, in the file's order
    facts: BackupGame
    names: tuple[str, ...]

    def refused(
        self, reason: Message, round_number: int | None = None, regular: int = 0
    ) -> BackupRefused:
        """The file refused for this game (and round), with the reason."""
        named = {"game": self.number, "date": self.facts.created_at.date().isoformat()}
        named["players"] = self.names
        if round_number is None:
            return BackupRefused(msg(THIS_GAME, **named, reason=reason))
        label = round_label(round_number, regular)
        return BackupRefused(msg(THIS_ROUND, **named, round=label, reason=reason))


def replay_games(backup: Backup) -> None:
    """Replay every game of a read backup (backup.format), or refuse the file with the reason."""
    names = {player.uid: player.name for player in backup.players}
    parsed: dict[str, RuleSet] = {}  # a table plays few rule sets: each is read once
    for number, facts in enumerate(backup.games, start=1):
        replay(Replayed(number, facts, tuple(names[uid] for uid in facts.seats)), parsed)


def replay(game: Replayed, parsed: dict[str, RuleSet]) -> None:
    """One game's facts in order, through the checks live entry makes."""
    facts = game.facts
    rules = _rules(game, parsed)
    seats = tuple(SeatFacts(at, name, at) for at, name in enumerate(game.names))
    built = GameFacts(
        id=0,
        version=facts.version,
        table_id=None,
        first_dealer=facts.first_dealer,
        dealer_was_cut=facts.dealer_was_cut,
        decks=facts.decks,
        edit_token=facts.edit_token,
        view_token=facts.view_token,
        created_at=facts.created_at,
        updated_at=facts.updated_at,
        rules_text=json.dumps(facts.rules),
        seats=seats,
    )
    with _refusing(game):
        check_deal(rules, len(game.names), facts.first_dealer, facts.decks)
        state = game_state(built, rules)
    for index, played in enumerate(facts.rounds):
        with _refusing(game, played.number, len(rules.rounds)):
            last = index == len(facts.rounds) - 1
            state = _replay_round(state, played, last)
    problem = check_history(facts, state)
    if problem is not None:
        entry, reason = problem
        raise game.refused(
            msg(N_("History entry %(entry)s: %(reason)s"), entry=entry, reason=reason)
        )


@contextmanager
def _refusing(game: Replayed, round_number: int | None = None, regular: int = 0) -> Iterator[None]:
    """Turn a rule's refusal into the file's, naming the game and round."""
    try:
        yield
    except RuleError as error:
        raise game.refused(error.message, round_number, regular) from None


def _rules(game: Replayed, parsed: dict[str, RuleSet]) -> RuleSet:
    """The game's frozen rule set, through the rule set's validation (as it was stored)."""
    key = json.dumps(game.facts.rules, sort_keys=True)
    if key not in parsed:
        try:
            parsed[key] = ruleset_from_dict(game.facts.rules, stored=True)
        except RuleError as error:
            reason = msg(
                N_("Its rules are refused at %(field)s: %(reason)s"),
                field=error.field or "rules",
                reason=error.message,
            )
            raise game.refused(reason) from None
    return parsed[key]


def _replay_round(state: GameState, played: BackupRound, last: bool) -> GameState:
    """One round: its start, buys, run-outs, down marks and end; the state it leaves."""
    current = state.current
    if current is None:
        raise RuleError(msg(N_("This game is over.")))
    if played.number != current.number:
        raise RuleError(msg(N_("This round does not follow the rounds before it.")))
    tied = list(current.seats) if current.is_tiebreaker else None
    if played.tiebreak_seats != tied:
        raise RuleError(msg(N_("This round's players are not the ones the tie asks for.")))
    if played.dealer not in current.seats:
        raise RuleError(msg(N_("The dealer of this round does not play in it.")))
    record = RoundFacts(0, played.number, played.dealer, None if tied is None else tuple(tied))
    for buy in played.buys:
        record = _replay_buy(_with(state, record), record, buy.seat)
    for previous in range(played.run_outs):
        stock_ran_out(state.rules, previous)  # a run-out after the stock ended the round: refused
    _replay_down(current.seats, played.down_seats or [])
    down = None if played.down_seats is None else tuple(played.down_seats)
    record = replace(record, run_outs=played.run_outs, down_seats=down)
    if played.results:
        record = _replay_end(_with(state, record), record, played)
    elif not last:
        raise RuleError(msg(N_("This round has no end, yet rounds follow it.")))
    return _with(state, record)


def _with(state: GameState, record: RoundFacts) -> GameState:
    """The state the game is in with `record` as its round of that number."""
    facts = replace(state.facts, rounds=state.facts.with_round(record))
    return game_state(facts, state.rules)


def _replay_buy(state: GameState, record: RoundFacts, seat: int) -> RoundFacts:
    """A buy, as the Buy button checks it (games/actions.buy_refused)."""
    assert state.current is not None  # the round being replayed has no end yet
    if seat not in state.current.seats:
        raise RuleError(msg(N_("That player is not in this round.")))
    refusal = buy_refused(state, state.current, seat)
    if refusal is not None:
        raise RuleError(refusal)
    return replace(record, buys=(*record.buys, BuyFacts(len(record.buys), seat)))


def _replay_down(seats: tuple[int, ...], down: list[int]) -> None:
    """Down marks name players of the round, once each, as the Down button sets them."""
    if any(seat not in seats for seat in down):
        raise RuleError(msg(N_("That player is not in this round.")))
    if len(set(down)) != len(down):
        raise RuleError(msg(N_("A player is marked down twice.")))


def _replay_end(state: GameState, record: RoundFacts, played: BackupRound) -> RoundFacts:
    """The round's end, as the end-of-round form checks it; its facts must be the file's."""
    stored = played.model_dump(include={"ended_by_stock", "cut_bonus_seat", "results"})
    end = checked_end(state, played.number, from_stored(stored))
    if _in_seat_order(stored) != _in_seat_order(end.facts):
        message = N_(
            "Its end is not what its hands make: who went out, the stock and the hands disagree."
        )
        raise RuleError(msg(message))
    return replace(
        record,
        results=tuple(ResultFacts(**result) for result in end.facts["results"]),
        ended_by_stock=end.facts["ended_by_stock"],
        cut_bonus_seat=end.facts["cut_bonus_seat"],
    )


def _in_seat_order(facts: dict[str, object]) -> dict[str, object]:
    """A round's end with its hands sorted by seat, to compare two of them."""
    results = sorted(facts["results"], key=lambda result: result["seat"])  # type: ignore[arg-type]
    return {**facts, "results": results}
