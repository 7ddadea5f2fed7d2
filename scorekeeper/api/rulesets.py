"""Rule sets through the API: the presets; saved house rule sets (create, read, update,
delete); any rule set checked; and the engine's checks under one: a hand's points, a meld or
a laydown.

A set opens with its own token (answered on create) as a bearer token, as a game does; there
is no list of every set: ids are no secret, tokens are.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from flask import Blueprint, Response, url_for
from pydantic import Discriminator, Tag
from werkzeug.exceptions import NotFound

from .. import house_rules
from ..models import HouseRules
from ..rules.bounds import NAME_LENGTH
from ..rules.deal import Deal, deal_for
from ..rules.errors import RuleError
from ..rules.laydown import BOOK, check_book, check_contract, check_run
from ..rules.laydown import MeldCheck as Verdict
from ..rules.messages import N_, msg
from ..rules.playing_cards import Card
from ..rules.presets import PRESETS
from ..rules.round_entry import cards_of
from ..rules.ruleset import RuleSet
from ..rules.tally import cards_points, in_play_refusal
from .base import (
    CHALLENGE,
    INVALID,
    Answer,
    Count,
    Problem,
    Said,
    Timestamp,
    With,
    answer,
    answer_list,
    bearer_token,
    documented,
)
from .fields import (
    ABSENT,
    MAX_NUMBER,
    MAY_I,
    Body,
    Cards,
    Counts,
    MeldKind,
    RuleSetChoice,
    Whole,
    text,
)
from .reading import read

bp = Blueprint("rulesets", __name__)

# No max= here: werkzeug answers an id past the maximum with 405, not 404; get() checks the range.
SAVED = "/v1/rulesets/saved/<int:ruleset_id>"
NO_RULE_SET = N_("There is no rule set %(key)s.")
NO_TOKEN = N_("Send the rule set's token in an Authorization: Bearer header.")
OPENS_NOTHING = N_("No saved rule set %(id)s opens with that link.")


class SavedRuleSetRequest(Body):
    """A house rule set to save: its name, and a preset's key or a whole rule set to start from."""

    name: text(NAME_LENGTH)  # type: ignore[valid-type]
    rules: RuleSetChoice


class RuleSetCheckRequest(Body):
    """A rule set to check: every problem is answered with 422, at its field."""

    rules: RuleSetChoice


class SavedRuleSet(Answer):
    """A saved house rule set; `token` opens it (keep it secret); `key` names it in the pages."""

    id: Count
    token: str
    key: str
    name: str
    rules: RuleSet
    created_at: Timestamp
    updated_at: Timestamp


def saved_set(saved: HouseRules) -> SavedRuleSet:
    """A saved set as the API answers it: its key and rules read from its row."""
    rules = house_rules.rules_of(saved)
    return SavedRuleSet.model_validate(With(saved, key=house_rules.key_of(saved), rules=rules))


class RuleSetEntry(Answer):
    """A rule set with its key and name up front."""

    key: str
    name: str
    rules: RuleSet


class RuleSetValid(Answer):
    """A rule set the engine found playable, as it reads it (defaults filled in)."""

    valid: bool
    rules: RuleSet


def entry(rules: RuleSet) -> RuleSetEntry:
    """A preset as the API lists it."""
    return RuleSetEntry.model_validate(With(rules, rules=rules))


@bp.get("/v1/rulesets")
@documented({200: list[RuleSetEntry]})
def rulesets_index() -> tuple[Response, int]:
    """List the preset rule sets, each in full."""
    return answer_list([entry(rules) for rules in PRESETS.values()])


@bp.get("/v1/rulesets/<preset:key>")
@documented({200: RuleSetEntry}, errors=(404,))
def rulesets_show(key: str) -> tuple[Response, int]:
    """Show one preset rule set."""
    if key not in PRESETS:
        raise Problem(404, msg(N_("There is no rule set %(key)s."), key=key))
    return answer(entry(PRESETS[key]))


@bp.post("/v1/rulesets/saved")
@documented({201: SavedRuleSet}, SavedRuleSetRequest)
def saved_create() -> tuple[Response, int, dict[str, str]]:
    """Save a house rule set under a name."""
    body = read(SavedRuleSetRequest)
    saved = house_rules.create(body.name, body.rules)
    response, status = answer(saved_set(saved), 201)
    return response, status, {"Location": url_for(".saved_show", ruleset_id=saved.id)}


def _opened(ruleset_id: int, *, change: bool = False) -> HouseRules:
    """The set this request's bearer token opens: 401 without one or with one that opens no
    set (the same for a missing set and a wrong token)."""
    token = bearer_token()
    if token is None:
        raise Problem(401, msg(NO_TOKEN), headers=[CHALLENGE])
    try:
        return house_rules.get(ruleset_id, token, change=change)
    except NotFound:
        raise Problem(401, msg(OPENS_NOTHING, id=ruleset_id), headers=[INVALID]) from None


@bp.get(SAVED)
@documented({200: SavedRuleSet})
def saved_show(ruleset_id: int) -> tuple[Response, int]:
    """Show one saved house rule set."""
    return answer(saved_set(_opened(ruleset_id)))


@bp.put(SAVED)
@documented({200: SavedRuleSet}, SavedRuleSetRequest)
def saved_update(ruleset_id: int) -> tuple[Response, int]:
    """Replace a saved house rule set; games started with it keep their own copy."""
    saved = _opened(ruleset_id, change=True)  # as for a game: the link first, then the body
    body = read(SavedRuleSetRequest)
    return answer(saved_set(house_rules.update(saved, body.name, body.rules)))


