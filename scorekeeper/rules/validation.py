"""The checks a rule set must pass before a game is played under it (docs/RULES.md section 9)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .bounds import JOKERS_PER_DECK, MAX_MELDS, out_of_bounds
from .errors import RuleSetInvalid
from .makeable import Table, contract_problems, table_sizes, tables
from .messages import N_, Message, msg, nmsg
from .player_names import visible
from .playing_cards import RANK_CODES
from .ruleset import DeckRule, RoundSpec, RuleSet

Errors = dict[str, list[Message]]
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def validate_ruleset(rules: RuleSet, *, stored: bool = False) -> dict[str, list[Message]]:
    """Every problem with a rule set, keyed by field path; an empty dict means it is playable.

    A game plays 6 to 12 rounds at tables of 2 to 8. A stored copy was checked when it was
    made, so it keeps what was allowed then (round count, table sizes, texts, card values;
    rules/bounds.STORED): `stored` reads it without refusing a game already played; every
    bound on what a page draws (melds, their lengths, deals, decks) holds for it too.
    """
    errors: Errors = {}
    _check_texts(rules, errors, stored)
    for path, message in out_of_bounds(rules, stored):
        _add(errors, path, message)
    _check_players(rules, errors)
    for path, spec in _all_rounds(rules):
        _check_contract(rules, path, spec, errors, stored)
        _check_reach(rules, path, spec, errors)
    _check_decks(rules, errors, stored)
    _check_deal_fits(rules, errors, stored)
    _check_values(rules.scoring.values, errors)
    return errors


def check_ruleset(rules: RuleSet, *, stored: bool = False) -> None:
    """Refuse a rule set that breaks any check, with a message per field."""
    errors = validate_ruleset(rules, stored=stored)
    if errors:
        raise RuleSetInvalid(errors)


def _add(errors: Errors, path: str, message: Message) -> None:
    """Note a problem; a setting out of its bound is told that first, and only that."""
    errors.setdefault(path, [message])


def _check_texts(rules: RuleSet, errors: Errors, stored: bool) -> None:
    """A slug key (it appears in URLs), and a name and a buy call of visible characters.

    A stored copy's texts were taken before they had to be visible: shown escaped, they load.
    """
    if not _SLUG.fullmatch(rules.key):
        _add(errors, "key", msg(N_("Use lowercase letters, digits and single hyphens.")))
    blank = {
        "name": N_("A rule set needs a name."),
        "buy_call": N_("Say what a player calls to buy a discard."),
    }
    for field, message in blank.items():
        text = getattr(rules, field)
        if not text.strip():
            _add(errors, field, msg(message))
        elif not stored and not visible(text):
            _add(errors, field, msg(N_("Use only visible letters, digits and marks.")))


def _check_players(rules: RuleSet, errors: Errors) -> None:
    """The most players are at least the fewest; the recommended minimum lies between."""
    if rules.max_players < rules.min_players:
        message = msg(N_("Must be at least the minimum, %(minimum)s."), minimum=rules.min_players)
        _add(errors, "max_players", message)
    if not rules.min_players <= rules.recommended_min_players <= rules.max_players:
        _add(
            errors, "recommended_min_players", msg(N_("Must lie between the minimum and maximum."))
        )


def _all_rounds(rules: RuleSet) -> Iterator[tuple[str, RoundSpec]]:
    """The game's rounds and the tiebreaker round, each with its field path."""
    for index, spec in enumerate(rules.rounds):
        yield f"rounds.{index}", spec
    yield "scoring.tiebreaker_round", rules.scoring.tiebreaker_round


def _check_contract(
    rules: RuleSet, path: str, spec: RoundSpec, errors: Errors, stored: bool
) -> None:
    """A contract of 1 to 6 melds that the cards of the decks can make."""
    contract, where = spec.contract, f"{path}.contract"
    melds = contract.books + contract.runs
    if contract.books >= 0 and contract.runs >= 0 and not 1 <= melds <= MAX_MELDS:
        message = msg(
            N_("A contract holds %(low)s to %(high)s books and runs."), low=1, high=MAX_MELDS
        )
        _add(errors, where, message)
        return
    for field, problem in contract_problems(rules, contract, stored):
        _add(errors, f"{where}.{field}" if field else where, problem)


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


