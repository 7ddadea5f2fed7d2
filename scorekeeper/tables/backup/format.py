"""The JSON backup of a table, declared once (exports write it, imports read it, OpenAPI shows
it), and a file read against it: refused with the reason and the place; nothing here writes.

Every stored fact of the table is in it: its links and the links it replaced, its people and
merges, each game with its frozen rule set, seats, rounds, hands, buys, history, replaced
links and its seats' links (replaced ones too), its card parties (each evening's settings,
people and their links, rounds and its own changes), and the saved house rule sets its start
form offers. Database ids are not: people are named by `uid`, games by their edit link,
evenings by their people's links, house rule sets by name and rules, so the same file imported
twice adds nothing.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError

from ...games.history import ChangeKind
from ...models import LARGEST_INTEGER
from ...rules.errors import RuleError
from ...rules.messages import N_, Message, msg
from ...rules.player_names import BREAKS, INVISIBLE, clean_name
from ..people import clean_table_name

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
    on restore, in backup.replay)."""

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


class BackupPartyPerson(Part):
    """Someone at an evening, with their own "my seat tonight" link."""

    uid: str = Uid
    token: str = Token


class BackupPartyGame(Part):
    """One table's game in one round of the evening, by the game's edit link."""

    round: int = Field(ge=1, le=10_000)
    table_number: int = Field(ge=1, le=8)
    game: str = Field(min_length=16, max_length=64, pattern=TOKEN)


class BackupPartyChange(Part):
    """One of the evening's own changes; the people it names are uids (checked with the
    evening, in backup.evenings)."""

    kind: Literal["start", "redraw", "swap", "confirm", "end"]
    after: dict[str, Any] | None = None
    version: int = Count
    created_at: Timestamp


class BackupParty(Part):
    """A card party: what the organiser chose, who came, and which game each table played."""

    rules: dict[str, Any]
    tables: int | None = Field(default=None, ge=1, le=8)
    rotation: Literal["progressive", "by_standings", "mix"]
    rotate_every: int = Field(ge=1, le=10)
    seed: int = Field(ge=0, le=2**31 - 1)
    seating: list[list[str]] | None = Field(default=None, max_length=8)  # uids by table
    state: Literal["drawing", "playing", "ended"]
    version: int = Count
    started_at: Timestamp
    updated_at: Timestamp
    ended_at: Timestamp | None = None
    people: list[BackupPartyPerson] = Field(min_length=1, max_length=64)
    games: list[BackupPartyGame] = Field(max_length=10_000)
    changes: list[BackupPartyChange] = Field(max_length=10_000)


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
    # Older files have none: they were written before card parties.
    parties: list[BackupParty] = []


SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # \ud800 to \udfff, as JSON writes them


