"""How the service refuses a change, and the one mapping of refusals to HTTP statuses."""

from __future__ import annotations

from ..rules.errors import RuleError


class Conflict(RuleError):
    """Another phone changed the same thing after this phone last saw the game."""


def status_of(error: RuleError) -> int:
    """409 when another phone got there first, else 422: the rules refuse the change."""
    return 409 if isinstance(error, Conflict) else 422
