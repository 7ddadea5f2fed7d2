"""The rules card: a rule set told in sentences the table can read, section by section."""

from __future__ import annotations

from dataclasses import dataclass

from .messages import N_, Message, msg, nmsg
from .ruleset import AceRule, ReshufflePolicy, RuleSet, TiebreakPolicy

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
    "liverpool": N_(
        "As the rule sheet, and the player to the dealer's right cuts: an exact cut is worth 50."
    ),
    "shanghai": N_(
        "11 cards every round, at most two buys a round, and a joker left in hand costs 50."
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


@dataclass(frozen=True)
class Section:
    """A heading and its sentences."""

    title: Message
    lines: tuple[Message, ...]


def rules_card(rules: RuleSet) -> tuple[Section, ...]:
    """Every rule of a rule set, in the words of the table (rounds are listed separately)."""
    return (
        Section(msg(N_("Players and cards")), _players(rules)),
        Section(msg(N_("Books and runs")), _melds(rules)),
        Section(msg(N_("“%(call)s”: buying out of turn"), call=rules.buy_call), _buys(rules)),
        Section(msg(N_("When the stock runs out")), _stock(rules)),
        Section(msg(N_("Scoring")), _scoring(rules)),
    )


def summary(rules: RuleSet) -> Message | None:
    """The preset's one-line description, if it is a preset."""
    text = SUMMARIES.get(rules.key)
    return msg(text) if text else None


def _players(rules: RuleSet) -> tuple[Message, ...]:
    """Players, decks and jokers (docs/RULES.md 2)."""
    lines = [msg(N_("%(low)s to %(high)s players."), low=rules.min_players, high=rules.max_players)]
    for rule in rules.decks:
        players = msg(
            N_("%(low)s to %(high)s players"), low=rule.min_players, high=rule.max_players
        )
        decks = nmsg("%(count)s deck", "%(count)s decks", rule.decks)
        if rule.jokers_per_player:
            jokers = msg(N_("one joker fewer than players"))
        else:
            jokers = nmsg("%(count)s joker", "%(count)s jokers", rule.jokers_base)
        lines.append(
            msg(
                N_("%(players)s: %(decks)s and %(jokers)s."),
                players=players,
                decks=decks,
                jokers=jokers,
            )
        )
    lines.append(msg(N_("The deal passes clockwise; the player left of the dealer starts.")))
    return tuple(lines)


def _melds(rules: RuleSet) -> tuple[Message, ...]:
    """Books, runs, aces, jokers and laying down (docs/RULES.md 3, 7, 8)."""
    melds = rules.melds
    lines = [
        msg(N_("A book is three or more cards of one rank, in any suits.")),
        msg(N_("A run is four or more cards of one suit in sequence.")),
        {
            AceRule.LOW: msg(N_("The ace is low only: A-2-3-4, never Q-K-A.")),
            AceRule.HIGH_OR_LOW: msg(N_("The ace is low or high: A-2-3-4 or J-Q-K-A, not both.")),
            AceRule.AROUND: msg(N_("Runs may turn the corner: Q-K-A-2.")),
        }[melds.aces],
        msg(N_("Jokers are wild in books and runs."))
        if melds.jokers_wild
        else msg(N_("There are no jokers.")),
    ]
    if melds.exact_laydown:
        lines.append(msg(N_("Lay down exactly the contract: books of 3, runs of 4, no more.")))
    if not melds.abutting_runs:
        lines.append(msg(N_("Two runs of one suit may not simply continue each other.")))
    if melds.layoff_without_drawing:
        lines.append(msg(N_("Once your contract is down, lay off on any turn, without drawing.")))
    elif not melds.layoff_same_turn:
        lines.append(msg(N_("Lay off from the turn after your contract went down.")))
    if melds.joker_swap:
        lines.append(
            msg(N_("A joker in a run may be swapped for the real card; in a book it stays."))
        )
    return tuple(lines)


def _buys(rules: RuleSet) -> tuple[Message, ...]:
    """The out-of-turn buy (docs/RULES.md 4)."""
    buys = rules.buys
    if buys.cap_per_round == 0:
        return (msg(N_("No buying out of turn.")),)
    cap = (
        msg(N_("Buys are not limited."))
        if buys.cap_per_round is None
        else nmsg(
            "At most %(count)s buy per round.",
            "At most %(count)s buys per round.",
            buys.cap_per_round,
        )
    )
    lines = [
        msg(N_("The player whose turn is next may take the discard as their draw.")),
        msg(N_("Otherwise the caller nearest the discarder's left gets it.")),
        nmsg(
            "The buyer also takes %(count)s penalty card from the stock.",
            "The buyer also takes %(count)s penalty cards from the stock.",
            buys.penalty_cards,
        ),
        cap,
    ]
    if buys.no_twice_in_a_row:
        lines.append(msg(N_("Nobody may buy twice in a row.")))
    return tuple(lines)


def _stock(rules: RuleSet) -> tuple[Message, ...]:
    """Stock exhaustion (docs/RULES.md 5)."""
    if rules.reshuffle is ReshufflePolicy.ALWAYS:
        return (msg(N_("Shuffle the discards, but the top card, into a new stock every time.")),)
    return (
        msg(N_("The first time, shuffle the discards, but the top card, into a new stock.")),
        msg(N_("The second time, the round ends and everybody counts their hand.")),
    )


def _scoring(rules: RuleSet) -> tuple[Message, ...]:
    """Card values, the cut bonus and the tiebreak (docs/RULES.md 6)."""
    values = rules.scoring.values
    lines = [
        msg(N_("Going out scores 0; everybody else counts the cards in hand.")),
        msg(
            N_(
                "Joker %(joker)s, ace %(ace)s, king, queen and jack %(face)s, the others as marked."
            ),
            joker=values["JK"],
            ace=values["A"],
            face=values["K"],
        ),
    ]
    if rules.scoring.cut_bonus:
        lines.append(
            msg(
                N_("An exact cut takes %(bonus)s off the cutter's score."),
                bonus=rules.scoring.cut_bonus,
            )
        )
    lines.append(msg(N_("The lowest total wins.")))
    lines.append(_tiebreak(rules.scoring.tiebreak))
    return tuple(lines)


def _tiebreak(policy: TiebreakPolicy) -> Message:
    """How a tie on the lowest total is settled."""
    if policy is TiebreakPolicy.SHARED:
        return msg(N_("Tied players share the win."))
    if policy is TiebreakPolicy.PLAYOFF:
        return msg(N_("Tied players play a tiebreaker round: 2 runs, 10 cards."))
    return msg(
        N_(
            "A tie goes to whoever went out in more rounds; still tied, a tiebreaker round "
            "(2 runs, 10 cards) decides."
        )
    )
