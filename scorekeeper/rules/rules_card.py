"""The rules card: a rule set told in sentences the table can read, section by section.

Every setting that differs from the standard May I? rules (docs/RULES.md 1-6) says so
here, so a house rule set's card is as true as a preset's.
"""

from __future__ import annotations

from dataclasses import dataclass

from .messages import N_, Message, msg, nmsg
from .presets import preset_of
from .rules_card_melds import meld_lines
from .rules_card_scoring import scoring_lines
from .ruleset import (
    DealPasses,
    DeckRule,
    FirstDealer,
    ReshufflePolicy,
    RuleSet,
)
from .sheet_words import buy_call, worded

NO_JOKERS = N_("no jokers")

# A word on each preset, from the rule documents' own descriptions.
SUMMARIES: dict[str, str] = {
    "may-i": N_(
        "The classic family game of seven rounds: each round has its contract, and a "
        "discard you want out of turn can be bought by calling “May I?”."
    ),
    "contract-rummy": N_(
        "The German rule sheet: exactly the contract goes down, runs of one suit may not "
        "continue each other, and the stock is re-formed whenever it runs out."
    ),
    "contract-rummy-proper": N_(
        "The parent game: the sheet's seven rounds and open buying; enter your table's card "
        "values in the editor, as the sources give none."
    ),
    "liverpool": N_(
        "As the rule sheet, and the player to the dealer's right cuts: an exact cut is worth 50."
    ),
    "shanghai": N_(
        "11 cards every round, at most two buys a round, and a joker left in hand costs 50. "
        "The ten deals are the common list: the sources give none."
    ),
    "nine-rounds": N_("The marathon: two more rounds, 4 books and 3 runs of 5."),
    "no-buys": N_("May I? without out-of-turn buys: fewer surprises, slower hands."),
    "unlimited-buys": N_("May I? without a limit on buys: more chaos, wild hand sizes."),
    "aces-high": N_("May I? where an ace may also top a run: Q-K-A."),
    "aces-around": N_("May I? where runs may also turn the corner: K-A-2."),
    "no-jokers": N_("May I? with the jokers taken out: every contract gets harder."),
    "family-speed": N_(
        "May I? where, once your contract is down, you may lay off on any turn without drawing."
    ),
    "free-laydown": N_(
        "The rule sheet, but more cards than the contract may go down, and runs may continue "
        "each other."
    ),
}

FIRST_DEALER = {
    FirstDealer.HIGH_CARD: N_("The highest card cut picks the first dealer."),
    FirstDealer.LOW_CARD: N_("The lowest card cut picks the first dealer."),
    FirstDealer.RANDOM: N_("The first dealer is chosen by chance."),
}
DEAL_PASSES = {
    DealPasses.LEFT: N_("The deal passes clockwise; the player left of the dealer starts."),
    DealPasses.WINNER: N_(
        "The deal passes to whoever went out last round; the player left of the dealer starts."
    ),
}


@dataclass(frozen=True)
class Section:
    """A heading and its sentences."""

    title: Message
    lines: tuple[Message, ...]


def rules_card(rules: RuleSet) -> tuple[Section, ...]:
    """Every rule of a rule set, in the words of the table (rounds are listed separately)."""
    sections = (
        Section(msg(N_("Players and cards")), _players(rules)),
        Section(msg(N_("Books and runs")), meld_lines(rules)),
        Section(msg(N_("“%(call)s”: buying out of turn"), call=buy_call(rules)), _buys(rules)),
        Section(msg(N_("When the stock runs out")), _stock(rules)),
        Section(msg(N_("Scoring")), scoring_lines(rules)),
    )
    return tuple(
        Section(worded(rules, s.title), tuple(worded(rules, line) for line in s.lines))
        for s in sections
    )


def card_text(rules: RuleSet) -> str:
    """The whole card in English, one sentence a line: for tests, logs and the CLI."""
    return "\n".join(
        line.render() for section in rules_card(rules) for line in (section.title, *section.lines)
    )


def summary(rules: RuleSet) -> Message | None:
    """The preset's one-line description, if the set is that preset, setting for setting."""
    text = SUMMARIES.get(rules.key) if preset_of(rules) is not None else None
    return worded(rules, msg(text)) if text else None


def _players(rules: RuleSet) -> tuple[Message, ...]:
    """Players, decks and jokers, the first dealer and the deal (docs/RULES.md 2, 3, 9)."""
    lines = [msg(N_("%(low)s to %(high)s players."), low=rules.min_players, high=rules.max_players)]
    if rules.recommended_min_players > rules.min_players:
        lines.append(
            msg(
                N_("Best with %(players)s or more: fewer rarely call out of turn."),
                players=rules.recommended_min_players,
            )
        )
    lines += _deck_lines(rules)
    lines.append(msg(FIRST_DEALER[rules.first_dealer]))
    lines.append(msg(DEAL_PASSES[rules.deal_passes]))
    return tuple(lines)


def _deck_lines(rules: RuleSet) -> list[Message]:
    """Decks and jokers for each table size the set allows (none where jokers are not wild)."""
    lines = []
    for rule in rules.decks:
        low = max(rule.min_players, rules.min_players)
        high = min(rule.max_players, rules.max_players)
        for fewest, most in _joker_stretches(rule, low, high):
            jokers = _jokers(rule, fewest) if rules.melds.jokers_wild else msg(NO_JOKERS)
            lines.append(
                msg(
                    N_("%(players)s: %(decks)s and %(jokers)s."),
                    players=msg(N_("%(low)s to %(high)s players"), low=fewest, high=most),
                    decks=nmsg("%(count)s deck", "%(count)s decks", rule.decks),
                    jokers=jokers,
                )
            )
    return lines


