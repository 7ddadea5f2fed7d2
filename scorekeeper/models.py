"""Facts about tables and games: who sat where, who dealt, each buy, each hand. Never a total."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db

# Every integer column (ids, versions, counts) is an INTEGER: 32 bits on PostgreSQL, so a larger
# number names no row and fits no column, on any database.
LARGEST_INTEGER = 2**31 - 1


def utcnow() -> datetime:
    """The current time in UTC, for timestamps."""
    return datetime.now(UTC)


def iso(moment: datetime | None) -> str | None:
    """A timestamp in ISO 8601 with its offset; SQLite hands it back without one, meaning UTC."""
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC).isoformat()


class CardTable(db.Model):
    """A group that plays together, with its own private links, people and games."""

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(32), unique=True)  # names it in a backup
    name: Mapped[str] = mapped_column(String(60))
    edit_token: Mapped[str] = mapped_column(String(64))
    view_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The family rating (docs/RULES.md 12), off until the table turns it on.
    rating: Mapped[bool] = mapped_column(default=False, server_default=false())

    players: Mapped[list[TablePlayer]] = relationship(
        back_populates="table", order_by="TablePlayer.id", cascade="all, delete-orphan"
    )


class TablePlayer(db.Model):
    """A person of a table; merged into another when the same person was typed two ways."""

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(
        ForeignKey("card_table.id", ondelete="CASCADE"), index=True
    )
    uid: Mapped[str] = mapped_column(String(32), unique=True)  # names them in a backup
    name: Mapped[str] = mapped_column(String(40))
    # The merge is kept as a fact, not applied to the seats, so that it can be undone.
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("table_player.id"))
    merged_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    table: Mapped[CardTable] = relationship(back_populates="players")


class RetiredTableLink(db.Model):
    """A table link that was replaced, so its holder learns why it stopped working."""

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(
        ForeignKey("card_table.id", ondelete="CASCADE"), index=True
    )
    token: Mapped[str] = mapped_column(String(64))
    retired_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Game(db.Model):
    """One game, with a frozen copy of the rule set it started with."""

    __table_args__ = (Index("ix_game_table_newest", "table_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("card_table.id", ondelete="CASCADE"))
    rules_json: Mapped[dict[str, Any]] = mapped_column(JSON)
    first_dealer: Mapped[int]
    dealer_was_cut: Mapped[bool] = mapped_column(default=False)  # the app drew the first dealer
    decks: Mapped[int | None]  # the table's choice where the rules allow one
    version: Mapped[int] = mapped_column(default=0)  # bumped by every change
    # Capability links: whoever holds one may edit (or only view) this game; no accounts.
    # Requests find the game by id and compare the token in constant time (links.py).
    edit_token: Mapped[str] = mapped_column(String(64))
    view_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The game "Play again" started after this one: every phone still on this one follows it.
    rematch_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="SET NULL"))

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )


class Seat(db.Model):
    """A player's place at one game's table, clockwise from 0."""

    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    position: Mapped[int]
    # A game without a table keeps the names it was started with, its own: no other game's
    # spelling shows or changes them. A table's game seats one of the table's people.
    player_name: Mapped[str | None] = mapped_column(String(40))
    table_player_id: Mapped[int | None] = mapped_column(ForeignKey("table_player.id"), index=True)

    game: Mapped[Game] = relationship(back_populates="seats")
    table_player: Mapped[TablePlayer | None] = relationship(lazy="joined")

    @property
    def name(self) -> str:
        """The name shown at this seat: the table person's current name, after any merge."""
        if self.table_player is not None:
            return person_of(self.table_player).name
        assert self.player_name is not None  # every seat has one or the other
        return self.player_name


class Round(db.Model):
    """A round as played: its dealer, stock run-outs and how it ended."""

    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]  # 1-based; tiebreaker rounds follow the regular ones
    dealer: Mapped[int]
    tiebreak_seats: Mapped[list[int] | None] = mapped_column(JSON)  # only for tiebreaker rounds
    run_outs: Mapped[int] = mapped_column(default=0)
    ended_by_stock: Mapped[bool] = mapped_column(default=False)
    cut_bonus_seat: Mapped[int | None]
    down_seats: Mapped[list[int] | None] = mapped_column(JSON)  # whose contract is down, in order
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    game: Mapped[Game] = relationship(back_populates="rounds")
    results: Mapped[list[RoundResult]] = relationship(
        back_populates="round", order_by="RoundResult.seat", cascade="all, delete-orphan"
    )
    buys: Mapped[list[Buy]] = relationship(
        back_populates="round", order_by="Buy.id", cascade="all, delete-orphan"
    )


class RoundResult(db.Model):
    """One player's hand at the end of a round: went out, or the points (and cards) held."""

    __table_args__ = (UniqueConstraint("round_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"))
    seat: Mapped[int]
    went_out: Mapped[bool] = mapped_column(default=False)
    points: Mapped[int] = mapped_column(default=0)
    cards: Mapped[dict[str, int] | None] = mapped_column(JSON)  # counts per rank, when tapped

    round: Mapped[Round] = relationship(back_populates="results")


class Buy(db.Model):
    """One "May I?" buy by one player in one round."""

    id: Mapped[int] = mapped_column(primary_key=True)
    # Indexed: every state load reads a game's buys by round (a full scan at 5,000 games).
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    round: Mapped[Round] = relationship(back_populates="buys")


