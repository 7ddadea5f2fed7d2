"""The sets this browser may open: their secret links kept in the session, like game links."""

from __future__ import annotations

from .. import house_rules
from ..models import HouseRules
from ..rules.ruleset import RuleSet
from .link_doors import remember_link, remembered_links

REMEMBERED_SETS = 20  # the session is a cookie: a browser keeps its newest sets only


def remember(saved: HouseRules) -> None:
    """Keep the set's link in this browser, so its lists offer the set again."""
    remember_link("house_rules", saved.id, saved.token, REMEMBERED_SETS)


def remembered_sets() -> dict[int, str]:
    """The sets this browser created, duplicated or imported, with their links."""
    return remembered_links("house_rules")


def saved_here() -> list[HouseRules]:
    """The remembered sets that still exist, by name."""
    return house_rules.among(remembered_sets())


def rules_by_key(key: str) -> RuleSet | None:
    """A preset, or a set this browser remembers, by its key; None for any other."""
    return house_rules.by_key(key, remembered_sets())
