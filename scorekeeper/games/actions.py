"""What a table can do to a game. Each action is one transaction with one history entry."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import NamedTuple

from ..database import lock_writes
from ..extensions import db
from ..link_tokens import Role, new_token
from ..models import Change, Game, Seat, TablePlayer
from ..rules.arbiter import buy_refusal
from ..rules.deal import deal_for
from ..rules.errors import RuleError
from ..rules.game_facts import CallFacts
from ..rules.game_state import CurrentRound, GameState
from ..rules.messages import N_, Message, msg
from ..rules.player_names import clean_name, name_key
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_to_dict
from ..rules.stock import RunOut, buy_after_stock_refusal, stock_ran_out
from . import game_links, history, seat_links, writes
from .refusals import Conflict

CHOOSE_DISCARDER = msg(N_("Choose who discarded."))
NOTHING_TO_UNDO = N_("There is nothing to undo.")


class Undone(NamedTuple):
    """An undo made: the change it took back, and the game's state after it."""

    change: Change
    state: GameState


def create_game(
    rules: RuleSet,
    names: Sequence[str],
    first_dealer: int | None,
    decks: int | None = None,
    people: Sequence[TablePlayer] = (),
    *,
    commit: bool = True,
) -> Game:
    """Seat the players in order and pick the first dealer, at random when the table cuts.

    Given a table's `people` (one per name), the game belongs to their table and seats them;
    a game without a table keeps its names as typed, its own (no other game shares them).
    Without `commit` the caller commits it with its own change (Play again, games/rematch.py).
    """
    names = clean_names(names)
    lock_writes()
    cut = first_dealer is None
    check_deal(rules, len(names), first_dealer, decks)  # refuses a bad table first
    dealer = secrets.randbelow(len(names)) if first_dealer is None else first_dealer
    game = Game(
        rules_json=ruleset_to_dict(rules),
        first_dealer=dealer,
        dealer_was_cut=cut,
        edit_token=new_token(),
        view_token=new_token(),
    )
    game.decks = decks
    if people:
        game.table_id = people[0].table_id
        game.seats = [Seat(position=i, table_player=p) for i, p in enumerate(people)]
    else:
        game.seats = [Seat(position=i, player_name=name) for i, name in enumerate(names)]
    db.session.add(game)
    db.session.flush()
    seat_links.create_for(game.id, len(game.seats))
    history.add(game, "create", None, after={"players": list(names)})
    if commit:
        db.session.commit()
    return game


def clean_names(names: Sequence[str]) -> list[str]:
    """Each name in its clean form, refused at its seat; no two the same player."""
    cleaned, keys = [], set()
    for index, name in enumerate(names):
        try:
            cleaned.append(clean_name(name))
        except RuleError as error:
            raise RuleError(error.message, field=f"players.{index}") from None
        if name_key(cleaned[-1]) in keys:
            raise RuleError(msg(N_("Each player needs a different name.")), field="players")
        keys.add(name_key(cleaned[-1]))
    return cleaned


def check_deal(rules: RuleSet, players: int, first_dealer: int | None, decks: int | None) -> None:
    """Refuse a game the rules cannot deal (players, decks, first dealer): new games and a
    restore's replay (tables/backup/replay.py) both ask here."""
    deal_for(rules, players, 1, first_dealer or 0, decks)


def add_buy(
    state: GameState,
    seat: int,
    action_id: str | None = None,
    base_version: int | None = None,
    bought_above: int | None = None,
    calls: tuple[CallFacts, ...] | None = None,
) -> GameState:
    """Add a "May I?" buy, unless the rules refuse it (caps; twice in one chain).

    `state` is the game's at the version read with its lock (games/writes.py); every change
    here answers the state it makes, which is `state` itself when nothing was added.
    `calls`: the open calls left once the caller closed the round's (games/calls.grant). A
    buy for a seat with an open call settles it all the same (docs/RULES.md 11: one event).
    """
    if history.already_done(state.facts, action_id):
        return state
    current = _playing(state, seat)
    _check_buys_unchanged(state, current, seat, base_version)
    refusal = buy_refused(state, current, seat, bought_above)
    if refusal is not None:
        raise RuleError(refusal, field="seat")
    if calls is None and any(made.seat == seat for made in state.facts.calls):
        calls = writes.close_calls(state, seat)  # the row's Buy for a seat that called
    row = writes.add_buy(writes.round_to_change(state), seat)
    buy_id = row.buys[-1].id
    return writes.commit(
        state, row, "buy", action_id, calls=calls, seat=seat, after={"buy_id": buy_id}
    )


def buy_refused(
    state: GameState, current: CurrentRound, seat: int, bought_above: int | None = None
) -> Message | None:
    """Why the rules refuse this seat's buy now (the stock, caps, twice in a row, down), if
    they do; live buys and a restore's replay (tables/backup/replay.py) both ask here."""
    return buy_after_stock_refusal(state.rules, current.run_outs) or buy_refusal(
        state.rules,
        current.number,
        seat,
        current.buys[seat],
        bought_above=bought_above,
        game_buys_used_by_player=current.game_buys[seat],
        contract_down=seat in current.down,
    )


