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
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from ..games.actions import buy_refused, check_deal
from ..games.history import round_label
from ..games.state import game_state
from ..rules.errors import RuleError
from ..rules.game_facts import BuyFacts, GameFacts, ResultFacts, RoundFacts, SeatFacts
from ..rules.game_state import GameState
from ..rules.messages import N_, Message, msg
from ..rules.round_end import checked_end
from ..rules.round_entry import from_stored
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict
from ..rules.stock import stock_ran_out
from .backup_format import Backup, BackupGame, BackupRound
from .backup_history import check_history
from .backup_read import BackupRefused

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
    """Replay every game of a read backup (backup_read), or refuse the file with the reason."""
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