@bp.delete(SAVED)
@documented({200: SavedRuleSet})
def saved_delete(ruleset_id: int) -> tuple[Response, int]:
    """Delete a saved house rule set and answer it as it was; its games keep their copy."""
    saved = _opened(ruleset_id, change=True)
    gone = saved_set(saved)
    house_rules.delete(saved)
    return answer(gone)


@bp.post("/v1/rulesets/validate")
@documented({200: RuleSetValid}, RuleSetCheckRequest)
def rulesets_validate() -> tuple[Response, int]:
    """Check a rule set with the rules engine: 200 when playable, else 422 with each problem."""
    return answer(RuleSetValid(valid=True, rules=read(RuleSetCheckRequest).rules))


def chosen(ruleset: RuleSet | str, token: str | None) -> RuleSet:
    """The rules a new game names: a whole set or a preset as read, or the saved set `house-<id>`
    its token opens; else 422 at `ruleset`, the same for a wrong token as for no such set."""
    if isinstance(ruleset, RuleSet):
        return ruleset
    number = ruleset.removeprefix(house_rules.KEY_PREFIX)
    tokens = {int(number): token} if token and number.isdecimal() else {}
    rules = house_rules.by_key(ruleset, tokens)  # as the start forms find it
    if rules is None:
        raise Problem(422, errors={"ruleset": [msg(NO_RULE_SET, key=ruleset)]})
    return rules


class TallyRequest(Body):
    """A hand to count, as cards or counted per rank, at a table of players and decks."""

    choices: ClassVar[tuple[str, ...]] = ("cards", "counts")
    choices_at: ClassVar[str] = "cards"  # at the top, "" would stand for the whole request
    ruleset: RuleSetChoice = MAY_I
    players: Whole = 4
    decks: Whole | None = None
    cards: Cards = ABSENT
    counts: Counts = ABSENT


class OneMeld(Body):
    """One book or run, at the lengths of a round's contract when a round is named, from the
    decks of a table of `players` (or its chosen `decks`)."""

    ruleset: RuleSetChoice = MAY_I
    players: Whole = 4
    decks: Whole | None = None
    meld: Cards
    kind: MeldKind
    round: Whole | None = None


class Laydown(Body):
    """A laydown checked against a round's contract, from the decks of a table of `players`."""

    ruleset: RuleSetChoice = MAY_I
    players: Whole = 4
    decks: Whole | None = None
    melds: list[Cards]
    round: Whole


def _meld_or_laydown(value: Any) -> str:
    return "meld" if isinstance(value, dict) and "meld" in value else "melds"


MeldCheckRequest = Annotated[
    Annotated[OneMeld, Tag("meld")] | Annotated[Laydown, Tag("melds")],
    Discriminator(_meld_or_laydown),
]


class Tally(Answer):
    """A hand's penalty points."""

    points: Count


class MeldCheck(Answer):
    """Whether the meld or laydown is good; if not, why, and which meld and kind failed."""

    ok: bool
    reason: Said | None
    kind: Literal["book", "run"] | None
    meld: Count | None


def tally(request: TallyRequest) -> int:
    """Penalty points of a hand at a table of this many players and decks."""
    setup = deal_for(request.ruleset, request.players, 1, 0, request.decks)
    if request.cards is not None:
        return points_of(request.cards, request.ruleset, setup, "cards")
    return points_of(request.counts or {}, request.ruleset, setup, "counts")


def points_of(tapped: list[Card] | dict[str, int], rules: RuleSet, setup: Deal, field: str) -> int:
    """Penalty points of tapped cards within the cards in play; errors under `field`."""
    try:
        points = cards_points(cards_of(tapped), rules, setup.decks, setup.jokers)
    except RuleError as error:
        raise RuleError(error.message, field=field) from error
    if points > MAX_NUMBER:  # only a house rule set with absurd card values gets here
        raise RuleError(msg(N_("That hand is worth more points than a score can hold.")), field)
    return points


def check_meld(rules: RuleSet, kind: str, cards: list[Card], number: int | None) -> Verdict:
    """One book or run, at the lengths of a round's contract when a round is named."""
    if number is None:
        return check_book(cards, rules) if kind == BOOK else check_run(cards, rules)
    if not 1 <= number <= len(rules.rounds):
        reason = msg(N_("There is no round %(number)s in this game."), number=number)
        raise RuleError(reason, field="round")
    spec = rules.round_spec(number)
    contract, exact = spec.contract, rules.exact_in(spec)  # lifted in the sheet's round 7
    if kind == BOOK:
        return check_book(cards, rules, contract.book_length, exact)
    return check_run(cards, rules, contract.run_length, exact)


def check_melds(request: OneMeld | Laydown) -> Verdict:
    """Check one book or run, or a laydown against a round's contract, with no card more
    often than the decks of a table of `players` hold it."""
    setup = deal_for(request.ruleset, request.players, 1, 0, request.decks)
    melds = [request.meld] if isinstance(request, OneMeld) else request.melds
    cards = [card for meld in melds for card in meld]
    refusal = in_play_refusal(cards, setup.decks, setup.jokers)
    if refusal is not None:
        return Verdict(False, refusal)
    if isinstance(request, OneMeld):
        return check_meld(request.ruleset, request.kind, request.meld, request.round)
    return check_contract(request.melds, request.ruleset, request.round)


@bp.post("/v1/tally")
@documented({200: Tally}, TallyRequest)
def tally_create() -> tuple[Response, int]:
    """Count the penalty points of a hand: KC 7H JK is 32."""
    return answer(Tally(points=tally(read(TallyRequest))))


@bp.post("/v1/melds/check")
@documented({200: MeldCheck}, MeldCheckRequest)
def melds_check() -> tuple[Response, int]:
    """Check a laydown against a round's contract, or one book or run."""
    return answer(MeldCheck.model_validate(check_melds(read(MeldCheckRequest))))
