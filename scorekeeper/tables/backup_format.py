"""The JSON backup of a table, declared once: exports write it, imports read it, OpenAPI shows it.

Every stored fact of the table is in it: its links and the links it replaced, its people and
merges, each game with its frozen rule set, seats, rounds, hands, buys, history, replaced
links and its seats' links (replaced ones too), and the saved house rule sets its start form
offers. Database ids are not: people are named by `uid`, games by their edit link, house
rule sets by name and rules, so the same file imported twice adds nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from ..games.history import ChangeKind
from ..models import LARGEST_INTEGER
from ..rules.messages import N_, msg

FORMAT = "scorekeeper-table-backup"
VERSION = 1
TOKEN = r"^[A-Za-z0-9_-]+$"
Token = Field(min_length=16, max_length=64, pattern=TOKEN)
Count = Field(ge=0, le=LARGEST_INTEGER)  # fits the database's integer columns
Uid = Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")
# Times every database keeps and gives back: PostgreSQL stores years Python cannot read.
EARLIEST, LATEST = datetime(1970, 1, 1, tzinfo=UTC), datetime(3000, 1, 1, tzinfo=UTC)
OUTSIDE = N_("Must be a time from 1970 to 2999.")


def in_range(moment: datetime) -> datetime:
    """A time in UTC from 1970 to 2999; one without a zone is UTC (SQLite keeps them so)."""
    try:
        utc = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except OverflowError:  # its zone moves it before year 1 or past 9999
        utc = None
    if utc is None or not EARLIEST <= utc < LATEST:
        raise PydanticCustomError("scorekeeper", "{message}", {"message": msg(OUTSIDE)})
    return utc


Timestamp = Annotated[datetime, AfterValidator(in_range)]


class Part(BaseModel):
    """A part of the backup: unknown fields are refused, so a typo is not silently dropped."""

    # from_attributes: a stored row reads into its backup form field by field.
    model_config = ConfigDict(extra="forbid", from_attributes=True)


class BackupPlayer(Part):
    """A person of the table; `merged_into` names the person a merged spelling counts as."""

    uid: str = Uid
    name: str = Field(min_length=1, max_length=40)
    merged_into: str | None = None
    merged_at: Timestamp | None = None
    created_at: Timestamp


class BackupResult(Part):
    """One hand at the end of a round."""

    seat: int = Field(ge=0, le=7)
    went_out: bool
    points: int = Field(ge=0, le=10_000)
    cards: dict[str, int] | None = Field(default=None, max_length=14)  # counts per rank


class BackupBuy(Part):
    """One "May I?" buy."""

    seat: int = Field(ge=0, le=7)
    created_at: Timestamp


class BackupRound(Part):
    """A round as played."""

    number: int = Field(ge=1, le=100)
    dealer: int = Field(ge=0, le=7)
    tiebreak_seats: list[int] | None = Field(default=None, max_length=8)
    down_seats: list[int] | None = Field(default=None, max_length=8)  # who was marked down
    run_outs: int = Field(ge=0, le=10)
    ended_by_stock: bool
    cut_bonus_seat: int | None = Field(default=None, ge=0, le=7)
    ended_at: Timestamp | None = None
    results: list[BackupResult] = Field(max_length=8)
    buys: list[BackupBuy] = Field(max_length=1000)


class BackupChange(Part):
    """One entry of a game's history, with what it replaced (its shape per kind is checked
    on restore, in backup_history)."""

    action_id: str | None = Field(default=None, max_length=64)
    kind: ChangeKind
    round_number: int | None = Field(default=None, ge=0, le=1000)
    seat: int | None = Field(default=None, ge=0, le=7)
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    version: int = Count
    created_at: Timestamp
    undone_at: Timestamp | None = None


class BackupRetiredLink(Part):
    """A link that was replaced: kept so its holder still learns it was replaced (410)."""

    token: str = Token
    retired_at: Timestamp


class BackupSeatLink(Part):
    """A seat's own link; a replaced one keeps its `retired_at`, so its holder learns why (410)."""

    seat: int = Field(ge=0, le=7)
    token: str = Token
    created_at: Timestamp
    retired_at: Timestamp | None = None


class BackupGame(Part):
    """A game with its frozen rule set (the house rules it was played under) and every fact."""

    edit_token: str = Token
    view_token: str = Token
    rules: dict[str, Any]
    first_dealer: int = Field(ge=0, le=7)
    dealer_was_cut: bool
    decks: int | None = Field(default=None, ge=1, le=8)
    version: int = Count
    created_at: Timestamp
    updated_at: Timestamp
    seats: list[str] = Field(min_length=2, max_length=8)  # the uid of the person at each seat
    rounds: list[BackupRound] = Field(max_length=100)
    changes: list[BackupChange]
    # Older files have none: their replaced links answer as unknown ones.
    retired_links: list[BackupRetiredLink] = Field(default=[], max_length=10_000)
    # Older files have none: a restored game's seats get new links, as a new game's do.
    seat_links: list[BackupSeatLink] = Field(default=[], max_length=10_000)
    # The game Play again started after this one, by its edit link (a game of the file).
    rematch: str | None = Field(default=None, min_length=16, max_length=64, pattern=TOKEN)


class BackupHouseRules(Part):
    """A saved house rule set, as the start form offers it: its name and its rules."""

    name: str = Field(min_length=1, max_length=80)
    rules: dict[str, Any]
    created_at: Timestamp
    updated_at: Timestamp


class BackupTable(Part):
    """The table itself and its links."""

    uid: str = Uid
    name: str = Field(min_length=1, max_length=60)
    edit_token: str = Token
    view_token: str = Token
    created_at: Timestamp
    retired_links: list[BackupRetiredLink] = Field(default=[], max_length=10_000)


class Backup(Part):
    """A whole table: download it from the table's page, import it on the home page."""

    format: Literal["scorekeeper-table-backup"] = FORMAT
    version: Literal[1] = VERSION
    table: BackupTable
    players: list[BackupPlayer]
    games: list[BackupGame]
    # Saved sets are the installation's, offered at every table; older files have none.
    house_rules: list[BackupHouseRules] = []
