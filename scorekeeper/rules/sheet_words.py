"""The Contract Rummy sheet's own words: in German "Vorgabe", "Ziehstapel", "Darf ich?".

The German rule sheet says "Vorgabe" for the contract, "Ziehstapel" for the stock and
calls "Darf ich?", where the German May I? says "Vertrag", "Talon" and "May I?"
(docs/RULES.md 3). Sentences that name these are given once more under the gettext
context SHEET; games of the sheet's family read them in that context, so only German
words them differently.
"""

from __future__ import annotations

from dataclasses import replace

from .messages import C_, N_, NC_, Message, msg, verbatim
from .presets import PRESETS
from .ruleset import MAY_I_CALL, RuleSet

SHEET = "contract-rummy"
SHEET_FAMILY = frozenset(
    {"contract-rummy", "contract-rummy-proper", "liverpool", "shanghai", "free-laydown"}
)
# Each sentence that names the contract or the stock, marked again in the sheet's context.
SHEET_WORDED = frozenset(
    {
        C_("contract-rummy", "May I?"),
        C_("contract-rummy", "Contract"),
        C_("contract-rummy", "When the stock runs out"),
        C_("contract-rummy", "Lay down exactly the contract: each meld at its length, no more."),
        C_("contract-rummy", "Lay down exactly the contract: %(contract)s, no longer."),
        C_("contract-rummy", "Lay off from the turn after your contract went down."),
        C_("contract-rummy", "Nobody may buy once their contract is down."),
        C_("contract-rummy", "Once your contract is down, lay off on any turn, without drawing."),
        C_(
            "contract-rummy",
            "Shuffle the discards, but the top card, into a new stock every time.",
        ),
        C_(
            "contract-rummy",
            "Turn the discards, but the top card, over into a new stock every time, without "
            "shuffling.",
        ),
        C_("contract-rummy", "Stock runs out: shuffle the discards into a new stock every time."),
        C_("contract-rummy", "Stock runs out: turn the discards over, unshuffled, every time."),
        C_(
            "contract-rummy",
            "The German rule sheet: exactly the contract goes down, runs of one suit may not "
            "continue each other, and the stock is re-formed whenever it runs out.",
        ),
        NC_(
            "contract-rummy",
            "The buyer also takes %(count)s penalty card from the stock.",
            "The buyer also takes %(count)s penalty cards from the stock.",
        )[0],
    }
)
CONTRACT_HEADING = N_("Contract")  # the rules card's column, worded by worded() too


def worded(rules: RuleSet, message: Message) -> Message:
    """The message in the sheet's wording when the rule set is of the sheet's family."""
    if rules.key in SHEET_FAMILY and message.template in SHEET_WORDED:
        return replace(message, context=SHEET)
    return message


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
