"""When a card party's evening ends (docs/RULES.md 12)."""

from __future__ import annotations

from datetime import datetime, timedelta

IDLE = timedelta(hours=6)  # an evening none of whose games changed for this long has ended


def evening_end(last_change: datetime, ended_by_organiser: datetime | None = None) -> datetime:
    """The evening ends when the organiser ends it, or 6 hours after its games last changed."""
    idle_end = last_change + IDLE
    if ended_by_organiser is not None and ended_by_organiser < idle_end:
        return ended_by_organiser
    return idle_end


def evening_over(
    last_change: datetime, now: datetime, ended_by_organiser: datetime | None = None
) -> bool:
    """Whether the evening has ended by `now`: ended by the organiser, or 6 hours idle."""
    return now >= evening_end(last_change, ended_by_organiser)
