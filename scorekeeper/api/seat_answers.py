"""What the API answers about seats: each seat's link (for the edit link), a hand entered on a
seat's phone."""

from __future__ import annotations

from typing import Literal

from ..games.pending_hands import PendingHand as Entered
from ..rules.game_state import GameState
from ..rules.round_end import entered_points
from .answer_base import Answer, Count


class SeatLink(Answer):
    """One seat's own link: its token opens that seat's page and endpoints, nothing else."""

    seat: Count
    name: str
    token: str


class NextGame(Answer):
    """The game Play again started after this one, and the link to it that the asking link
    leads to: an edit link's the edit link, a view link's the view link, a seat link's the link
    of its own player's seat (`seat`), never another's."""

    id: Count
    token: str
    seat: Count | None  # the seat the token opens; null for a game's edit or view link


class PendingHand(Answer):
    """A hand entered on a seat's phone for the round being played: pending until the
    scorekeeper saves the round (which clears it), or sent back with the scorekeeper's note."""

    seat: Count
    name: str
    round: Count
    went_out: bool
    points: Count | None  # what it counts (0 for going out); null: its cards no longer fit
    cards: dict[str, Count] | None  # counted per rank code, when the cards were tapped
    cut_bonus: bool
    status: Literal["pending", "sent_back"]
    note: str | None

    @classmethod
    def of(cls, state: GameState, entry: Entered) -> PendingHand:
        """An entry as the API answers it."""
        return cls(
            seat=entry.seat,
            name=state.names[entry.seat],
            round=entry.round_number,
            went_out=entry.went_out,
            points=entered_points(state, entry),
            cards=dict(entry.cards) if entry.cards else None,
            cut_bonus=entry.cut_bonus,
            status="pending" if entry.waiting else "sent_back",
            note=entry.note,
        )
