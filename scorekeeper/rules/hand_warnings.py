"""Hands the rules take but the table should look at again before the round is saved."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .hand_totals import HandLimits, unusual_total_warning
from .messages import Message
from .scoring import HandResult, zero_warning


@dataclass(frozen=True)
class HandWarning:
    """One hand worth a second look: whose it is, why, at what points, and what to say."""

    seat: int
    kind: Literal["zero", "high"]
    points: int
    message: Message


@dataclass(frozen=True)
class WarnedHand:
    """A hand as the rules accepted it, with what is needed to judge it: its player and limits."""

    seat: int
    name: str
    result: HandResult
    limits: HandLimits


def hand_warnings(hands: Sequence[WarnedHand]) -> tuple[HandWarning, ...]:
    """Every warning of a round's hands, in seat order: a zero without going out, a high hand."""
    found: list[HandWarning] = []
    for hand in hands:
        points = hand.result.points
        zero = zero_warning(hand.result, hand.name)
        if zero is not None:
            found.append(HandWarning(hand.seat, "zero", points, zero))
        high = unusual_total_warning(hand.limits, hand.name, points)  # going out counts 0
        if high is not None:
            found.append(HandWarning(hand.seat, "high", points, high))
    return tuple(found)


def acknowledgement(warnings: Sequence[HandWarning]) -> str:
    """The token a "Save anyway" sends back: exactly these warnings, and no others."""
    return " ".join(f"{w.seat}:{w.kind}:{w.points}" for w in warnings)


def acknowledged(warnings: Sequence[HandWarning], token: str | None) -> bool:
    """Whether the table confirmed exactly the warnings these hands raise (none need none)."""
    return not warnings or (token or "").strip() == acknowledgement(warnings)
