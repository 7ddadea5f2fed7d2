"""A game's state: its stored facts read through the rules engine. Nothing here is stored."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import lru_cache

from flask import abort
from sqlalchemy import inspect, select
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.util import identity_key

from ..extensions import db
from ..models import Game, Round
from ..recent import Recent, per_app
from ..rules.arbiter import buys_left
from ..rules.messages import Message
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict
from ..rules.scoring import HandResult, RoundOutcome, running_totals, score_round
from ..rules.standings import Standings, game_over, provisional_standings, standings
from ..rules.stock import round_ended_by_stock, standing_instruction
from ..rules.table import TableSetup, seats_around, table_setup, tiebreaker_setup
from ..rules.tiebreak import TiebreakerOutcome


@dataclass(frozen=True)
class CurrentRound:
    """The round being played now: its table set-up, buys and stock run-outs."""

    number: int
    seats: tuple[int, ...]  # who plays it: everyone, or the tied players in a tiebreaker
    setup: TableSetup
    dealer: int  # game seat
    first_player: int  # game seat
    cutter: int | None  # game seat
    buys: dict[int, int]
    game_buys: dict[int, int]  # in the whole game, this round and tiebreakers included
    buys_left: dict[int, int | None]  # what the next buy is allowed (rules.arbiter.buys_left)
    last_buyer: int | None
    run_outs: int
    ended_by_stock: bool  # the stock ran out for the last time: everybody counts
    instruction: Message | None  # what the table does after the last run-out, until the round ends
    down: tuple[int, ...] = ()  # whose contract is down, in the order they laid down

    @property
    def is_tiebreaker(self) -> bool:
        """Rounds past the last regular one are tiebreakers."""
        return self.setup.is_tiebreaker


@dataclass(frozen=True)
class GameState:
    """Everything a screen or the API shows about one game, derived from its facts."""

    game: Game
    rules: RuleSet
    names: tuple[str, ...]
    rounds: dict[int, Round]
    outcomes: tuple[RoundOutcome, ...]
    tiebreakers: tuple[TiebreakerOutcome, ...]
    standings: Standings
    finished: bool
    current: CurrentRound | None
    running: tuple[tuple[int, ...], ...] = field(default=())

    @property
    def players(self) -> int:
        """How many sit at the table."""
        return len(self.names)

    @property
    def winner_names(self) -> tuple[str, ...]:
        """The names of the winners of a finished game."""
        return tuple(self.names[seat] for seat in self.standings.winners)

    @property
    def leaders(self) -> tuple[int, ...]:
        """Who to highlight: the winners, else whoever has the lowest total so far."""
        if self.standings.winners or not self.outcomes:
            return self.standings.winners
        return tuple(row.seat for row in self.standings.rows if row.place == 1)

    def seats_of(self, number: int) -> tuple[int, ...] | None:
        """Who plays round `number`: all, or a tiebreaker's tied players; None if not reached."""
        if self.current is not None and number == self.current.number:
            return self.current.seats
        record = self.rounds.get(number)
        if record is None or not record.results:
            return None
        return tuple(record.tiebreak_seats or range(self.players))

    def tapped_cards(self, number: int) -> dict[int, dict[str, int]]:
        """The cards tapped in for each hand of a round, kept to settle a dispute."""
        record = self.rounds.get(number)
        return {r.seat: r.cards for r in record.results if r.cards} if record else {}

    def buys_in(self, number: int) -> Counter[int]:
        """Buys per seat in a round."""
        record = self.rounds.get(number)
        return Counter(buy.seat for buy in record.buys) if record else Counter()


WITH_FACTS = (
    selectinload(Game.seats),
    selectinload(Game.rounds).selectinload(Round.results),
    selectinload(Game.rounds).selectinload(Round.buys),
)


def _has_facts(game: Game) -> bool:
    """Whether this request already read the game's seats, rounds, results and buys."""
    if {"seats", "rounds"} & inspect(game).unloaded:
        return False
    return not any({"results", "buys"} & inspect(record).unloaded for record in game.rounds)


