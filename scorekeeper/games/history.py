"""The change history: every action written with what it replaced, so it can be undone.

The one change path: every change any phone can see (the scorekeeper's play, a seat's call or
hand, a rename or merge at the table) writes its entry and moves the game's version with
`write`, under the game's lock, in plain statements (games/writes.py); a new game's first entry
is `add`'s. Nothing else moves a version (tests/test_layers.py). Who made a change follows from
its kind (`actor_of`): each kind is one door's. What an entry holds before and
after is plain data of fixed shapes (a round's end as `snapshot` has it, for one), which
undo puts back (games/writes.take_back) and a table's backup carries
(tables/backup/replay.py): they never change, or older histories could not be undone.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm.attributes import set_committed_value

from .. import version_map
from ..extensions import db
from ..models import Change, Game, utcnow
from ..rules.game_facts import GameFacts, RoundFacts
from ..rules.messages import C_, N_, Message, msg

# Every kind of change the history holds; the API and the backup name them with this list.
ChangeKind = Literal[
    "create", "buy", "buy_removed", "down", "down_removed", "run_out", "result", "undo",
    "rotate_link", "call", "calls_dismissed", "hand_entered", "hand_sent_back", "rename",
    "merge", "unmerge", "rematch",
]  # fmt: skip
Actor = Literal["scorekeeper", "seat", "table"]
# The scorekeeper's changes of the play, which undo takes back (links stay replaced).
UNDOABLE = ("buy", "buy_removed", "down", "down_removed", "run_out", "result")
# The play's changes and the links': where a stale write looks unless told otherwise (the
# phones' hands have their own check, games/round_end.py; a call replaces nothing).
PLAY = ("create", *UNDOABLE, "undo", "rotate_link")
BY_SEAT, BY_TABLE = ("call", "hand_entered"), ("rename", "merge", "unmerge")
HANDS = ("hand_entered", "hand_sent_back")  # what a phone's entry went through


def actor_of(kind: str) -> Actor:
    """Who made a change of this kind: the seat it names, the table, or the scorekeeper."""
    return "seat" if kind in BY_SEAT else "table" if kind in BY_TABLE else "scorekeeper"


def add(game: Game, kind: str, action_id: str | None, **facts: Any) -> Change:
    """Add one change to a new game's history (actions.create_game) and bump its version."""
    change = Change(game_id=game.id, kind=kind, action_id=action_id or None, **facts)
    game.version += 1
    change.version = game.version
    db.session.add(change)
    game.updated_at = utcnow()
    return change


# Built once (database.GAME_ROW says why).
ENTRY = insert(Change)
BUMP = (
    update(Game)
    .where(Game.id == bindparam("game"), Game.version == bindparam("seen"))
    .values(version=bindparam("to"), updated_at=bindparam("at"))
)


def write(
    game_id: int,
    version: int,
    kind: str,
    action_id: str | None,
    round_number: int | None,
    **facts: Any,
) -> tuple[int, datetime]:
    """Write one change to the game's history and bump its version, one INSERT and one
    UPDATE (games/writes.py); answers the new version and the time of the change.

    A fact not given is SQL NULL; a None given is written as the ORM wrote it (SQL NULL for a
    seat, the JSON text null for `before`: a round's first end), so histories stay as they were.
    `version` is the one read with the game's lock, so the bump finds it: anything else is a
    change that skipped the lock, refused here rather than left for a kept state to hide.
    """
    now, bumped = utcnow(), version + 1
    row = {"game_id": game_id, "action_id": action_id or None, "kind": kind, "version": bumped}
    connection = db.session.connection()
    connection.execute(ENTRY, row | facts | {"round_number": round_number})
    moved = connection.execute(BUMP, {"game": game_id, "seen": version, "to": bumped, "at": now})
    if moved.rowcount != 1:
        raise RuntimeError(f"game {game_id} is no longer at version {version}")
    version_map.moving(game_id, bumped, (version_map.GAME,) if kind == "rotate_link" else ())
    return bumped, now


def already_done(game: Game | GameFacts, action_id: str | None) -> bool:
    """Whether this one-time form token was already used: a double tap counts once."""
    if not action_id:
        return False
    done = db.session.connection().scalar(_DONE, {"game": game.id, "action": action_id})
    return done is not None


