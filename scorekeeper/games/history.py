"""The change history: every action written with what it replaced, so it can be undone."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from sqlalchemy import insert, select, update

from ..extensions import db
from ..models import Buy, Change, Game, Round, RoundResult, utcnow
from ..rules.errors import RuleError
from ..rules.game_facts import GameFacts
from ..rules.messages import C_, N_, Message, msg

# Every kind of change the history holds; the API and the backup name them with this list.
ChangeKind = Literal[
    "create", "buy", "buy_removed", "down", "down_removed", "run_out", "result", "undo",
    "rotate_link",
]  # fmt: skip


def add(game: Game, kind: str, action_id: str | None, **facts: Any) -> Change:
    """Add one change to the game's history and bump its version."""
    change = Change(game_id=game.id, kind=kind, action_id=action_id or None, **facts)
    game.version += 1
    change.version = game.version
    db.session.add(change)
    game.updated_at = utcnow()
    return change


def write(
    game_id: int, version: int, kind: str, action_id: str | None, round_number: int, **facts: Any
) -> tuple[int, datetime]:
    """`add` for a change written past the ORM (games/writes.py): the same history row and
    version bump, one INSERT and one UPDATE; answers the new version and the time of the change.

    `version` is the one read with the game's lock, so the bump finds it: anything else is a
    change that skipped the lock, refused here rather than left for a kept state to hide.
    """
    now, bumped = utcnow(), version + 1
    given = {key: value for key, value in facts.items() if value is not None}  # None: not given
    row = {"game_id": game_id, "action_id": action_id or None, "kind": kind, "version": bumped}
    connection = db.session.connection()
    connection.execute(insert(Change), row | given | {"round_number": round_number})
    moved = connection.execute(
        update(Game)
        .where(Game.id == game_id, Game.version == version)
        .values(version=bumped, updated_at=now)
    )
    if moved.rowcount != 1:
        raise RuntimeError(f"game {game_id} is no longer at version {version}")
    return bumped, now


def already_done(game: Game | GameFacts, action_id: str | None) -> bool:
    """Whether this one-time form token was already used: a double tap counts once."""
    if not action_id:
        return False
    query = select(Change.id).where(Change.game_id == game.id, Change.action_id == action_id)
    return db.session.scalar(query) is not None


def changes_since(
    game: Game | GameFacts, version: int, round_number: int | None = None, seat: int | None = None
) -> list[Change]:
    """Changes made after the version a phone saw, optionally to one round or one seat."""
    query = select(Change).where(Change.game_id == game.id, Change.version > version)
    if round_number is not None:
        query = query.where(Change.round_number == round_number)
    if seat is not None:
        query = query.where(Change.seat == seat)
    return list(db.session.scalars(query.order_by(Change.id)))


def changes(
    game: Game | GameFacts, before: int | None = None, limit: int | None = None
) -> list[Change]:
    """The game's history, newest first: all, or `limit` changes older than change `before`."""
    query = select(Change).where(Change.game_id == game.id).order_by(Change.id.desc())
    if before is not None:
        query = query.where(Change.id < before)
    return list(db.session.scalars(query.limit(limit)))


def last_undoable(game: Game | GameFacts) -> Change | None:
    """The newest change to the play that has not been undone (links stay replaced)."""
    query = (
        select(Change)
        .where(
            Change.game_id == game.id,
            Change.undone_at.is_(None),
            Change.kind.not_in(("undo", "rotate_link")),
        )
        .order_by(Change.id.desc())
        .limit(1)
    )
    return db.session.scalar(query)


def snapshot(round_row: Round) -> dict[str, Any] | None:
    """A round's end as plain data: how it ended and every hand; None while it is open."""
    if not round_row.results:
        return None
    return {
        "ended_by_stock": round_row.ended_by_stock,
        "cut_bonus_seat": round_row.cut_bonus_seat,
        "results": [
            {"seat": r.seat, "went_out": r.went_out, "points": r.points, "cards": r.cards}
            for r in round_row.results
        ],
    }


def restore(round_row: Round, data: dict[str, Any] | None) -> None:
    """Put a round's end back as a snapshot had it (None reopens the round)."""
    round_row.results.clear()
    db.session.flush()
    round_row.ended_by_stock = bool(data and data["ended_by_stock"])
    round_row.cut_bonus_seat = data["cut_bonus_seat"] if data else None
    round_row.ended_at = utcnow() if data else None
    for result in data["results"] if data else ():
        round_row.results.append(RoundResult(**result))