def game_with_facts(game_id: int) -> Game | None:
    """The game with its seats, rounds, results and buys: as this request holds it (just
    written, or read by the link check), else read in a fixed number of queries."""
    held = db.session.identity_map.get(identity_key(Game, game_id))
    if isinstance(held, Game) and _has_facts(held):
        return held
    query = select(Game).where(Game.id == game_id).options(*WITH_FACTS)
    return db.session.scalars(query).one_or_none()


def load_game(game_id: int) -> Game:
    """The game with all its facts (game_with_facts), or 404."""
    game = game_with_facts(game_id)
    if game is None:
        abort(404)
    return game


def recent_games(game_ids: Collection[int]) -> list[GameState]:
    """These games, most recently changed first, in a fixed number of queries."""
    query = (
        select(Game)
        .where(Game.id.in_(list(game_ids)))
        .order_by(Game.updated_at.desc())
        .options(*WITH_FACTS)
    )
    return [game_state(game) for game in db.session.scalars(query)]


STATES_KEPT = 256  # games shown recently, per process: a few KB each


class KeptStates:
    """Derived states of recently shown games by (game id, version), least recently used out.

    An entry can never be stale: every change to a game's facts (buys, hands, corrections,
    undo, run-outs, links) goes through history.record (history.write past the ORM), which
    bumps the game's version in the same transaction, and versions only grow, so no later read
    names an older entry's version.
    Games of a card table are not kept: renaming or merging a table's person changes their
    seats' names without a new version. Pages keep the states they show; a change to the round
    being played keeps the state it derived from new copies of the rows it wrote, after its
    commit (games/writes.py). The objects are shared between threads and read only: detached
    once their request ends, or never in a session at all.
    """

    def __init__(self) -> None:
        self._states: Recent[tuple[int, int], GameState] = Recent(STATES_KEPT)

    def get(self, game_id: int, version: int) -> GameState | None:
        """The state kept for this version of the game, if any."""
        return self._states.get((game_id, version))

    def keep(self, state: GameState) -> None:
        """Keep a state a page derived, under the version its facts were read at."""
        if state.game.table_id is None:
            self._states.put((state.game.id, state.game.version), state)


def kept_states() -> KeptStates:
    """This app's kept states."""
    return per_app("scorekeeper.kept_states", KeptStates)


@lru_cache(maxsize=1024)
def _parsed_rules(_game_id: int, text: str) -> RuleSet:
    """A game's rule set, parsed once per game and process (the rules never change in play)."""
    return ruleset_from_dict(json.loads(text), stored=True)


def game_rules(game: Game) -> RuleSet:
    """The rule set a game is played under; keyed by its text, so a changed copy parses anew."""
    return _parsed_rules(game.id, json.dumps(game.rules_json, sort_keys=True))


def game_state(game: Game, rules: RuleSet | None = None) -> GameState:
    """Read a loaded game's facts through the rules engine (`rules`: its rule set, if read)."""
    rules = rules or game_rules(game)
    names = tuple(seat.name for seat in game.seats)
    rounds = {record.number: record for record in game.rounds}
    outcomes = _outcomes(rules, rounds, len(names))
    tiebreakers = _tiebreakers(rules, rounds)
    regular_done = game_over(rules, outcomes)
    table = (
        standings(rules, names, outcomes, tiebreakers)
        if regular_done
        else provisional_standings(names, outcomes)
    )
    finished = regular_done and not table.needs_tiebreaker
    current = None if finished else _current(game, rules, rounds, outcomes, tiebreakers, table)
    return GameState(
        game=game,
        rules=rules,
        names=names,
        rounds=rounds,
        outcomes=outcomes,
        tiebreakers=tiebreakers,
        standings=table,
        finished=finished,
        current=current,
        running=running_totals(outcomes, len(names)),
    )


