"""The meld and contract checker on the round screen: tap cards, hear "valid" or the reason."""

from __future__ import annotations

from flask import Blueprint, request
from werkzeug.wrappers import Response

from ..games.meld_check import KINDS, LAYDOWN, SEPARATOR, check_at_table, read_melds
from ..games.opening import open_for_read
from ..i18n import current_locale
from ..rules.errors import RuleError
from ..rules.playing_cards import RANKS_BY_CODE, Rank
from .game_door import current_access
from .rendering import respond

bp = Blueprint("checker", __name__)  # a view link may check too: checking changes nothing
SUITS = ("C", "D", "H", "S")
MAX_TEXT = 400  # far more cards than any laydown holds


def _typed(text: str, suit: str) -> str:
    """The melds after the tapped button: a card in the chosen suit, a new meld, back, clear."""
    text = " ".join(text.split())[:MAX_TEXT]
    add, op = request.args.get("add", ""), request.args.get("op", "")
    if add in RANKS_BY_CODE:
        token = add if RANKS_BY_CODE[add] is Rank.JOKER else f"{add}{suit}"
        return f"{text} {token}".strip()
    if op == "next" and text and not text.endswith(SEPARATOR):
        return f"{text} {SEPARATOR}"
    if op == "back":
        return " ".join(text.split()[:-1])
    if op == "clear":
        return ""
    return text


def _shown(text: str) -> list[list[str]]:
    """The melds as the table reads them (local letters, suit symbols); none if unreadable."""
    try:
        locale = current_locale()
        return [[card.label(locale) for card in meld] for meld in read_melds(text)]
    except RuleError:
        return []


@bp.get("/check")
def check(game_id: int) -> Response:
    """Check the tapped meld or laydown under this game's rules and this round's contract."""
    state = open_for_read(game_id, current_access())
    kind = request.args.get("kind", LAYDOWN)
    kind = kind if kind in KINDS else LAYDOWN
    suit = request.args.get("suit", "")
    suit = suit if suit in SUITS else "H"
    text = _typed(request.args.get("cards", ""), suit)
    asked = request.args.get("op") == "check"
    verdict = check_at_table(state, kind, text) if asked or text else None
    return respond(
        "games/show.html",
        "games/_checker.html",
        state=state,
        checker={
            "kind": kind,
            "suit": suit,
            "cards": text,
            "shown": _shown(text),
            "verdict": verdict,
        },
    )