def _check_decks(rules: RuleSet, errors: Errors, stored: bool) -> None:
    """Every deck rule gives 0 to 4 jokers a deck, and every allowed table size has one."""
    for index, rule in enumerate(rules.decks):
        path = f"decks.{index}"
        if rule.max_players < rule.min_players:
            message = msg(
                N_("Must be at least the minimum, %(minimum)s."), minimum=rule.min_players
            )
            _add(errors, f"{path}.max_players", message)
        # Jokers are linear in players, so the fewest and most fall at the ends of the range.
        for players in (rule.min_players, rule.max_players):
            problem = _joker_problem(rule, players)
            if problem is not None:
                _add(errors, f"{path}.jokers_base", problem)
                break
    sizes = table_sizes(rules, stored)
    uncovered = tuple(str(n) for n in sizes if rules.deck_rule(n) is None)
    if uncovered:
        _add(errors, "decks", msg(N_("No deck rule for %(players)s players."), players=uncovered))


def _joker_problem(rule: DeckRule, players: int) -> Message | None:
    """Jokers a deck rule gives for a table size, when outside 0 to 4 a deck."""
    jokers, most = rule.jokers_base + rule.jokers_per_player * players, JOKERS_PER_DECK * rule.decks
    if jokers < 0:
        return msg(N_("Gives fewer than 0 jokers for %(players)s players."), players=players)
    if jokers > most and rule.decks >= 1:
        message = N_(
            "Gives %(jokers)s for %(players)s players; at most %(most)s go with %(decks)s."
        )
        return msg(
            message,
            jokers=nmsg("%(count)s joker", "%(count)s jokers", jokers),
            players=players,
            most=most,
            decks=nmsg("%(count)s deck", "%(count)s decks", rule.decks),
        )
    return None


def _check_deal_fits(rules: RuleSet, errors: Errors, stored: bool) -> None:
    """The cards dealt to each table plus one up-card must be in its decks."""
    for path, spec in _all_rounds(rules):
        short = [t for t in tables(rules, stored) if not _fits(rules, spec.deal, t)]
        if spec.deal >= 1 and short:
            _add(errors, f"{path}.deal", _too_few_cards(rules, spec.deal, short[-1]))


def _fits(rules: RuleSet, deal: int, table: Table) -> bool:
    """Whether each player's cards and the up-card are in the table's decks."""
    return table.players * deal + 1 <= rules.cards_in_play(table.rule, table.players)


def _too_few_cards(rules: RuleSet, deal: int, table: Table) -> Message:
    """Say how far a deal overruns the decks, with every number the table needs to fix it."""
    players, rule = table.players, table.rule
    return msg(
        N_(
            "%(players)s players dealt %(deal)s cards need %(needed)s cards with the "
            "up-card, but %(decks)s decks and %(jokers)s jokers hold %(available)s."
        ),
        players=players,
        deal=deal,
        needed=players * deal + 1,
        decks=rule.decks,
        jokers=rules.jokers_in_play(rule, players),
        available=rules.cards_in_play(rule, players),
    )


def _check_values(values: dict[str, int], errors: Errors) -> None:
    """Every rank, joker included, has a whole number for its value, and one is above 0."""
    missing = tuple(code for code in RANK_CODES.values() if code not in values)
    if missing:
        _add(errors, "scoring.values", msg(N_("No value for %(ranks)s."), ranks=missing))
    for code, value in values.items():
        path = f"scoring.values.{code}"
        if code not in RANK_CODES.values():
            _add(errors, path, msg(N_("Not a card rank.")))
        elif isinstance(value, bool) or not isinstance(value, int):
            _add(errors, path, msg(N_("Must be a whole number.")))
    if not any(isinstance(value, int) and value > 0 for value in values.values()):
        message = msg(N_("Give at least one card a value above 0: hands are scored by them."))
        _add(errors, "scoring.values", message)