def round_outcome(rules: RuleSet, record: Round, players: int) -> RoundOutcome:
    """Score a finished regular round from its stored hands."""
    by_seat = {result.seat: result for result in record.results}
    hands = [
        HandResult(
            points=by_seat[seat].points,
            went_out=by_seat[seat].went_out,
            cut_bonus=record.cut_bonus_seat == seat,
        )
        for seat in range(players)
    ]
    return score_round(rules, hands, ended_by_stock=record.ended_by_stock)


def _outcomes(rules: RuleSet, rounds: dict[int, Round], players: int) -> tuple[RoundOutcome, ...]:
    """Outcomes of the regular rounds finished so far, in order."""
    done = []
    for number in range(1, len(rules.rounds) + 1):
        record = rounds.get(number)
        if record is None or not record.results:
            break
        done.append(round_outcome(rules, record, players))
    return tuple(done)


def _tiebreakers(rules: RuleSet, rounds: dict[int, Round]) -> tuple[TiebreakerOutcome, ...]:
    """Outcomes of the tiebreaker rounds played so far."""
    played = []
    for number in sorted(n for n in rounds if n > len(rules.rounds)):
        record = rounds[number]
        if not record.results:
            break
        went_out = next((r.seat for r in record.results if r.went_out), None)
        hands = {r.seat: r.points for r in record.results} if went_out is None else {}
        played.append(TiebreakerOutcome(tuple(record.tiebreak_seats or ()), went_out, hands))
    return tuple(played)


def _current(
    game: Game,
    rules: RuleSet,
    rounds: dict[int, Round],
    outcomes: tuple[RoundOutcome, ...],
    tiebreakers: tuple[TiebreakerOutcome, ...],
    table: Standings,
) -> CurrentRound:
    """The round to play now: the next regular round, else the next tiebreaker."""
    players = len(game.seats)
    number = len(outcomes) + 1
    if number <= len(rules.rounds):
        seats = tuple(range(players))
        winners = [outcome.went_out for outcome in outcomes]
        setup = table_setup(rules, players, number, game.first_dealer, game.decks, winners)
        dealer, first, cutter = setup.dealer, setup.first_player, setup.cutter
    else:
        number = len(rules.rounds) + len(tiebreakers) + 1
        seats = table.needs_tiebreaker
        playoff = len(tiebreakers) + 1
        setup = tiebreaker_setup(rules, len(seats), 0, playoff=playoff, decks=game.decks)
        dealer, first = seats[setup.dealer], seats[setup.first_player]
        cutter = None if setup.cutter is None else seats[setup.cutter]
    record = rounds.get(number)
    if record is not None and record.dealer != dealer:
        # Who really dealt is a fact; an edit to an earlier round does not move the deal.
        dealer = record.dealer
        leader, right = seats_around(seats.index(dealer), len(seats), cuts=cutter is not None)
        first, cutter = seats[leader], None if right is None else seats[right]
    bought = Counter(buy.seat for buy in record.buys) if record else Counter()
    in_game = Counter(buy.seat for played in rounds.values() for buy in played.buys)
    run_outs = record.run_outs if record else 0
    down = tuple(record.down_seats or ()) if record else ()
    left = {
        seat: buys_left(
            rules,
            number,
            bought[seat],
            game_used=in_game[seat],
            contract_down=seat in down,
            run_outs=run_outs,
        )
        for seat in seats
    }
    return CurrentRound(
        number=number,
        seats=seats,
        setup=setup,
        dealer=dealer,
        first_player=first,
        cutter=cutter,
        buys={seat: bought[seat] for seat in seats},
        game_buys={seat: in_game[seat] for seat in seats},
        buys_left=left,
        last_buyer=record.buys[-1].seat if record and record.buys else None,
        run_outs=run_outs,
        ended_by_stock=round_ended_by_stock(rules, run_outs),
        instruction=standing_instruction(rules, run_outs),
        down=down,
    )
