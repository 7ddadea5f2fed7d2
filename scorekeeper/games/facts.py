"""A game's facts read as one value (rules.game_facts.GameFacts): Core selects, no ORM objects.

Any number of games in the same five statements (games, seats, rounds, hands, buys), one more
for the open "May I?" calls and one for the hands entered on the seats' phones only when a game
read has any (the games' statement says whether), one more when a table's person was merged
into another; the rules engine derives the rest.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection
from dataclasses import replace

from sqlalchemy import ColumnElement, Text, cast, exists, select

from ..extensions import db
from ..models import Buy, Game, Round, RoundResult, Seat, SeatCall, SeatHand, TablePlayer
from ..rules.game_facts import (
    BuyFacts,
    CallFacts,
    EnteredHand,
    GameFacts,
    ResultFacts,
    RoundFacts,
    SeatFacts,
)

# Above this many games, a table's read names the table rather than each game in the query.
MAX_NAMED = 1000
HEAD = (
    Game.id,
    Game.version,
    Game.table_id,
    Game.first_dealer,
    Game.dealer_was_cut,
    Game.decks,
    Game.edit_token,
    Game.view_token,
    Game.created_at,
    Game.updated_at,
    cast(Game.rules_json, Text),
    Game.rematch_id,
)
# Whether a game has open calls, and hands entered on the seats' phones: most games have
# neither, so their two statements are left out (issue 19: two of seven a facts read).
SEAT_FACTS = (
    exists().where(SeatCall.game_id == Game.id, SeatCall.closed_at.is_(None)),
    exists().where(SeatHand.game_id == Game.id),
)


def read_game(game_id: int) -> GameFacts | None:
    """One game's facts, or None when there is no such game."""
    found = _read(Game.id == game_id)
    return found[0] if found else None


def read_games(game_ids: Collection[int]) -> list[GameFacts]:
    """These games' facts, in order of id; ids that name no game are left out."""
    return _read(Game.id.in_(list(game_ids))) if game_ids else []


def read_table_games(table_id: int, known: Callable[[GameFacts], bool]) -> list[GameFacts]:
    """Every game of a table, in order of id; a game `known` (from its head and seats) comes
    without its rounds and calls, which the caller kept from an earlier read of that version."""
    return _read(Game.table_id == table_id, known)


def _read(
    where: ColumnElement[bool], known: Callable[[GameFacts], bool] | None = None
) -> list[GameFacts]:
    """The games `where` selects, each with its seats and (unless `known`) its rounds and open
    calls."""
    rows = db.session.execute(select(*HEAD, *SEAT_FACTS).where(where).order_by(Game.id)).all()
    if not rows:
        return []
    seats = _seats(where)
    games = {row[0]: GameFacts(*row[: len(HEAD)], seats=tuple(seats[row[0]])) for row in rows}
    wanted = {gid for gid, game in games.items() if known is None or not known(game)}
    if wanted:
        rounds = _rounds(_named(where, wanted))
        calling = [row[0] for row in rows if row[0] in wanted and row[-2]]
        entering = [row[0] for row in rows if row[0] in wanted and row[-1]]
        calls = _calls(_named(where, calling)) if calling else {}
        entered = _entered(_named(where, entering)) if entering else {}
        for gid in wanted:
            games[gid] = replace(
                games[gid],
                rounds=tuple(rounds[gid]),
                calls=tuple(calls.get(gid, ())),
                entered=tuple(entered.get(gid, ())),
            )
    return list(games.values())


def seats_of(game_id: int) -> tuple[SeatFacts, ...]:
    """One game's seats in order, as its facts have them (Play again seats a phone's person)."""
    return tuple(_seats(Game.id == game_id).get(game_id, ()))


def _named(where: ColumnElement[bool], ids: Collection[int]) -> ColumnElement[bool]:
    """These of the games `where` selects: by id, or by `where` itself when there are many."""
    return where if len(ids) > MAX_NAMED else Game.id.in_(list(ids))


def _seats(where: ColumnElement[bool]) -> dict[int, list[SeatFacts]]:
    """Each game's seats in order: a name as typed, or the table person's after any merge."""
    query = (
        select(
            Seat.game_id,
            Seat.position,
            Seat.player_name,
            TablePlayer.id,
            TablePlayer.name,
            TablePlayer.merged_into_id,
        )
        .join(Game, Game.id == Seat.game_id)
        .outerjoin(TablePlayer, TablePlayer.id == Seat.table_player_id)
        .where(where)
        .order_by(Seat.game_id, Seat.position)
    )
    rows = db.session.execute(query).all()
    merged = {row[3] for row in rows if row[5] is not None}
    people = _people(merged) if merged else {}
    seats: dict[int, list[SeatFacts]] = defaultdict(list)
    for game_id, position, typed, player, name, _into in rows:
        if player is None:
            seats[game_id].append(SeatFacts(position, typed or ""))
            continue
        person, shown = people.get(player, (player, name))
        seats[game_id].append(SeatFacts(position, shown, person))
    return seats


