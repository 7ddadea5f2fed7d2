"""The JSON backup of a table, declared once: exports write it, imports read it, OpenAPI shows it.

Every stored fact of the table is in it: its links, its people and merges, each game with
its frozen rule set, seats, rounds, hands, buys and history, and the saved house rule sets its
start form offers. Database ids are not: people are named by `uid`, games by their edit link,
house rule sets by name and rules, so the same file imported twice adds nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

FORMAT = "scorekeeper-table-backup"
VERSION = 1
Token = Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
Count = Field(ge=0, le=2**31 - 1)  # fits the database's integer columns
Uid = Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")


class Part(BaseModel):
    """A part of the backup: unknown fields are refused, so a typo is not silently dropped."""

    # from_attributes: a stored row reads into its backup form field by field.
    model_config = ConfigDict(extra="forbid", from_attributes=True)


class BackupPlayer(Part):
    """A person of the table; `merged_into` names the person a merged spelling counts as."""

    uid: str = Uid
    name: str = Field(min_length=1, max_length=40)
    merged_into: str | None = None
    merged_at: datetime | None = None
    created_at: datetime


class BackupResult(Part):
    """One hand at the end of a round."""

    seat: int = Field(ge=0, le=7)
    went_out: bool
    points: int = Field(ge=0, le=10_000)
    cards: dict[str, int] | None = None


class BackupBuy(Part):
    """One "May I?" buy."""

    seat: int = Field(ge=0, le=7)
    created_at: datetime


class BackupRound(Part):
    """A round as played."""

    number: int = Field(ge=1, le=100)
    dealer: int = Field(ge=0, le=7)
    tiebreak_seats: list[int] | None = Field(default=None, max_length=8)
    down_seats: list[int] | None = Field(default=None, max_length=8)  # who was marked down
    run_outs: int = Field(ge=0, le=10)
    ended_by_stock: bool
    cut_bonus_seat: int | None = Field(default=None, ge=0, le=7)
    ended_at: datetime | None = None
    results: list[BackupResult]
    buys: list[BackupBuy]


class BackupChange(Part):
    """One entry of a game's history, with what it replaced."""

    action_id: str | None = Field(default=None, max_length=64)
    kind: str = Field(max_length=32)
    round_number: int | None = Field(default=None, ge=0, le=1000)
    seat: int | None = Field(default=None, ge=0, le=7)
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    version: int = Count
    created_at: datetime
    undone_at: datetime | None = None


class BackupGame(Part):
    """A game with its frozen rule set (the house rules it was played under) and every fact."""

    edit_token: str = Token
    view_token: str = Token
    rules: dict[str, Any]
    first_dealer: int = Field(ge=0, le=7)
    dealer_was_cut: bool
    decks: int | None = Field(default=None, ge=1, le=8)
    version: int = Count
    created_at: datetime
    updated_at: datetime
    seats: list[str] = Field(min_length=2, max_length=8)  # the uid of the person at each seat
    rounds: list[BackupRound]
    changes: list[BackupChange]


class BackupHouseRules(Part):
    """A saved house rule set, as the start form offers it: its name and its rules."""

    name: str = Field(min_length=1, max_length=80)
    rules: dict[str, Any]
    created_at: datetime
    updated_at: datetime


class BackupTable(Part):
    """The table itself and its links."""

    uid: str = Uid
    name: str = Field(min_length=1, max_length=60)
    edit_token: str = Token
    view_token: str = Token
    created_at: datetime


class Backup(Part):
    """A whole table: download it from the table's page, import it on the home page."""

    format: Literal["scorekeeper-table-backup"] = FORMAT
    version: Literal[1] = VERSION
    table: BackupTable
    players: list[BackupPlayer]
    games: list[BackupGame]
    # Saved sets are the installation's, offered at every table; older files have none.
    house_rules: list[BackupHouseRules] = []