class Change(db.Model):
    """One user action in a game's history, with what it replaced so it can be undone."""

    __table_args__ = (UniqueConstraint("game_id", "action_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    action_id: Mapped[str | None] = mapped_column(String(64))  # the form's one-time token
    kind: Mapped[str] = mapped_column(String(32))
    round_number: Mapped[int | None]
    seat: Mapped[int | None]
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(default=0)  # the game's version this change made
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class RetiredLink(db.Model):
    """A link that was replaced, so its holder learns why it stopped working."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    token: Mapped[str] = mapped_column(String(64))
    retired_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatLink(db.Model):
    """A seat's own secret link: its holder is that player at this game (docs/RULES.md 11).

    Found by the game's id, compared in constant time (games/seat_links.py); a replaced one
    keeps its row, retired, so its holder learns why it stopped working.
    """

    __table_args__ = (
        Index("ix_seat_link_game_seat", "game_id", "seat"),
        # The live links, and the newest replaced ones, without reading every replaced row.
        Index("ix_seat_link_game_retired", "game_id", "retired_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    seat: Mapped[int]
    token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    retired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SeatCall(db.Model):
    """A "May I?" called from a seat's phone: a request, not a buy, until the scorekeeper
    grants it or dismisses it (docs/RULES.md 11). Stored, so every server process sees it."""

    __table_args__ = (Index("ix_seat_call_game_round", "game_id", "round_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    round_number: Mapped[int]
    seat: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    outcome: Mapped[str | None] = mapped_column(String(16))  # recorded (granted), passed, dismissed


class SeatHand(db.Model):
    """A hand entered on a seat's own phone: pending until the scorekeeper saves the round
    (which clears it) or sends it back with a note (docs/RULES.md 11). One per seat and round."""

    __table_args__ = (UniqueConstraint("game_id", "round_number", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    round_number: Mapped[int]
    seat: Mapped[int]
    went_out: Mapped[bool] = mapped_column(default=False)
    points: Mapped[int | None]  # typed points; None when the cards were tapped or went out
    cards: Mapped[dict[str, int] | None] = mapped_column(JSON)  # counts per rank, when tapped
    cut_bonus: Mapped[bool] = mapped_column(default=False)  # the cutter says they cut exactly
    status: Mapped[str] = mapped_column(String(16), default="pending")  # or sent_back
    note: Mapped[str | None] = mapped_column(String(140))  # the scorekeeper's word, sent back
    action_id: Mapped[str | None] = mapped_column(String(64))  # a double tap submits once
    version: Mapped[int] = mapped_column(default=0)  # the game's version this entry made
    submitted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class HouseRules(db.Model):
    """A table's own rule set, saved under a name; a game copies it, so later edits spare it."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    rules_json: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The set's secret link: found by id, compared in constant time (house_rules.py).
    token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CardParty(db.Model):
    """An evening of a table: several games at once, people moving between them (RULES.md 12).

    It keeps what the organiser chose and did; who played where and how it went are its games'.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(
        ForeignKey("card_table.id", ondelete="CASCADE"), index=True
    )
    rules_json: Mapped[dict[str, Any]] = mapped_column(JSON)  # frozen as a game's
    tables: Mapped[int | None]  # the organiser's number of tables; None: as even as possible
    rotation: Mapped[str] = mapped_column(String(16))  # progressive, by_standings, mix
    rotate_every: Mapped[int] = mapped_column(default=1)  # rounds of the evening per seating
    seed: Mapped[int]  # the draw's: the same seed proposes the same seating
    # The seating the organiser drew or swapped, by table, person ids; None: the rule's own.
    seating: Mapped[list[list[int]] | None] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(String(16), default="drawing")  # playing, ended
    version: Mapped[int] = mapped_column(default=0)  # bumped by each of the evening's changes
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The relatives' read-only link, /w/<id>/<token>; None until the organiser makes one.
    watch_token: Mapped[str | None] = mapped_column(String(64))


class PartyPerson(db.Model):
    """Someone present at an evening, with their own link: "my seat tonight"."""

    __table_args__ = (UniqueConstraint("party_id", "person_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    party_id: Mapped[int] = mapped_column(ForeignKey("card_party.id", ondelete="CASCADE"))
    person_id: Mapped[int] = mapped_column(ForeignKey("table_player.id"), index=True)
    token: Mapped[str] = mapped_column(String(64))


class PartyGame(db.Model):
    """One table's game in one round of the evening; the round's seating is its games' seats."""

    __table_args__ = (UniqueConstraint("party_id", "round", "table_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    party_id: Mapped[int] = mapped_column(ForeignKey("card_party.id", ondelete="CASCADE"))
    round: Mapped[int]  # 1-based round of the evening
    table_number: Mapped[int]  # 1-based; table 1 is the top table
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), unique=True)


class PartyChange(db.Model):
    """One of the evening's own changes (started, drawn again, swapped, confirmed, ended)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    party_id: Mapped[int] = mapped_column(
        ForeignKey("card_party.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(16))
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    version: Mapped[int]  # the evening's version this change made
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


def person_of(player: TablePlayer) -> TablePlayer:
    """Who a table player is after merges: the one they were merged into, followed to the end."""
    seen = {player.id}
    while player.merged_into_id is not None and player.merged_into_id not in seen:
        seen.add(player.merged_into_id)
        player = db.session.get_one(TablePlayer, player.merged_into_id)
    return player