def _joker_stretches(rule: DeckRule, low: int, high: int) -> list[tuple[int, int]]:
    """The table sizes low to high, cut where the rule's jokers stop at none (never fewer)."""
    sizes = range(low, high + 1)
    none = [players for players in sizes if rule.jokers_for(players) == 0]
    some = [players for players in sizes if rule.jokers_for(players) > 0]
    return [(part[0], part[-1]) for part in (none, some) if part]


def _jokers(rule: DeckRule, players: int) -> Message:
    """Jokers of a deck rule from this table size on: none, a number, or one per player less
    or more (the sheet: one fewer than the players)."""
    if rule.jokers_for(players) == 0:
        return msg(NO_JOKERS)
    if not rule.jokers_per_player:
        return nmsg("%(count)s joker", "%(count)s jokers", rule.jokers_base)
    if (rule.jokers_base, rule.jokers_per_player) == (-1, 1):
        return msg(N_("one joker fewer than players"))
    if rule.jokers_base < 0:
        return nmsg(
            "%(count)s joker per player, less %(fewer)s",
            "%(count)s jokers per player, less %(fewer)s",
            rule.jokers_per_player,
            fewer=-rule.jokers_base,
        )
    return nmsg(
        "%(count)s joker per player, plus %(base)s",
        "%(count)s jokers per player, plus %(base)s",
        rule.jokers_per_player,
        base=rule.jokers_base,
    )


def _buys(rules: RuleSet) -> tuple[Message, ...]:
    """The out-of-turn buy: caps per round, per game and per round of play (docs/RULES.md 4)."""
    buys = rules.buys
    caps = [rules.buy_cap(number) for number in range(1, len(rules.rounds) + 1)]
    if all(cap == 0 for cap in caps) or buys.cap_per_game == 0:
        return (msg(N_("No buying out of turn.")),)
    lines = [
        msg(N_("The player whose turn is next may take the discard as their draw.")),
        msg(N_("Otherwise the caller nearest the discarder's left gets it.")),
        nmsg(
            "The buyer also takes %(count)s penalty card from the stock.",
            "The buyer also takes %(count)s penalty cards from the stock.",
            buys.penalty_cards,
        )
        if buys.penalty_cards
        else msg(N_("The buyer takes no penalty card.")),
        *_caps(rules),
    ]
    if buys.turn_player_call_is_buy:
        lines.append(
            msg(
                N_("The next player's “%(call)s” instead of a plain draw counts as a buy."),
                call=buy_call(rules),
            )
        )
    else:
        lines.append(msg(N_("If the next player calls, the card is their draw, not a buy.")))
    if buys.no_twice_in_a_row:
        lines.append(
            msg(
                N_(
                    "After a buy the card below may be bought the same way, but not by the "
                    "same player twice in a row."
                )
            )
        )
    if buys.no_buy_after_contract_down:
        lines.append(msg(N_("Nobody may buy once their contract is down.")))
    return tuple(lines)


def _caps(rules: RuleSet) -> list[Message]:
    """The cap per round, each round's own cap, and the cap per game."""
    per_round, per_game = rules.buys.cap_per_round, rules.buys.cap_per_game
    own = [(n, spec.buy_cap) for n, spec in enumerate(rules.rounds, start=1)]
    if per_round is None and per_game is None and all(cap is None for _, cap in own):
        return [msg(N_("Buys are not limited."))]
    lines: list[Message] = []
    if any(cap is None for _, cap in own):
        lines.append(_cap_per_round(per_round))
    for number, cap in own:
        if cap == 0:
            lines.append(msg(N_("Round %(number)s: no buying."), number=number))
        elif cap is not None:
            lines.append(
                nmsg(
                    "Round %(number)s: at most %(count)s buy.",
                    "Round %(number)s: at most %(count)s buys.",
                    cap,
                    number=number,
                )
            )
    if per_game is not None:
        lines.append(
            nmsg("At most %(count)s buy per game.", "At most %(count)s buys per game.", per_game)
        )
    return lines


def _cap_per_round(cap: int | None) -> Message:
    """The rule set's cap for the rounds that have none of their own."""
    if cap is None:
        return msg(N_("No limit on buys per round."))
    if cap == 0:
        return msg(N_("No buying, except in the rounds named below."))
    return nmsg("At most %(count)s buy per round.", "At most %(count)s buys per round.", cap)


def _stock(rules: RuleSet) -> tuple[Message, ...]:
    """Stock exhaustion: re-formed once or always, shuffled or turned over (docs/RULES.md 5, 9)."""
    shuffled = rules.shuffle_on_reform
    if rules.reshuffle is ReshufflePolicy.ALWAYS:
        if shuffled:
            return (
                msg(N_("Shuffle the discards, but the top card, into a new stock every time.")),
            )
        return (
            msg(
                N_(
                    "Turn the discards, but the top card, over into a new stock every time, "
                    "without shuffling."
                )
            ),
        )
    first = (
        N_("The first time, shuffle the discards, but the top card, into a new stock.")
        if shuffled
        else N_(
            "The first time, turn the discards, but the top card, over into a new stock "
            "without shuffling."
        )
    )
    return (
        msg(first),
        msg(N_("The second time, the round ends and everybody counts their hand.")),
    )
