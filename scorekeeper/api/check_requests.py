"""What the rules engine's checks read: a hand to count, a meld or laydown to check."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import (
    Discriminator,
    Tag,
)

from .fields import (
    Cards,
    Counts,
    MeldKind,
    Whole,
)
from .request_base import ABSENT, MAY_I, Body, RuleSetChoice


class TallyRequest(Body):
    """A hand to count, as cards or counted per rank, at a table of players and decks."""

    choices: ClassVar[tuple[str, ...]] = ("cards", "counts")
    choices_at: ClassVar[str] = "cards"  # at the top, "" would stand for the whole request
    ruleset: RuleSetChoice = MAY_I
    players: Whole = 4
    decks: Whole | None = None
    cards: Cards = ABSENT
    counts: Counts = ABSENT


class OneMeld(Body):
    """One book or run, at the lengths of a round's contract when a round is named, from the
    decks of a table of `players` (or its chosen `decks`)."""

    ruleset: RuleSetChoice = MAY_I
    players: Whole = 4
    decks: Whole | None = None
    meld: Cards
    kind: MeldKind
    round: Whole | None = None


class Laydown(Body):
    """A laydown checked against a round's contract, from the decks of a table of `players`."""

    ruleset: RuleSetChoice = MAY_I
    players: Whole = 4
    decks: Whole | None = None
    melds: list[Cards]
    round: Whole


def _meld_or_laydown(value: Any) -> str:
    return "meld" if isinstance(value, dict) and "meld" in value else "melds"


MeldCheckRequest = Annotated[
    Annotated[OneMeld, Tag("meld")] | Annotated[Laydown, Tag("melds")],
    Discriminator(_meld_or_laydown),
]
