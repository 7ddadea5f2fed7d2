"""Settling a "May I?" call among several callers, in the seats of the game."""

from __future__ import annotations

from collections.abc import Collection

from ..rules.arbiter import BuyRuling, arbitrate
from ..rules.errors import RuleError
from ..rules.game_state import GameState
from ..rules.messages import N_, msg


def rule_on_call(
    state: GameState,
    discarder: int,
    callers: Collection[int],
    turn_player_draws: bool,
    bought_above: int | None = None,
) -> BuyRuling:
    """Who gets a discard now, with this round's buys, in game seats.

    `bought_above` is who bought the card above, when this is the next card down at the
    same discard; only there does "no twice in a row" refuse (docs/RULES.md 4).
    """
    current = state.current
    if current is None:
        raise RuleError(msg(N_("This game is over.")), field="game")
    seats = current.seats  # a tiebreaker is played by the tied players only, in seat order
    above = () if bought_above is None else (bought_above,)
    for field, asked in (
        ("discarder", (discarder,)),
        ("callers", tuple(callers)),
        ("bought_above", above),
    ):
        if any(seat not in seats for seat in asked):
            raise RuleError(msg(N_("That player is not in this round.")), field=field)
    local = {seat: index for index, seat in enumerate(seats)}
    game_buys = {seat: sum(state.buys_in(n)[seat] for n in state.rounds) for seat in seats}
    ruling = arbitrate(
        state.rules,
        current.number,
        len(seats),
        local[discarder],
        [local[seat] for seat in callers],
        {local[seat]: used for seat, used in current.buys.items()},
        turn_player_draws=turn_player_draws,
        bought_above=None if bought_above is None else local[bought_above],
        game_buys_used={local[seat]: used for seat, used in game_buys.items()},
        contract_down=[local[seat] for seat in current.down if seat in local],
    )
    return BuyRuling(
        winner=None if ruling.winner is None else seats[ruling.winner],
        is_buy=ruling.is_buy,
        refusals={seats[index]: reason for index, reason in ruling.refusals.items()},
        explanation=ruling.explanation,
    )