def remove_buy(
    state: GameState, seat: int, action_id: str | None = None, base_version: int | None = None
) -> GameState:
    """Take back a player's last buy this round (a mis-tap)."""
    if history.already_done(state.facts, action_id):
        return state
    current = _playing(state, seat)
    _check_buys_unchanged(state, current, seat, base_version)
    # A buy that settled a call is taken back alone: the call stays closed (docs/RULES.md 11).
    bought = state.rounds[current.number].buys if current.number in state.rounds else []
    mine = [buy for buy in bought if buy.seat == seat]
    if not mine:
        raise RuleError(msg(N_("This player has no buy to take back.")), field="seat")
    row = writes.remove_buy(writes.round_to_change(state), mine[-1])
    return writes.commit(state, row, "buy_removed", action_id, seat=seat)


def mark_down(state: GameState, seat: int, down: bool, action_id: str | None = None) -> GameState:
    """Mark that a player's contract is down this round, or take the mark back (a mis-tap)."""
    if history.already_done(state.facts, action_id):
        return state
    current = _playing(state, seat)
    if (seat in current.down) == down:
        return state  # another phone marked it already: nothing to change
    before = list(current.down)
    after = [*before, seat] if down else [s for s in before if s != seat]
    row = writes.set_round(writes.round_to_change(state), down_seats=after)
    return writes.commit(
        state,
        row,
        "down" if down else "down_removed",
        action_id,
        seat=seat,
        before={"down": before},
        after={"down": after},
    )


def add_run_out(
    state: GameState, seen: int | None = None, action_id: str | None = None
) -> tuple[RunOut, GameState]:
    """Note that the stock ran out; two phones tapping for one event count it once."""
    current = _playing(state)
    if seen is not None and seen > current.run_outs:
        raise RuleError(msg(N_("The stock has not run out that often yet.")), field="seen")
    already = seen is not None and seen < current.run_outs
    if (already or history.already_done(state.facts, action_id)) and current.run_outs:
        # Another phone (or a double tap) noted this run-out: answer what it was.
        return stock_ran_out(state.rules, current.run_outs - 1), state
    outcome = stock_ran_out(state.rules, current.run_outs)
    row = writes.set_round(writes.round_to_change(state), run_outs=outcome.number)
    changed = writes.commit(
        state,
        row,
        "run_out",
        action_id,
        before={"run_outs": outcome.number - 1},
        after={"run_outs": outcome.number},
    )
    return outcome, changed


def undo_last(
    state: GameState, action_id: str | None = None, base_version: int | None = None
) -> Undone | None:
    """Undo the newest change that is not yet undone, if it is the one this phone saw; answers
    the change taken back and the state it leaves (None for a repeat of an undo already made).

    What the change replaced is put back with plain statements (games/writes.take_back) and the
    rules check the whole game from the facts that makes in memory: nothing is read back.
    """
    if history.already_done(state.facts, action_id):
        return None
    change = history.last_undoable(state.facts)
    if change is None or change.kind == "create":
        raise RuleError(msg(NOTHING_TO_UNDO), field="undo")
    newer = [] if base_version is None else history.changes_since(state.facts, base_version)
    if newer:
        what = history.describe(newer[-1], state.names, len(state.rules.rounds))
        message = msg(
            N_("Another change came in meanwhile: %(what)s. Undo again if you still want to."),
            what=what,
        )
        raise Conflict(message, field="undo")
    record = None if change.round_number is None else state.facts.round(change.round_number)
    if record is None:
        raise RuleError(msg(NOTHING_TO_UNDO), field="undo")
    put_back = writes.take_back(record, change)
    history.mark_undone(change)
    after = writes.commit(
        state, put_back, "undo", action_id, seat=change.seat, before={"change_id": change.id}
    )
    return Undone(change, after)


def rotate_link(state: GameState, role: Role) -> GameState:
    """Replace the game's edit or view link; the history notes it, never the link itself.
    Answers the state with the new link."""
    game = state.facts
    token = game_links.rotate(game, role)
    made = {f"{role}_token": token}
    return writes.change(state, made, "rotate_link", None, None, after={"role": role})


def _check_buys_unchanged(
    state: GameState, current: CurrentRound, seat: int, base_version: int | None
) -> None:
    """Refuse a buy change when this player's buys changed since the phone last saw them."""
    if base_version is None or base_version >= state.facts.version:
        return  # the phone saw the game as it is (versions only grow): nothing to look up
    if not history.changes_since(state.facts, base_version, current.number, seat):
        return
    message = msg(
        N_("Meanwhile %(name)s's buys changed: now %(count)s. Tap again if you still mean it."),
        name=state.names[seat],
        count=current.buys[seat],
    )
    raise Conflict(message, field="seat")


def _playing(state: GameState, seat: int | None = None) -> CurrentRound:
    """The current round, refusing when the game is over or the seat is not playing."""
    if state.current is None:
        raise RuleError(msg(N_("This game is over.")), field="game")
    if seat is not None and seat not in state.current.seats:
        raise RuleError(msg(N_("That player is not in this round.")), field="seat")
    return state.current
