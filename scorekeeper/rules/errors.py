"""Errors the rules engine raises for input that breaks a rule."""

from __future__ import annotations

from .messages import N_, Message, msg


class RuleError(ValueError):
    """A game rule refuses this input; `message` is for the table, `field` says where."""

    def __init__(self, message: Message, field: str | None = None) -> None:
        super().__init__(message.render())
        self.message = message
        self.field = field


class CardParseError(RuleError):
    """A card token could not be read."""

    def __init__(self, token: str) -> None:
        super().__init__(msg(N_("Not a card: %(token)s"), token=token), field="cards")
        self.token = token


class RuleSetInvalid(RuleError):
    """A rule set breaks one or more checks; `errors` maps each field path to its problems."""

    def __init__(self, errors: dict[str, list[Message]]) -> None:
        first = next(iter(errors.values()))[0]
        super().__init__(first, field=next(iter(errors)))
        self.errors = errors
