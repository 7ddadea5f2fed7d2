"""The "May I?" arbiter: who gets a discard, and why the other callers do not (docs/RULES.md 4)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from .deal import round_buy_cap
from .errors import RuleError
from .messages import N_, Message, msg, nmsg
from .ruleset import RuleSet
from .stock import buy_after_stock_refusal

TAKEN_AS_DRAW = msg(N_("The player at turn takes the card as their draw."))
NEARER_CALLER = msg(N_("A caller nearer the discarder's left gets the card."))


@dataclass(frozen=True)
class BuyRuling:
    """Who gets the discard, whether it counts as a buy, and why each other caller does not."""

    winner: int | None
    is_buy: bool
    refusals: dict[int, Message]
    explanation: Message


def buys_left(
    rules: RuleSet,
    round_number: int,
    used: int,
    *,
    game_used: int = 0,
    contract_down: bool = False,
    run_outs: int = 0,
) -> int | None:
    """Buys a player may still make: the fewest any limit leaves (the round's cap, the game's,
    no buy once down, the stock's end); None when nothing limits them (docs/RULES.md 4).

    It is 0 exactly when buy_refusal (with buy_after_stock_refusal) refuses their next buy
    of a fresh discard, so every "left" the app shows is what the next buy is allowed.
    """
    if buy_after_stock_refusal(rules, run_outs) is not None:
        return 0
    if rules.buys.no_buy_after_contract_down and contract_down:
        return 0
    limits = [
        cap - spent
        for cap, spent in (
            (round_buy_cap(rules, round_number), used),
            (rules.buys.cap_per_game, game_used),
        )
        if cap is not None
    ]
    return max(0, min(limits)) if limits else None


def buy_refusal(
    rules: RuleSet,
    round_number: int,
    player: int,
    buys_used_by_player: int,
    *,
    discarder: int | None = None,
    bought_above: int | None = None,
    game_buys_used_by_player: int = 0,
    contract_down: bool = False,
) -> Message | None:
    """Why one buy is refused: own discard, round or game cap, twice in a row, contract down.

    `bought_above` is who bought the card just above this one at the same discard: "no
    twice in a row" holds only within that chain of exposed cards (docs/RULES.md 4), so a
    plain buy of a fresh discard, which has none, is never refused by it.
    """
    cap, game_cap = round_buy_cap(rules, round_number), rules.buys.cap_per_game
    if player == discarder:
        return msg(N_("Nobody may buy back their own discard."))
    if cap == 0:
        return msg(N_("There is no buying in this round."))
    if cap is not None and buys_used_by_player >= cap:
        return nmsg(
            "The limit of %(count)s buy per round is reached.",
            "The limit of %(count)s buys per round is reached.",
            cap,
        )
    if game_cap is not None and game_buys_used_by_player >= game_cap:
        return nmsg(
            "The limit of %(count)s buy per game is reached.",
            "The limit of %(count)s buys per game is reached.",
            game_cap,
        )
    if rules.buys.no_twice_in_a_row and player == bought_above:
        return msg(N_("Nobody may buy twice in a row."))
    if rules.buys.no_buy_after_contract_down and contract_down:
        return msg(N_("Nobody may buy once their contract is down."))
    return None


def arbitrate(
    rules: RuleSet,
    round_number: int,
    players: int,
    discarder: int,
    callers: Collection[int],
    buys_used: Mapping[int, int],
    *,
    turn_player_draws: bool = False,
    bought_above: int | None = None,
    game_buys_used: Mapping[int, int] | None = None,
    contract_down: Collection[int] = (),
) -> BuyRuling:
    """Turn player may draw the discard; else the nearest eligible caller clockwise gets it.

    For the next card down at one discard, `bought_above` names who bought the card above.
    """
    _check_seats(players, discarder, callers, bought_above)
    turn = (discarder + 1) % players
    # Buys counted this round are a lower bound of the game's when those are not given.
    game_used = buys_used if game_buys_used is None else game_buys_used
    refusals: dict[int, Message] = {}
    for caller in sorted(set(callers)):
        if caller == turn and (turn_player_draws or not rules.buys.turn_player_call_is_buy):
            continue  # a plain draw, not a buy: no cap or buy rule applies to it
        refusal = buy_refusal(
            rules,
            round_number,
            caller,
            buys_used.get(caller, 0),
            discarder=discarder,
            bought_above=bought_above,
            game_buys_used_by_player=game_used.get(caller, 0),
            contract_down=caller in contract_down,
        )
        if refusal is not None:
            refusals[caller] = refusal
    return _rule(rules, players, discarder, set(callers), refusals, turn_player_draws)


def _rule(
    rules: RuleSet,
    players: int,
    discarder: int,
    callers: set[int],
    refusals: dict[int, Message],
    turn_player_draws: bool,
) -> BuyRuling:
    """Among the callers no rule refuses, the nearest clockwise from the discarder wins."""
    turn = (discarder + 1) % players
    eligible = sorted(callers - refusals.keys(), key=lambda seat: (seat - discarder) % players)
    if turn_player_draws:
        winner: int | None = turn
    else:
        winner = eligible[0] if eligible else None
    passed_over = TAKEN_AS_DRAW if turn_player_draws else NEARER_CALLER
    passed = {seat: passed_over for seat in eligible if seat != winner}
    is_buy = winner is not None and not turn_player_draws
    if winner == turn and is_buy:
        is_buy = rules.buys.turn_player_call_is_buy
    explanation = _explain(rules, winner, turn, is_buy, bool(callers))
    return BuyRuling(winner, is_buy, dict(sorted({**refusals, **passed}.items())), explanation)


def _explain(rules: RuleSet, winner: int | None, turn: int, is_buy: bool, called: bool) -> Message:
    """Say why the card went where it went."""
    penalty = rules.buys.penalty_cards
    if winner is None:
        return msg(N_("Nobody who called may buy the card.") if called else N_("Nobody called."))
    if winner == turn and not is_buy:
        return TAKEN_AS_DRAW
    if winner == turn:
        return nmsg(
            "The player at turn called instead of drawing: a buy, with %(count)s penalty card.",
            "The player at turn called instead of drawing: a buy, with %(count)s penalty cards.",
            penalty,
        )
    return nmsg(
        "The nearest caller clockwise buys the card and takes %(count)s penalty card.",
        "The nearest caller clockwise buys the card and takes %(count)s penalty cards.",
        penalty,
    )


def _check_seats(
    players: int, discarder: int, callers: Collection[int], bought_above: int | None
) -> None:
    """Seats are 0 to players - 1; a discard needs someone else at the table."""
    if players < 2:
        raise RuleError(msg(N_("Buying needs at least 2 players.")), field="players")
    above = () if bought_above is None else (bought_above,)
    for field, seats in (
        ("discarder", (discarder,)),
        ("callers", tuple(callers)),
        ("bought_above", above),
    ):
        for seat in seats:
            if not 0 <= seat < players:
                message = msg(N_("There is no seat %(seat)s at this table."), seat=seat)
                raise RuleError(message, field=field)