class BackupRefused(Exception):
    """A file that cannot be imported, with the reason; nothing was changed."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.render())
        self.message = message


def read_backup(data: bytes) -> Backup:
    """The file as a Backup whose texts and references the app can keep, else the reason."""
    backup = _parsed(data)
    _check_texts(backup)
    _check_people(backup)
    for number, game in enumerate(backup.games):
        _check_game(backup, number, game)
    tokens = Counter(game.edit_token for game in backup.games)
    if any(count > 1 for count in tokens.values()):
        raise BackupRefused(msg(N_("The backup holds one game twice.")))
    for number, game in enumerate(backup.games):
        if game.rematch is not None and game.rematch not in tokens.keys() - {game.edit_token}:
            raise _broken(f"games.{number}.rematch")
    return backup


def _parsed(data: bytes) -> Backup:
    """The file as a Backup of our format and version, else the reason it is not one."""
    try:
        raw = json.loads(data)
        if SURROGATE_ESCAPE.search(data):
            # A lone surrogate is no text a database or a page can hold: refused anywhere.
            # Only an escape can make one (raw bytes are decoded strictly): pairs are fine.
            json.dumps(raw, ensure_ascii=False).encode()
    except RecursionError:
        raise BackupRefused(msg(N_("This file is nested too deeply to be a backup."))) from None
    except UnicodeEncodeError:
        raise BackupRefused(msg(N_("This file holds text that is not valid Unicode."))) from None
    except (ValueError, UnicodeDecodeError):
        raise BackupRefused(msg(N_("This file is not JSON."))) from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise BackupRefused(msg(N_("This file is not a Scorekeeper table backup.")))
    if raw.get("version") != VERSION:
        message = N_("This backup has version %(found)s; this app reads version %(version)s.")
        raise BackupRefused(msg(message, found=str(raw.get("version"))[:20], version=VERSION))
    try:
        return Backup.model_validate(raw)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        reason = (first.get("ctx") or {}).get("message")
        if isinstance(reason, Message):
            raise refused_at(where, reason) from None
        raise BackupRefused(msg(N_("The backup is broken at %(where)s."), where=where)) from None


def refused_at(where: str, reason: Message) -> BackupRefused:
    """A refusal of one value of the file, with its place and the reason."""
    return BackupRefused(
        msg(N_("The backup is refused at %(where)s: %(reason)s"), where=where, reason=reason)
    )


def _check_texts(backup: Backup) -> None:
    """Names as the app keeps them (clean, visible); no invisible character in a history token."""
    for number, player in enumerate(backup.players):
        _kept(f"players.{number}.name", player.name, clean_name)
    _kept("table.name", backup.table.name, clean_table_name)
    for number, saved in enumerate(backup.house_rules):
        _kept(f"house_rules.{number}.name", saved.name, str.strip)
    for number, game in enumerate(backup.games):
        for index, change in enumerate(game.changes):
            if change.action_id is not None and not _visible(change.action_id):
                where = f"games.{number}.changes.{index}.action_id"
                raise refused_at(where, msg(N_("Holds an invisible character.")))


def _kept(where: str, name: str, clean: Callable[[str], str]) -> None:
    """Refuse a name the app would not keep as it is: invisible characters, or not clean."""
    if not _visible(name):
        raise refused_at(where, msg(N_("Use only visible letters, digits and marks in a name.")))
    try:
        cleaned = clean(name)
    except RuleError as error:
        raise refused_at(where, error.message) from None
    if cleaned != name:
        reason = msg(N_("The app keeps this name as %(name)s."), name=f"“{cleaned}”")
        raise refused_at(where, reason)


def _visible(text: str) -> bool:
    """No control, format, private-use or unassigned character, no line break (player_names)."""
    return not any(unicodedata.category(char) in INVISIBLE | BREAKS for char in text)


def _check_people(backup: Backup) -> None:
    """Every person once; a merge names another person of the file, and no merges go round."""
    uids = Counter(p.uid for p in backup.players)
    if any(count > 1 for count in uids.values()):
        raise BackupRefused(msg(N_("The backup names a person twice.")))
    for number, player in enumerate(backup.players):
        if player.merged_into is not None and player.merged_into not in uids:
            raise _broken(f"players.{number}.merged_into")
    into = {p.uid: p.merged_into for p in backup.players}
    for number, player in enumerate(backup.players):
        if person_of(player.uid, into) is None:
            # As on the table's page, a merge is into someone who is not merged into them.
            reason = msg(N_("Choose two different people of this table."))
            raise refused_at(f"players.{number}.merged_into", reason)


def person_of(uid: str, into: Mapping[str, str | None]) -> str | None:
    """Who a person counts as after merges, followed to the end; None if they go round."""
    seen = {uid}
    while (next_uid := into.get(uid)) is not None:
        if next_uid in seen:
            return None
        seen.add(next_uid)
        uid = next_uid
    return uid


def _check_game(backup: Backup, number: int, game: BackupGame) -> None:
    """A game's seats name people of the file, once each, counting merges; facts name seats."""
    into = {p.uid: p.merged_into for p in backup.players}
    if any(uid not in into for uid in game.seats):
        raise _broken(f"games.{number}.seats")
    check_one_person_a_seat(f"games.{number}.seats", game.seats, into)
    seats = len(game.seats)
    for played in game.rounds:
        facts = [r.seat for r in played.results] + [b.seat for b in played.buys]
        if any(seat >= seats for seat in [*facts, played.dealer]):
            raise _broken(f"games.{number}.rounds.{played.number}")
    if any(link.seat >= seats for link in game.seat_links):
        raise _broken(f"games.{number}.seat_links")
    current = Counter(link.seat for link in game.seat_links if link.retired_at is None)
    tokens = Counter(link.token for link in game.seat_links)
    if any(count > 1 for count in [*current.values(), *tokens.values()]):
        twice = N_("The backup holds one seat's link twice, at %(where)s.")
        raise BackupRefused(msg(twice, where=f"games.{number}.seat_links"))
    action_ids = Counter(c.action_id for c in game.changes if c.action_id is not None)
    if any(count > 1 for count in action_ids.values()):
        twice = N_("The backup holds one change twice, at %(where)s.")
        raise BackupRefused(msg(twice, where=f"games.{number}.changes"))


def check_one_person_a_seat(where: str, seats: list[str], into: Mapping[str, str | None]) -> None:
    """Refuse a game that seats one person twice, as two spellings merged into one."""
    persons = [person_of(uid, into) for uid in seats]
    if len(set(persons)) != len(persons):
        raise refused_at(where, msg(N_("One person sits at two seats (counting merges).")))


def _broken(where: str) -> BackupRefused:
    """A refusal for a reference that points nowhere."""
    message = N_("The backup refers to something it does not hold, at %(where)s.")
    return BackupRefused(msg(message, where=where))
