"""What the API answers besides a game, declared once: built and documented from these."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..games.history import Actor, ChangeKind, actor_of, describe
from ..i18n import translate_text
from ..models import Change as ChangeRow
from ..models import iso
from ..rules.arbiter import BuyRuling
from ..rules.ruleset import RuleSet
from .answer_base import Answer, Count, Timestamp
from .game_answers import Game

MeldKind = Literal["book", "run"]


class RuleSetEntry(Answer):
    """A rule set with its key and name up front."""

    key: str
    name: str
    rules: RuleSet

    @classmethod
    def of(cls, rules: RuleSet) -> RuleSetEntry:
        return cls(key=rules.key, name=rules.name, rules=rules)


class NewLinks(Answer):
    edit_token: str
    view_token: str


class GameCreated(Game):
    """A new game, with the tokens of its edit and view links."""

    links: NewLinks


class GameWithWarnings(Game):
    """A game after a round's result, with any warnings about the hands entered."""

    warnings: list[str]


class Refusal(Answer):
    seat: Count
    reason: str


class Ruling(Answer):
    """Who gets the discard, whether it is a buy, why each other caller does not; what was kept."""

    winner: Count | None
    is_buy: bool
    refusals: list[Refusal]
    explanation: str
    recorded: bool
    game: Game | None

    @classmethod
    def of(cls, ruling: BuyRuling, game: Game | None) -> Ruling:
        """The arbiter's ruling in the request's language, and the game if a buy was added."""
        return cls(
            winner=ruling.winner,
            is_buy=ruling.is_buy,
            refusals=[
                Refusal(seat=seat, reason=translate_text(reason))
                for seat, reason in ruling.refusals.items()
            ],
            explanation=translate_text(ruling.explanation),
            recorded=game is not None,
            game=game,
        )


class RunOut(Answer):
    """Which run-out of the round this was, whether it ends the round, and what to do now."""

    number: Count
    ends_round: bool
    instruction: str
    game: Game


class Change(Answer):
    """One line of the history."""

    id: Count
    kind: ChangeKind
    by: Actor  # who made it: the scorekeeper, the seat it names, or the table
    round: Count | None
    seat: Count | None
    text: str
    # a saved round's hands entered on the players' own phones; the others the scorekeeper's
    from_phones: list[Count]
    created_at: Timestamp
    undone: bool

    @classmethod
    def of(cls, change: ChangeRow, names: tuple[str, ...], regular_rounds: int) -> Change:
        """A change as the table reads it."""
        return cls.model_validate(
            {
                "id": change.id,
                "kind": change.kind,
                "by": actor_of(change.kind),
                "round": change.round_number,
                "seat": change.seat,
                "text": translate_text(describe(change, names, regular_rounds)),
                "from_phones": (change.after or {}).get("from_phones") or [],
                "created_at": iso(change.created_at),
                "undone": change.undone_at is not None,
            }
        )


class Links(Answer):
    """Both links of a game, after one was replaced."""

    edit: str
    view: str


class GameVersion(Answer):
    """The game's version alone."""

    version: Count


class Tally(Answer):
    """A hand's penalty points."""

    points: Count


class MeldCheck(Answer):
    """Whether the meld or laydown is good; if not, why, and which meld and kind failed."""

    ok: bool
    reason: str | None
    kind: MeldKind | None
    meld: Count | None


class Problem(Answer):
    """What went wrong (RFC 9457), with messages per field in the request's language."""

    type: str
    title: str
    status: int
    detail: str
    errors: dict[str, list[str]] = Field(
        description='Messages per input field ("hands.2", "ruleset.rounds.0.deal").'
    )


class Conflict(Problem):
    """A change that lost a race or was built on an old version, and the game as it now stands."""

    game: Game = Field(description="The game as it now stands: check it, then send it again.")