def reverse(game: Game, change: Change) -> None:
    """Undo one change by putting back what it replaced."""
    round_row = next((r for r in game.rounds if r.number == change.round_number), None)
    if round_row is None:
        raise RuleError(msg(N_("There is nothing to undo.")), field="undo")
    if change.kind == "buy":
        buy = _last_buy(round_row, change.seat)
        if buy is not None:
            round_row.buys.remove(buy)
    elif change.kind == "buy_removed":
        round_row.buys.append(Buy(seat=change.seat))
    elif change.kind == "run_out":
        round_row.run_outs = (change.before or {}).get("run_outs", 0)
    elif change.kind == "result":
        restore(round_row, change.before)
    elif change.kind in ("down", "down_removed"):
        round_row.down_seats = (change.before or {}).get("down") or None
    change.undone_at = utcnow()


def _last_buy(round_row: Round, seat: int | None) -> Buy | None:
    """The seat's newest buy of the round: the one an undo of its buy takes off.

    Undo goes newest first, so every later change of that seat's buys is undone already: its
    newest buy is the one the buy made, or the row an undone take-back put back in its place
    (a new row, so the buy's own id, kept in its history entry, may name nothing any more).
    """
    return max((b for b in round_row.buys if b.seat == seat), key=lambda b: b.id or 0, default=None)


def describe(change: Change, names: tuple[str, ...], regular_rounds: int) -> Message:
    """The change as a line of the history the table reads."""
    name = names[change.seat] if change.seat is not None and change.seat < len(names) else ""
    label = round_label(change.round_number, regular_rounds)
    if change.kind == "buy":
        return msg(N_("%(round)s: %(name)s bought a card"), round=label, name=name)
    if change.kind == "buy_removed":
        return msg(N_("%(round)s: a buy by %(name)s taken back"), round=label, name=name)
    if change.kind == "down":
        return msg(N_("%(round)s: %(name)s laid down the contract"), round=label, name=name)
    if change.kind == "down_removed":
        return msg(N_("%(round)s: %(name)s is not down after all"), round=label, name=name)
    if change.kind == "run_out":
        return msg(N_("%(round)s: the stock ran out"), round=label)
    if change.kind == "undo":
        # an entry of the history, not the button: "Änderung rückgängig gemacht", "Se deshizo"
        return Message(C_("change history", "Undo"), context="change history")
    if change.kind == "create":
        return msg(N_("Game started"))
    if change.kind == "rotate_link":
        if (change.after or {}).get("role") == "edit":
            return msg(N_("The edit link was replaced"))
        return msg(N_("The view link was replaced"))
    return _describe_result(change, names, label)


def describe_entries(change: Change, names: tuple[str, ...]) -> Message | None:
    """Who entered a saved round's hands, when some came from the players' own phones: those
    by name, the rest the scorekeeper's (who saves every round)."""
    after = change.after or {}
    phones = set(after.get("from_phones") or ())
    if change.kind != "result" or not phones:
        return None
    seats = [result["seat"] for result in after["results"] if result["seat"] < len(names)]
    own = tuple(names[seat] for seat in seats if seat in phones)
    kept = tuple(names[seat] for seat in seats if seat not in phones)
    if not kept:
        every = N_("Every hand entered on its player's phone (%(own)s), saved by the scorekeeper.")
        return msg(every, own=own)
    some = N_(
        "Entered on their own phones: %(own)s. "
        "Entered by the scorekeeper, who saved the round: %(kept)s."
    )
    return msg(some, own=own, kept=kept)


def round_label(number: int | None, regular_rounds: int) -> Message:
    """A round as the sheet names it: "Round 3", or "Tiebreaker round 1" after the last."""
    if number is not None and number > regular_rounds:
        return msg(N_("Tiebreaker round %(number)s"), number=number - regular_rounds)
    return msg(N_("Round %(number)s"), number=number)


def _describe_result(change: Change, names: tuple[str, ...], label: Message) -> Message:
    """A saved or corrected round end: who went out, or each score that changed."""
    after = change.after or {"results": []}
    if change.before is None:
        out = next((r["seat"] for r in after["results"] if r["went_out"]), None)
        if out is None:
            return msg(N_("%(round)s: the stock ended it"), round=label)
        return msg(N_("%(round)s: %(name)s went out"), round=label, name=names[out])
    old = {r["seat"]: r for r in change.before["results"]}
    moves = tuple(
        f"{names[r['seat']]} {_shown(old.get(r['seat']))} → {_shown(r)}"
        for r in after["results"]
        if _shown(old.get(r["seat"])) != _shown(r)
    )
    if not moves:
        return msg(N_("%(round)s: re-entered unchanged"), round=label)
    return msg(N_("%(round)s: %(moves)s"), round=label, moves=moves)


def _shown(result: dict[str, Any] | None) -> str:
    """A hand as the history shows it: its points (0 for going out)."""
    if result is None:
        return "–"
    return "0" if result["went_out"] else str(result["points"])
