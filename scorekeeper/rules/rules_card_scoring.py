"""The rules card on scoring: every card value, bonuses and the tiebreak (docs/RULES.md 6)."""

from __future__ import annotations

from .deal import contract_message
from .messages import N_, Message, msg, nmsg
from .playing_cards import Rank
from .ruleset import RuleSet, TiebreakPolicy

PIPS = tuple(Rank(n) for n in range(2, 11))
COURT = {"K": N_("King: %(points)s."), "Q": N_("Queen: %(points)s."), "J": N_("Jack: %(points)s.")}


def scoring_lines(rules: RuleSet) -> tuple[Message, ...]:
    """Going out, what each card in hand costs, the cut bonus, adjustments and the tiebreak."""
    scoring = rules.scoring
    lines = [msg(N_("Going out scores 0; everybody else counts the cards in hand."))]
    lines += value_lines(rules)
    if scoring.cut_bonus:
        lines.append(
            msg(
                N_(
                    "The player right of the dealer cuts: exactly the cards for the deal plus "
                    "the up-card (players × deal + 1) scores −%(bonus)s for that round."
                ),
                bonus=scoring.cut_bonus,
            )
        )
    if scoring.adjustments:
        lines.append(msg(N_("A round's score may be adjusted, e.g. for a short-dealt hand.")))
    lines.append(msg(N_("The lowest total wins.")))
    lines.append(_tiebreak(rules))
    return tuple(lines)


def value_lines(rules: RuleSet) -> list[Message]:
    """What every rank left in hand costs; the joker only when jokers are played."""
    values = rules.scoring.values
    lines = []
    if rules.plays_jokers():
        lines.append(msg(N_("Joker: %(points)s."), points=_points(values["JK"])))
    lines.append(msg(N_("Ace: %(points)s."), points=_points(values["A"])))
    if values["K"] == values["Q"] == values["J"]:
        lines.append(msg(N_("King, queen and jack: %(points)s each."), points=_points(values["K"])))
    else:
        lines += [msg(COURT[code], points=_points(values[code])) for code in COURT]
    return lines + _pip_lines(values)


def _pip_lines(values: dict[str, int]) -> list[Message]:
    """2 to 10, stretches of equal values or of face values told together ("3 to 10")."""
    stretches: list[list[Rank]] = []
    for rank in PIPS:
        if stretches and _kind(values, stretches[-1][-1]) == _kind(values, rank):
            stretches[-1].append(rank)
        else:
            stretches.append([rank])
    return [_stretch(values, stretch) for stretch in stretches]


def _kind(values: dict[str, int], rank: Rank) -> int | None:
    """None for a card at its face value, else its value: equal kinds are told together."""
    return None if values[rank.code] == rank else values[rank.code]


def _stretch(values: dict[str, int], ranks: list[Rank]) -> Message:
    """One stretch of pip ranks as a sentence."""
    low, high = ranks[0], ranks[-1]
    points, at_face = values[low.code], _kind(values, low) is None
    if len(ranks) == 1:
        if at_face:
            return msg(N_("%(rank)s: its face value."), rank=low)
        return msg(N_("%(rank)s: %(points)s."), rank=low, points=_points(points))
    if at_face:
        return msg(N_("%(low)s to %(high)s: their face value."), low=low, high=high)
    return msg(
        N_("%(low)s to %(high)s: %(points)s each."), low=low, high=high, points=_points(points)
    )


def _points(value: int) -> Message:
    """A number of points."""
    return nmsg("%(count)s point", "%(count)s points", value)


def _tiebreak(rules: RuleSet) -> Message:
    """How a tie on the lowest total is settled, with the tiebreaker round's contract and deal."""
    policy, spec = rules.scoring.tiebreak, rules.scoring.tiebreaker_round
    if policy is TiebreakPolicy.SHARED:
        return msg(N_("Tied players share the win."))
    params = {"contract": contract_message(spec.contract), "deal": spec.deal}
    if policy is TiebreakPolicy.PLAYOFF:
        return msg(
            N_("Tied players play a tiebreaker round: %(contract)s, %(deal)s cards."), **params
        )
    return msg(
        N_(
            "A tie goes to whoever went out in more rounds; still tied, a tiebreaker round "
            "(%(contract)s, %(deal)s cards) decides."
        ),
        **params,
    )
