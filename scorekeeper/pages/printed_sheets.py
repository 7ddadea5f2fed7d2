"""A blank score sheet to print, for a preset, a house rule set or a game's rules."""

from __future__ import annotations

from flask import Blueprint, abort, request, session
from werkzeug.wrappers import Response

from .. import house_rules
from ..i18n import translate
from ..rules.blank_sheet import blank_sheet, player_counts
from ..rules.errors import RuleSetInvalid
from ..rules.presets import PRESETS
from ..rules.rules_card_scoring import scoring_lines
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict
from .rendering import respond
from .ruleset_form import decode, encode

bp = Blueprint("printed_sheets", __name__)
PAGE = "rules/blank_sheet.html"
USUAL_TABLE = 4  # the sheet a family most often prints, where the rules allow it
CHOSEN = "sheet_players"  # the table size this browser last asked for (a game's link asks its)


@bp.get("/rules/<key>/sheet")
def preset(key: str) -> Response:
    """The blank sheet of a preset; its QR code starts a game with it."""
    if key not in PRESETS:
        abort(404)
    return _sheet(PRESETS[key], "games.new", {"ruleset": key})


@bp.get("/house-rules/<int:ruleset_id>/<token>/sheet")
def saved(ruleset_id: int, token: str) -> Response:
    """The blank sheet of a saved house set; its QR code lets any phone save and play it."""
    saved = house_rules.get(ruleset_id, token)
    return _sheet(
        house_rules.rules_of(saved), "house_rules.shared", {"r": encode(saved.rules_json)}
    )


@bp.get("/rules/sheet")
def packed() -> Response:
    """The blank sheet of any rule set carried in the link (a house set, a game's rules)."""
    data = decode(request.args.get("r", ""))
    try:
        rules = ruleset_from_dict(data)
    except RuleSetInvalid as error:
        problems = [translate(m) for messages in error.errors.values() for m in messages]
        return respond(PAGE, PAGE, 422, problems=problems[:10])
    # Packed again: stray text after a valid packing decodes leniently, and would ride along
    # into the QR code.
    return _sheet(rules, "house_rules.shared", {"r": encode(data)})


def _sheet(rules: RuleSet, start: str, start_values: dict[str, str]) -> Response:
    """The sheet for the table size asked for, else the one last asked for in this browser,
    else the usual one; its QR code opens `start`."""
    counts = player_counts(rules)
    if not counts:
        return respond(PAGE, PAGE, 422, problems=[], rules=rules)
    return respond(
        PAGE,
        PAGE,
        rules=rules,
        sheet=blank_sheet(rules, _players(counts)),
        counts=counts,
        scoring=scoring_lines(rules),
        start=start,
        start_values=start_values,
    )


def _players(counts: tuple[int, ...]) -> int:
    """The table size asked for (and remembered), else the one remembered, else the usual."""
    asked = request.args.get("players", "")
    if asked in {str(count) for count in counts}:
        session[CHOSEN] = int(asked)
        return int(asked)
    remembered = session.get(CHOSEN)
    if isinstance(remembered, int) and remembered in counts:
        return remembered
    return USUAL_TABLE if USUAL_TABLE in counts else counts[0]
