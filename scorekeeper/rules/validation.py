"""The checks a rule set must pass before a game is played under it (docs/RULES.md section 9)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .errors import RuleSetInvalid
from .messages import N_, Message, msg
from .playing_cards import RANK_CODES
from .ruleset import DeckRule, RoundSpec, RuleSet

Errors = dict[str, list[Message]]

MIN_ROUNDS, MAX_ROUNDS = 6, 12  # a game runs 6 to 12 rounds, as the published variants do
# Copies stored while 1 to 20 rounds were allowed (saved sets, games played) still load and play.
STORED_MIN_ROUNDS, STORED_MAX_ROUNDS = 1, 20
MIN_PLAYERS = 2  # the sources allow 2 ("the out-of-turn call rarely triggers")
MAX_PLAYERS = 12  # the sources stop at 8; larger tables add decks
MIN_BOOK_LENGTH = 3
MIN_RUN_LENGTH = 3
CARDS_PER_DECK = 52
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def validate_ruleset(rules: RuleSet, *, stored: bool = False) -> dict[str, list[Message]]:
    """Every problem with a rule set, keyed by field path; an empty dict means it is playable.

    A game plays 6 to 12 rounds. A stored copy was checked when it was made, so it keeps the
    round count allowed then: `stored` reads it without refusing a game already played.
    """
    errors: Errors = {}
    _check_identity(rules, errors)
    _check_players(rules, errors)
    _check_round_count(rules, errors, stored)
    for path, spec in _all_rounds(rules):
        _check_round(path, spec, errors)
        _check_reach(rules, path, spec, errors)
    _check_decks(rules, errors)
    _check_deal_fits(rules, errors)
    _check_stakes(rules, errors)
    _check_values(rules.scoring.values, errors)
    return errors


def check_ruleset(rules: RuleSet, *, stored: bool = False) -> None:
    """Refuse a rule set that breaks any check, with a message per field."""
    errors = validate_ruleset(rules, stored=stored)
    if errors:
        raise RuleSetInvalid(errors)


def _add(errors: Errors, path: str, message: Message) -> None:
    errors.setdefault(path, []).append(message)


def _at_least(errors: Errors, path: str, value: int | None, minimum: int) -> None:
    """Record a too-small setting; None means "no limit" and always passes."""
    if value is not None and value < minimum:
        _add(errors, path, msg(N_("Must be at least %(minimum)s."), minimum=minimum))


def _check_identity(rules: RuleSet, errors: Errors) -> None:
    """A rule set needs a slug key (it appears in URLs), a name and a buy call."""
    if not _SLUG.fullmatch(rules.key):
        _add(errors, "key", msg(N_("Use lowercase letters, digits and single hyphens.")))
    if not rules.name.strip():
        _add(errors, "name", msg(N_("A rule set needs a name.")))
    if not rules.buy_call.strip():
        _add(errors, "buy_call", msg(N_("Say what a player calls to buy a discard.")))


def _check_players(rules: RuleSet, errors: Errors) -> None:
    """Tables of 2 to 12; the recommended minimum lies inside the allowed range."""
    _at_least(errors, "min_players", rules.min_players, MIN_PLAYERS)
    if rules.max_players > MAX_PLAYERS:
        _add(errors, "max_players", msg(N_("Must be at most %(maximum)s."), maximum=MAX_PLAYERS))
    elif rules.max_players < rules.min_players:
        _add(
            errors,
            "max_players",
            msg(N_("Must be at least the minimum, %(minimum)s."), minimum=rules.min_players),
        )
    if not rules.min_players <= rules.recommended_min_players <= rules.max_players:
        _add(
            errors, "recommended_min_players", msg(N_("Must lie between the minimum and maximum."))
        )


def _check_round_count(rules: RuleSet, errors: Errors, stored: bool) -> None:
    """Play 6 to 12 rounds; a stored copy, as many as were allowed when it was made."""
    low, high = (STORED_MIN_ROUNDS, STORED_MAX_ROUNDS) if stored else (MIN_ROUNDS, MAX_ROUNDS)
    if not low <= len(rules.rounds) <= high:
        message = N_("Play %(minimum)s to %(maximum)s rounds.")
        _add(errors, "rounds", msg(message, minimum=low, maximum=high))


def _all_rounds(rules: RuleSet) -> Iterator[tuple[str, RoundSpec]]:
    """The game's rounds and the tiebreaker round, each with its field path."""
    for index, spec in enumerate(rules.rounds):
        yield f"rounds.{index}", spec
    yield "scoring.tiebreaker_round", rules.scoring.tiebreaker_round


def _check_round(path: str, spec: RoundSpec, errors: Errors) -> None:
    """A contract of at least one meld, makeable from the deal plus one draw."""
    contract = spec.contract
    _at_least(errors, f"{path}.contract.books", contract.books, 0)
    _at_least(errors, f"{path}.contract.runs", contract.runs, 0)
    _at_least(errors, f"{path}.contract.book_length", contract.book_length, MIN_BOOK_LENGTH)
    _at_least(errors, f"{path}.contract.run_length", contract.run_length, MIN_RUN_LENGTH)
    _at_least(errors, f"{path}.buy_cap", spec.buy_cap, 0)
    if contract.books >= 0 and contract.runs >= 0 and contract.books + contract.runs < 1:
        _add(errors, f"{path}.contract", msg(N_("A contract needs at least one book or run.")))
    if spec.deal < 1:
        _add(errors, f"{path}.deal", msg(N_("Deal at least one card.")))


