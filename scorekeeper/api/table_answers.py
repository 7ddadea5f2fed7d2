"""A table as the API answers it, declared once: its people, games, record, links and restores."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..i18n import translate_text
from ..link_tokens import Role
from ..models import CardTable, TablePlayer, iso
from ..rules.game_state import GameState
from ..rules.ruleset import Contract
from ..rules.stats import HeadToHead, PlayerRecord
from ..tables import people
from ..tables.backup import Imported
from ..tables.figures import Filters
from ..tables.games import GamesPage
from .answer_base import Answer, Count, Score, Timestamp
from .answers import NewLinks
from .house_rules import SavedRuleSet


class Person(Answer):
    """A person of the table; a merged spelling names the person it counts as."""

    id: Count
    name: str
    merged_into: Count | None

    @classmethod
    def of(cls, player: TablePlayer) -> Person:
        return cls(id=player.id, name=player.name, merged_into=player.merged_into_id)


class SimilarPair(Answer):
    """Two people whose names look like one person typed two ways: offered for merging."""

    first: Person
    second: Person


class TableGame(Answer):
    """A game of the table as its list shows it, with the link this request's role opens."""

    id: Count
    token: str = Field(
        description="The game's edit link token for the table's edit link, else its view link's."
    )
    players: list[str]
    ruleset: str
    ruleset_name: str
    created_at: Timestamp
    finished: bool
    winners: list[str]
    after_tiebreaker: bool

    @classmethod
    def of(cls, state: GameState, role: Role) -> TableGame:
        game = state.facts
        return cls(
            id=game.id,
            token=game.edit_token if role == "edit" else game.view_token,
            players=list(state.names),
            ruleset=state.rules.key,
            ruleset_name=state.rules.name,
            created_at=iso(game.created_at) or "",
            finished=state.finished,
            winners=list(state.winner_names) if state.finished else [],
            after_tiebreaker=state.finished and bool(state.tiebreakers),
        )


class TableGames(Answer):
    """A page of the table's games, newest first; ask for `older` with ?before= for the next."""

    games: list[TableGame]
    older: Count | None
    total: Count

    @classmethod
    def of(cls, page: GamesPage, role: Role) -> TableGames:
        games = [TableGame.of(state, role) for state in page.games]
        return cls(games=games, older=page.older, total=page.total)


class Table(Answer):
    """A table: who opened it (edit or view), its people, merges, merge offers, newest games."""

    id: Count
    name: str
    role: Literal["edit", "view"]
    created_at: Timestamp
    people: list[Person]
    merged: list[Person] = Field(description="Merged spellings, newest merge first.")
    similar: list[SimilarPair]
    games: TableGames

    @classmethod
    def fields_of(cls, table: CardTable, role: Role, page: GamesPage) -> dict[str, object]:
        """The table's fields, for this answer or one that adds to it."""
        return {
            "id": table.id,
            "name": table.name,
            "role": role,
            "created_at": iso(table.created_at),
            "people": [Person.of(p) for p in people.people(table)],
            "merged": [Person.of(p) for p in people.merged(table)],
            "similar": [
                SimilarPair(first=Person.of(a), second=Person.of(b))
                for a, b in people.similar(table)
            ],
            "games": TableGames.of(page, role),
        }


class TableCreated(Table):
    """A new table, with the tokens of its edit and view links."""

    links: NewLinks


class ContractAverage(Answer):
    """Average points per round of one contract."""

    contract: Contract
    average: float


class Figures(Answer):
    """One person's figures over the games the filters keep (docs/RULES.md, "Stats")."""

    person: Person
    played: Count
    won: Count
    win_rate: float | None
    average: float | None
    best: Score | None
    worst: Score | None
    rounds_out: Count
    buys: Count
    tiebreaks: Count
    by_contract: list[ContractAverage]
    costliest: Contract | None
    totals: list[Score] = Field(description="Their total in each game, oldest first.")

    @classmethod
    def of(cls, person: TablePlayer, record: PlayerRecord) -> Figures:
        return cls(
            person=Person.of(person),
            played=record.played,
            won=record.won,
            win_rate=record.win_rate,
            average=record.average,
            best=record.best,
            worst=record.worst,
            rounds_out=record.rounds_out,
            buys=record.buys,
            tiebreaks=record.tiebreaks,
            by_contract=[
                ContractAverage(contract=c, average=a) for c, a in record.by_contract.items()
            ],
            costliest=record.costliest,
            totals=list(record.totals),
        )


class RecordFilters(Answer):
    """The filters the figures are under: a rule set (a preset's key, or `house:` and a house
    set's name), and the first and last day."""

    ruleset: str | None
    since: str | None
    until: str | None

    @classmethod
    def of(cls, filters: Filters) -> RecordFilters:
        since, until = filters.since, filters.until
        return cls(
            ruleset=filters.ruleset or None,
            since=since.isoformat() if since else None,
            until=until.isoformat() if until else None,
        )


class Record(Answer):
    """Each person's figures: most wins first, then the lower average, then by name."""

    filters: RecordFilters
    people: list[Figures]
    house_sets: list[str] = Field(
        description="The house sets the table has played, by name; `ruleset=house:<name>` "
        "keeps one's games."
    )


class Versus(Answer):
    """Head-to-head with another person over the games both played."""

    other: Person
    games: Count
    ahead: Count
    behind: Count
    even: Count

    @classmethod
    def of(cls, other: TablePlayer, score: HeadToHead) -> Versus:
        return cls(
            other=Person.of(other),
            games=score.games,
            ahead=score.first_ahead,
            behind=score.second_ahead,
            even=score.even,
        )


class PersonRecord(Answer):
    """A person's figures and head-to-head with each person they played, as their page shows."""

    filters: RecordFilters
    figures: Figures
    versus: list[Versus]


class Merged(Answer):
    """A merge done: the spelling now counts as `into`, and how many games moved."""

    merged: Person
    into: Person
    games_moved: Count


class TableHead(Answer):
    id: Count
    name: str


class Restored(Answer):
    """What a restore added, and where the file and the table differ (the table's kept)."""

    table: TableHead
    links: NewLinks
    added_nothing: bool
    players_added: Count
    games_added: Count
    house_rules_added: Count
    house_rules: list[SavedRuleSet] = Field(
        description="The house rule sets the restore added, each with its own new token."
    )
    differences: list[str]

    @classmethod
    def of(cls, done: Imported) -> Restored:
        table = done.table
        return cls(
            table=TableHead(id=table.id, name=table.name),
            links=NewLinks(edit_token=table.edit_token, view_token=table.view_token),
            added_nothing=done.added_nothing,
            players_added=done.players_added,
            games_added=done.games_added,
            house_rules_added=done.house_rules_added,
            house_rules=[SavedRuleSet.of(saved) for saved in done.new_house_rules],
            differences=[translate_text(found) for found in done.differences],
        )