# Built once, as ENTRY and BUMP are (database.GAME_ROW says why).
_DONE = select(Change.id).where(
    Change.game_id == bindparam("game"), Change.action_id == bindparam("action")
)


def changes_since(
    game: Game | GameFacts,
    version: int,
    round_number: int | None = None,
    seat: int | None = None,
    kinds: tuple[str, ...] = PLAY,
) -> list[Change]:
    """Changes of these kinds made after the version a phone saw, optionally to one round or
    one seat.

    `game` is read with its lock, so a phone that saw its version has missed nothing and no
    query is made. Issue 37, a round's end saved by the form at the version it was drawn on
    (its two checks; `bench/cost_table.py`'s request, callgrind, SQLite): 2 statements and
    11.3 M -> 8.07 M instructions (-28 %).
    """
    if version >= game.version:
        return []
    query = select(Change).where(
        Change.game_id == game.id, Change.version > version, Change.kind.in_(kinds)
    )
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
            Change.kind.in_(("create", *UNDOABLE)),
        )
        .order_by(Change.id.desc())
        .limit(1)
    )
    return db.session.scalar(query)


def mark_undone(change: Change) -> None:
    """Mark a change undone (one UPDATE), and the loaded row with it: undo passes it by now."""
    now = utcnow()
    db.session.connection().execute(
        update(Change).where(Change.id == change.id).values(undone_at=now)
    )
    set_committed_value(change, "undone_at", now)  # as stored: no flush writes it again


def snapshot(played: RoundFacts) -> dict[str, Any] | None:
    """A round's end as plain data: how it ended and every hand; None while it is open."""
    if not played.results:
        return None
    return {
        "ended_by_stock": played.ended_by_stock,
        "cut_bonus_seat": played.cut_bonus_seat,
        "results": [
            {"seat": r.seat, "went_out": r.went_out, "points": r.points, "cards": r.cards}
            for r in played.results
        ],
    }


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
    if change.kind == "rematch":
        return msg(N_("The next game was started (Play again)"))
    if change.kind == "rotate_link":
        if (change.after or {}).get("role") == "edit":
            return msg(N_("The edit link was replaced"))
        return msg(N_("The view link was replaced"))
    if change.kind in (*BY_SEAT, *HANDS, "calls_dismissed"):
        return _describe_phones(change, name, label)
    if change.kind in BY_TABLE:
        return _describe_people(change)
    return _describe_result(change, names, label)


def _describe_phones(change: Change, name: str, label: Message) -> Message:
    """A seat's call or hand from its phone, or the scorekeeper's answer to one."""
    after = change.after or {}
    if change.kind == "call":
        return msg(N_("%(round)s: %(name)s called from their phone"), round=label, name=name)
    if change.kind == "calls_dismissed":
        return msg(N_("%(round)s: the scorekeeper dismissed the open calls"), round=label)
    if change.kind == "hand_sent_back":
        if after.get("note"):
            said = N_("%(round)s: the scorekeeper sent %(name)s's hand back: “%(note)s”")
            return msg(said, round=label, name=name, note=after["note"])
        return msg(
            N_("%(round)s: the scorekeeper sent %(name)s's hand back"), round=label, name=name
        )
    if after.get("went_out"):
        return msg(
            N_("%(round)s: %(name)s said on their phone they went out"), round=label, name=name
        )
    said = N_("%(round)s: %(name)s entered their hand on their phone: %(points)s")
    return msg(said, round=label, name=name, points=_counted(after.get("points")))


def _describe_people(change: Change) -> Message:
    """A rename, a merge or an undone merge at the game's table, with the names it moved."""
    old, new = (change.before or {}).get("name", ""), (change.after or {}).get("name", "")
    if change.kind == "rename":
        return msg(N_("%(old)s is called %(new)s now (renamed at the table)"), old=old, new=new)
    if change.kind == "merge":
        return msg(N_("%(old)s counts as %(new)s now (merged at the table)"), old=old, new=new)
    return msg(N_("%(new)s counts as a person of their own again (at the table)"), new=new)


def _counted(points: object) -> str:
    """An entry's points as the history shows them ("?" for cards that no longer fit)."""
    return "?" if points is None else str(points)


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
