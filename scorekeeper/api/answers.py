"""A game's state, rulings and history as JSON, every sentence in the request's language."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..games.history import describe
from ..games.state import CurrentRound, GameState
from ..i18n import translate
from ..models import Change, Round
from ..rules.arbiter import BuyRuling
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_to_dict
from ..rules.standings import Standings
from ..rules.table import describe_contract

Json = dict[str, Any]


def ruleset_json(rules: RuleSet) -> Json:
    """A rule set with its key and name up front."""
    return {"key": rules.key, "name": rules.name, "rules": ruleset_to_dict(rules)}


def game_json(state: GameState) -> Json:
    """Everything about a game: table, rules, the round now, rounds played, totals, standings."""
    game, players = state.game, state.players
    return {
        "id": game.id,
        "version": game.version,
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(state.names)],
        "rules": ruleset_to_dict(state.rules),
        "first_dealer": game.first_dealer,
        "dealer_was_cut": game.dealer_was_cut,
        "decks": game.decks,
        "finished": state.finished,
        "current_round": None if state.current is None else current_json(state.current),
        "rounds": played_json(state),
        "totals": list(state.running[-1]) if state.running else [0] * players,
        "running_totals": [list(row) for row in state.running],
        "standings": standings_json(state.standings),
        "created_at": iso(game.created_at),
        "updated_at": iso(game.updated_at),
    }


def current_json(current: CurrentRound) -> Json:
    """The round being played: contract, deal, decks, who deals, leads and cuts, buys, stock."""
    setup, contract = current.setup, current.setup.contract
    return {
        "number": current.number,
        "is_tiebreaker": current.is_tiebreaker,
        "seats": list(current.seats),
        "contract": {
            "books": contract.books,
            "runs": contract.runs,
            "book_length": contract.book_length,
            "run_length": contract.run_length,
        },
        "contract_text": " + ".join(translate(part) for part in describe_contract(contract)),
        "deal": setup.deal,
        "final_discard": setup.final_discard,
        "decks": setup.decks,
        "jokers": setup.jokers,
        "total_cards": setup.total_cards,
        "dealer": current.dealer,
        "first_player": current.first_player,
        "cutter": current.cutter,
        "buy_cap": setup.buy_cap,
        "buys": [
            {"seat": seat, "bought": current.buys[seat], "left": current.buys_left[seat]}
            for seat in current.seats
        ],
        "last_buyer": current.last_buyer,
        "run_outs": current.run_outs,
        "ended_by_stock": current.ended_by_stock,
        "warnings": [translate(warning) for warning in setup.warnings],
    }


def played_json(state: GameState) -> list[Json]:
    """Rounds played, in order: regular rounds score toward the totals, tiebreakers do not."""
    rounds = []
    for number, outcome in enumerate(state.outcomes, start=1):
        record = state.rounds[number]
        rounds.append(round_json(record, list(outcome.scores), outcome.went_out))
    for number in sorted(n for n in state.rounds if n > len(state.rules.rounds)):
        record = state.rounds[number]
        if record.results:
            scores: list[int | None] = [None] * state.players
            for result in record.results:
                scores[result.seat] = result.points
            went_out = next((r.seat for r in record.results if r.went_out), None)
            rounds.append(round_json(record, scores, went_out))
    return rounds


def round_json(record: Round, scores: list[int | None], went_out: int | None) -> Json:
    """One played round: each seat's score, who went out, and each hand as entered."""
    return {
        "number": record.number,
        "is_tiebreaker": record.tiebreak_seats is not None,
        "seats": [result.seat for result in record.results],
        "scores": scores,
        "went_out": went_out,
        "ended_by_stock": record.ended_by_stock,
        "cut_bonus_seat": record.cut_bonus_seat,
        "dealer": record.dealer,
        "hands": [
            {"seat": r.seat, "went_out": r.went_out, "points": r.points, "cards": r.cards}
            for r in record.results
        ],
    }


def standings_json(table: Standings) -> Json:
    """Rows best first, the winners once decided, who plays a tiebreaker, and why."""
    return {
        "rows": [
            {
                "seat": row.seat,
                "name": row.name,
                "total": row.total,
                "rounds_out": row.rounds_out,
                "place": row.place,
            }
            for row in table.rows
        ],
        "winners": list(table.winners),
        "needs_tiebreaker": list(table.needs_tiebreaker),
        "explanation": [translate(line) for line in table.explanation],
    }


def ruling_json(ruling: BuyRuling) -> Json:
    """Who gets the discard, whether it is a buy, and why each other caller does not."""
    return {
        "winner": ruling.winner,
        "is_buy": ruling.is_buy,
        "refusals": [
            {"seat": seat, "reason": translate(reason)} for seat, reason in ruling.refusals.items()
        ],
        "explanation": translate(ruling.explanation),
    }


def change_json(change: Change, names: tuple[str, ...]) -> Json:
    """One line of the history."""
    return {
        "id": change.id,
        "kind": change.kind,
        "round": change.round_number,
        "seat": change.seat,
        "text": translate(describe(change, names)),
        "created_at": iso(change.created_at),
        "undone": change.undone_at is not None,
    }


def iso(moment: datetime | None) -> str | None:
    """A timestamp in ISO 8601 with its offset; SQLite hands it back without one, meaning UTC."""
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC).isoformat()
