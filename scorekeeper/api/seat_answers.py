"""What the API answers about seats: each seat's link (for the edit link), a seat's own view."""

from __future__ import annotations

from .answer_base import Answer, Count


class SeatLink(Answer):
    """One seat's own link: its token opens that seat's page and endpoints, nothing else."""

    seat: Count
    name: str
    token: str