def _check_reach(rules: RuleSet, path: str, spec: RoundSpec, errors: Errors) -> None:
    """The deal, one draw and what the round's buys can add must make the contract.

    Each buy brings the discard and its penalty cards; no cap means no limit, so only a
    capped round can fall short (Shanghai's "book + run of 10" needs a buy: 11 + 1 < 13).
    """
    needed, cap = spec.contract.cards_needed, _round_cap(rules, spec)
    if spec.deal < 1 or cap is None:
        return
    bought = cap * (1 + max(rules.buys.penalty_cards, 0))
    if spec.deal + 1 + bought >= needed:
        return
    if bought <= 0:
        message = N_("%(deal)s cards plus one draw cannot make a contract of %(needed)s cards.")
        _add(errors, f"{path}.deal", msg(message, deal=spec.deal, needed=needed))
        return
    message = N_(
        "%(deal)s cards, one draw and %(bought)s cards from buys cannot make a contract of "
        "%(needed)s cards."
    )
    _add(errors, f"{path}.deal", msg(message, deal=spec.deal, bought=bought, needed=needed))


def _round_cap(rules: RuleSet, spec: RoundSpec) -> int | None:
    """Buys one player may make in a round: its own cap, the rule set's, and the game's."""
    caps = [spec.buy_cap if spec.buy_cap is not None else rules.buys.cap_per_round]
    caps.append(rules.buys.cap_per_game)
    known = [max(cap, 0) for cap in caps if cap is not None]
    return min(known) if known else None


def _table_sizes(rules: RuleSet) -> range:
    """Player counts the table allows, clipped to the limits so a bad bound is reported once."""
    return range(max(rules.min_players, MIN_PLAYERS), min(rules.max_players, MAX_PLAYERS) + 1)


def _check_decks(rules: RuleSet, errors: Errors) -> None:
    """Every deck rule is sane, and every allowed table size has one."""
    for index, rule in enumerate(rules.decks):
        path = f"decks.{index}"
        _at_least(errors, f"{path}.decks", rule.decks, 1)
        _at_least(errors, f"{path}.min_players", rule.min_players, 1)
        _at_least(errors, f"{path}.max_players", rule.max_players, rule.min_players)
        # Jokers are linear in players, so the fewest fall at one end of the range.
        for players in (rule.min_players, rule.max_players):
            if rule.jokers_base + rule.jokers_per_player * players < 0:
                message = msg(
                    N_("Gives fewer than 0 jokers for %(players)s players."), players=players
                )
                _add(errors, f"{path}.jokers_base", message)
                break
    uncovered = tuple(str(n) for n in _table_sizes(rules) if rules.deck_rule(n) is None)
    if uncovered:
        _add(errors, "decks", msg(N_("No deck rule for %(players)s players."), players=uncovered))


def _shortfall(rules: RuleSet, deal: int) -> tuple[int, DeckRule] | None:
    """The largest table whose deal plus the up-card does not fit in its decks, if any."""
    for players in reversed(_table_sizes(rules)):
        for rule in rules.decks:
            fits = players * deal + 1 <= CARDS_PER_DECK * rule.decks + rule.jokers_for(players)
            if rule.decks >= 1 and rule.min_players <= players <= rule.max_players and not fits:
                return players, rule
    return None


def _check_deal_fits(rules: RuleSet, errors: Errors) -> None:
    """The cards dealt to the most players plus one up-card must be in the decks."""
    for path, spec in _all_rounds(rules):
        short = _shortfall(rules, spec.deal) if spec.deal >= 1 else None
        if short is not None:
            _add(errors, f"{path}.deal", _too_few_cards(spec.deal, *short))


def _too_few_cards(deal: int, players: int, rule: DeckRule) -> Message:
    """Say how far a deal overruns the decks, with every number the table needs to fix it."""
    jokers = rule.jokers_for(players)
    return msg(
        N_(
            "%(players)s players dealt %(deal)s cards need %(needed)s cards with the "
            "up-card, but %(decks)s decks and %(jokers)s jokers hold %(available)s."
        ),
        players=players,
        deal=deal,
        needed=players * deal + 1,
        decks=rule.decks,
        jokers=jokers,
        available=CARDS_PER_DECK * rule.decks + jokers,
    )


def _check_stakes(rules: RuleSet, errors: Errors) -> None:
    """Buy caps, penalty cards and the cut bonus are never negative; a wild cap is at least 1."""
    _at_least(errors, "buys.cap_per_round", rules.buys.cap_per_round, 0)
    _at_least(errors, "buys.cap_per_game", rules.buys.cap_per_game, 0)
    _at_least(errors, "buys.penalty_cards", rules.buys.penalty_cards, 0)
    _at_least(errors, "melds.max_wilds_per_meld", rules.melds.max_wilds_per_meld, 1)
    _at_least(errors, "scoring.cut_bonus", rules.scoring.cut_bonus, 0)


def _check_values(values: dict[str, int], errors: Errors) -> None:
    """Every rank, joker included, has a value that is a whole number of 0 or more."""
    missing = tuple(code for code in RANK_CODES.values() if code not in values)
    if missing:
        _add(errors, "scoring.values", msg(N_("No value for %(ranks)s."), ranks=missing))
    for code, value in values.items():
        path = f"scoring.values.{code}"
        if code not in RANK_CODES.values():
            _add(errors, path, msg(N_("Not a card rank.")))
        elif isinstance(value, bool) or not isinstance(value, int):
            _add(errors, path, msg(N_("Must be a whole number.")))
        else:
            _at_least(errors, path, value, 0)
