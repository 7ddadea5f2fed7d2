"""A game's state: its stored facts (game_facts.GameFacts) read through the rules engine."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from .arbiter import buys_left
from .deal import Deal, deal_for, seats_around, tiebreaker_deal
from .game_facts import GameFacts, RoundFacts
from .messages import Message
from .ruleset import RuleSet
from .scoring import HandResult, RoundOutcome, running_totals, score_round
from .standings import Standings, game_over, provisional_standings, standings
from .stock import round_ended_by_stock, standing_instruction
from .tiebreak import TiebreakerOutcome


@dataclass(frozen=True)
class CurrentRound:
    """The round being played now: its deal, buys and stock run-outs."""

    number: int
    seats: tuple[int, ...]  # who plays it: everyone, or the tied players in a tiebreaker
    setup: Deal
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

    facts: GameFacts
    rules: RuleSet
    names: tuple[str, ...]
    rounds: dict[int, RoundFacts]
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

    def cutter_of(self, number: int) -> int | None:
        """Who cut in round `number`: the player on the right of whoever dealt it (Liverpool);
        None in a game without a cut bonus, or for a round not reached."""
        if self.current is not None and self.current.number == number:
            return self.current.cutter
        record, seats = self.rounds.get(number), self.seats_of(number)
        if record is None or seats is None:
            return None
        return _cutter(self.rules, seats, record.dealer)

    def tapped_cards(self, number: int) -> dict[int, dict[str, int]]:
        """The cards tapped in for each hand of a round, kept to settle a dispute."""
        record = self.rounds.get(number)
        return {r.seat: r.cards for r in record.results if r.cards} if record else {}

    def buys_in(self, number: int) -> Counter[int]:
        """Buys per seat in a round."""
        record = self.rounds.get(number)
        return Counter(buy.seat for buy in record.buys) if record else Counter()


def game_state(facts: GameFacts, rules: RuleSet, before: GameState | None = None) -> GameState:
    """Read a game's facts through the rules engine, under the rule set it is played by.

    `before`: the state of the facts these were made from. When it played the same rounds to
    their end (a change of the round being played), its scores and standings stand and only
    the round being played is derived again: an API buy 1.30 M instructions a derive, 0.2 M
    so. Otherwise its rounds whose facts are the very same (frozen) values are not scored
    again: a round's end saved by the form 8.76 M -> 8.07 M instructions (-7.9 %). Both
    issue 37, `bench/cost_table.py`, callgrind, SQLite.
    """
    names = tuple(seat.name for seat in facts.seats)
    rounds = {record.number: record for record in facts.rounds}
    if before is not None and _same_ends(before, facts, rules):
        advanced = _current(facts, rules, rounds, (), (), before.standings, before.current)
        return replace(before, facts=facts, rounds=rounds, current=advanced)
    outcomes = _outcomes(rules, rounds, len(names), before)
    tiebreakers = _tiebreakers(rules, rounds)
    regular_done = game_over(rules, outcomes)
    placings = (
        standings(rules, names, outcomes, tiebreakers)
        if regular_done
        else provisional_standings(names, outcomes)
    )
    finished = regular_done and not placings.needs_tiebreaker
    current = None if finished else _current(facts, rules, rounds, outcomes, tiebreakers, placings)
    return GameState(
        facts=facts,
        rules=rules,
        names=names,
        rounds=rounds,
        outcomes=outcomes,
        tiebreakers=tiebreakers,
        standings=placings,
        finished=finished,
        current=current,
        running=running_totals(outcomes, len(names)),
    )


def _same_ends(before: GameState, facts: GameFacts, rules: RuleSet) -> bool:
    """Whether `facts` end the same rounds as `before`'s, at the same table, under the same
    rules: the very same round facts (frozen, so unchanged) wherever a round has ended."""
    old = before.facts
    if before.current is None or before.rules is not rules or old.seats != facts.seats:
        return False
    if (old.first_dealer, old.decks) != (facts.first_dealer, facts.decks):
        return False
    ended = [record for record in facts.rounds if record.results]
    was = [record for record in old.rounds if record.results]
    return len(ended) == len(was) and all(a is b for a, b in zip(ended, was, strict=True))


def round_outcome(rules: RuleSet, record: RoundFacts, players: int) -> RoundOutcome:
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


def _outcomes(
    rules: RuleSet, rounds: dict[int, RoundFacts], players: int, before: GameState | None
) -> tuple[RoundOutcome, ...]:
    """Outcomes of the regular rounds finished so far, in order; `before`'s where a round is
    the same value under the same rules and players."""
    same = before is not None and before.rules is rules and before.players == players
    done: list[RoundOutcome] = []
    for number in range(1, len(rules.rounds) + 1):
        record = rounds.get(number)
        if record is None or not record.results:
            break
        if same and before and number <= len(before.outcomes) and before.rounds[number] is record:
            done.append(before.outcomes[number - 1])
        else:
            done.append(round_outcome(rules, record, players))
    return tuple(done)


def _tiebreakers(rules: RuleSet, rounds: dict[int, RoundFacts]) -> tuple[TiebreakerOutcome, ...]:
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


def _leader(seats: tuple[int, ...], dealer: int) -> int:
    """Who plays first when `dealer` deals to `seats`: the player on the dealer's left."""
    return seats[seats_around(seats.index(dealer), len(seats), cuts=False)[0]]


def _cutter(rules: RuleSet, seats: tuple[int, ...], dealer: int) -> int | None:
    """Who cuts when `dealer` deals to `seats`: the player on the dealer's right, in a game
    with a cut bonus (Liverpool); nobody otherwise. The one place a cutter is worked out:
    the round being played and every past one (GameState.cutter_of) ask here."""
    right = seats_around(seats.index(dealer), len(seats), cuts=rules.scoring.cut_bonus > 0)[1]
    return None if right is None else seats[right]


def _current(
    facts: GameFacts,
    rules: RuleSet,
    rounds: dict[int, RoundFacts],
    outcomes: tuple[RoundOutcome, ...],
    tiebreakers: tuple[TiebreakerOutcome, ...],
    placings: Standings,
    before: CurrentRound | None = None,
) -> CurrentRound:
    """The round to play now: the next regular round, else the next tiebreaker (`before`: the
    same round as dealt before a change that ended no round, whose deal stands)."""
    players = len(facts.seats)
    number = len(outcomes) + 1
    if before is not None:
        number, seats, setup = before.number, before.seats, before.setup
    elif number <= len(rules.rounds):
        seats = tuple(range(players))
        winners = [outcome.went_out for outcome in outcomes]
        setup = deal_for(rules, players, number, facts.first_dealer, facts.decks, winners)
    else:
        number = len(rules.rounds) + len(tiebreakers) + 1
        seats = placings.needs_tiebreaker
        playoff = len(tiebreakers) + 1
        setup = tiebreaker_deal(rules, len(seats), 0, playoff=playoff, decks=facts.decks)
    record = rounds.get(number)
    # Who really dealt is a fact; an edit to an earlier round does not move the deal.
    dealer = record.dealer if record is not None else seats[setup.dealer]
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
        first_player=_leader(seats, dealer),
        cutter=_cutter(rules, seats, dealer),
        buys={seat: bought[seat] for seat in seats},
        game_buys={seat: in_game[seat] for seat in seats},
        buys_left=left,
        last_buyer=record.buys[-1].seat if record and record.buys else None,
        run_outs=run_outs,
        ended_by_stock=round_ended_by_stock(rules, run_outs),
        instruction=standing_instruction(rules, run_outs),
        down=down,
    )