def _people(merged: set[int]) -> dict[int, tuple[int, str]]:
    """Whom each merged table player counts as now, and that person's name: one query for
    the people of their tables, the merges followed to the end."""
    tables = select(TablePlayer.table_id).where(TablePlayer.id.in_(merged))
    query = select(TablePlayer.id, TablePlayer.name, TablePlayer.merged_into_id)
    rows = db.session.execute(query.where(TablePlayer.table_id.in_(tables))).all()
    names = {pid: name for pid, name, _into in rows}
    into = {pid: target for pid, _name, target in rows}
    found = {}
    for pid in merged:
        person, seen = pid, {pid}
        while into.get(person) is not None and into[person] not in seen:
            person = into[person]  # type: ignore[assignment]
            seen.add(person)
        found[pid] = (person, names[person])
    return found


def _rounds(where: ColumnElement[bool]) -> dict[int, list[RoundFacts]]:
    """Each game's rounds in order of number, with their hands and buys: three queries."""
    query = select(
        Round.game_id,
        Round.id,
        Round.number,
        Round.dealer,
        Round.tiebreak_seats,
        Round.run_outs,
        Round.ended_by_stock,
        Round.cut_bonus_seat,
        Round.down_seats,
    ).join(Game, Game.id == Round.game_id)
    rows = db.session.execute(query.where(where).order_by(Round.game_id, Round.number)).all()
    in_rounds = select(Round.id).join(Game, Game.id == Round.game_id).where(where)
    results: dict[int, list[ResultFacts]] = defaultdict(list)
    hands = select(
        RoundResult.round_id,
        RoundResult.seat,
        RoundResult.went_out,
        RoundResult.points,
        RoundResult.cards,
    ).where(RoundResult.round_id.in_(in_rounds))
    for round_id, *hand in db.session.execute(hands.order_by(RoundResult.seat)):
        results[round_id].append(ResultFacts(*hand))
    buys: dict[int, list[BuyFacts]] = defaultdict(list)
    bought = select(Buy.round_id, Buy.id, Buy.seat).where(Buy.round_id.in_(in_rounds))
    for round_id, buy_id, seat in db.session.execute(bought.order_by(Buy.id)):
        buys[round_id].append(BuyFacts(buy_id, seat))
    rounds: dict[int, list[RoundFacts]] = defaultdict(list)
    for game_id, round_id, number, dealer, tied, run_outs, by_stock, cut, down in rows:
        rounds[game_id].append(
            RoundFacts(
                id=round_id,
                number=number,
                dealer=dealer,
                tiebreak_seats=None if tied is None else tuple(tied),
                run_outs=run_outs,
                ended_by_stock=by_stock,
                cut_bonus_seat=cut,
                down_seats=None if down is None else tuple(down),
                results=tuple(results[round_id]),
                buys=tuple(buys[round_id]),
            )
        )
    return rounds


def _calls(where: ColumnElement[bool]) -> dict[int, list[CallFacts]]:
    """Each game's open "May I?" calls, first called first: one query. A call or its closing
    bumps the game's version (games/calls.py), so they are facts of the version like the rest."""
    query = (
        select(SeatCall.game_id, SeatCall.id, SeatCall.seat, SeatCall.round_number)
        .join(Game, Game.id == SeatCall.game_id)
        .where(where, SeatCall.closed_at.is_(None))
        .order_by(SeatCall.game_id, SeatCall.id)
    )
    calls: dict[int, list[CallFacts]] = defaultdict(list)
    for game_id, *made in db.session.execute(query):
        calls[game_id].append(CallFacts(*made))
    return calls


ENTERED = (
    SeatHand.seat,
    SeatHand.round_number,
    SeatHand.went_out,
    SeatHand.points,
    SeatHand.cards,
    SeatHand.cut_bonus,
    SeatHand.status,
    SeatHand.note,
    SeatHand.action_id,
)


def _entered(where: ColumnElement[bool]) -> dict[int, list[EnteredHand]]:
    """Each game's hands entered on the seats' phones: one query. Entering, sending back and
    saving the round bump the game's version (games/pending_hands.py), as a call does."""
    query = (
        select(SeatHand.game_id, *ENTERED)
        .join(Game, Game.id == SeatHand.game_id)
        .where(where)
        .order_by(SeatHand.game_id, SeatHand.round_number, SeatHand.seat)
    )
    entered: dict[int, list[EnteredHand]] = defaultdict(list)
    for game_id, *hand in db.session.execute(query):
        entered[game_id].append(EnteredHand(*hand))
    return entered
