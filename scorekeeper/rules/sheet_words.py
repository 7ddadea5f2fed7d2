"""The Contract Rummy sheet's own words: in German "Vorgabe", "Ziehstapel", "Satz", "Folge".

The German rule sheet says "Vorgabe" for the contract, "Ziehstapel" for the stock, "Satz" and
"Folge" for a book and a run, and calls "Darf ich?", where the German May I? says "Vertrag",
"Talon", "Buch", "Sequenz" and "May I?" (docs/RULES.md 3, docs/GLOSSARY.md). A game of the
sheet's family says every message in the gettext context SHEET: the catalogs hold a version
there of each message the sheet words differently (`tools/sheet_context.py` finds them from the
glossary), and any other message reads as it does everywhere.
"""

from __future__ import annotations

from dataclasses import replace

from .messages import Message, msg, verbatim
from .presets import PRESETS
from .ruleset import MAY_I_CALL, RuleSet

SHEET = "contract-rummy"
SHEET_FAMILY = frozenset(
    {"contract-rummy", "contract-rummy-proper", "liverpool", "shanghai", "free-laydown"}
)


def wording(rules: RuleSet) -> str | None:
    """The gettext context a game of these rules is worded in: the sheet's, or none."""
    return SHEET if rules.key in SHEET_FAMILY else None


def worded(rules: RuleSet, message: Message) -> Message:
    """The message in the sheet's wording when the rule set is of the sheet's family."""
    context = wording(rules)
    return replace(message, context=context) if context and message.context is None else message


def buy_call(rules: RuleSet) -> Message:
    """What the table calls to buy: "May I?" in the table's language, its own call as typed."""
    if rules.buy_call == MAY_I_CALL:
        return worded(rules, msg(MAY_I_CALL))
    return verbatim(rules.buy_call)


def set_name(rules: RuleSet) -> Message:
    """A rule set's name: a preset's in the table's language, a table's own as typed."""
    preset = PRESETS.get(rules.key)
    if preset is not None and preset.name == rules.name:
        return msg(preset.name)
    return verbatim(rules.name)
