"""What the round screen reminds the table of, taken from the rule set (docs/RULES.md 3-9)."""

from __future__ import annotations

from .deal import Deal, contract_message, round_spec_for
from .messages import N_, Message, msg, nmsg
from .rules_card_melds import exact_lifted_message, wild_cap_message
from .ruleset import ReshufflePolicy, RuleSet
from .sheet_words import worded


def exact_cut(players: int, deal: int) -> int:
    """The cards a Liverpool cutter must cut: the deal for every player plus the up-card."""
    return players * deal + 1


def round_notes(rules: RuleSet, setup: Deal, players: int) -> tuple[Message, ...]:
    """The rules that matter while this round is played, each as one reminder."""
    spec = round_spec_for(rules, setup.round_number)
    notes: list[Message] = []
    if not setup.final_discard:
        notes.append(msg(N_("No final discard: go out by melding every card.")))
    notes += _buys(rules, setup)
    notes.append(_stock(rules))
    if rules.exact_lifted(spec):
        notes.append(exact_lifted_message(setup.round_number, spec.deal + 1, spec.contract))
    elif rules.melds.exact_laydown:
        notes.append(
            msg(
                N_("Lay down exactly the contract: %(contract)s, no longer."),
                contract=contract_message(setup.contract, lengths=True),
            )
        )
    if not rules.melds.abutting_runs and setup.contract.runs > 1:
        notes.append(msg(N_("Runs of one suit may not continue each other.")))
    notes += _wilds(rules)
    if setup.cutter is not None and rules.scoring.cut_bonus:
        notes.append(
            msg(
                N_("An exact cut is %(cards)s cards (%(players)s × %(deal)s + 1): −%(bonus)s."),
                cards=exact_cut(players, setup.deal),
                players=players,
                deal=setup.deal,
                bonus=rules.scoring.cut_bonus,
            )
        )
    return tuple(worded(rules, note) for note in (*notes, *setup.warnings))


def _buys(rules: RuleSet, setup: Deal) -> list[Message]:
    """Buy rules the buy counter does not show: none this round, a cap per game, once down."""
    if setup.buy_cap == 0 or rules.buys.cap_per_game == 0:
        return [msg(N_("No buying this round."))]
    notes = []
    if rules.buys.cap_per_game is not None:
        notes.append(
            nmsg(
                "At most %(count)s buy per game.",
                "At most %(count)s buys per game.",
                rules.buys.cap_per_game,
            )
        )
    if rules.buys.no_buy_after_contract_down:
        notes.append(msg(N_("Nobody may buy once their contract is down.")))
    return notes


def _stock(rules: RuleSet) -> Message:
    """What to do when the stock runs out: shuffle or turn over, once or every time."""
    once = rules.reshuffle is ReshufflePolicy.ONCE
    if rules.shuffle_on_reform:
        if once:
            return msg(
                N_("Stock runs out: shuffle the discards once; the second time the round ends.")
            )
        return msg(N_("Stock runs out: shuffle the discards into a new stock every time."))
    if once:
        return msg(
            N_(
                "Stock runs out: turn the discards over, unshuffled, once; the second time the "
                "round ends."
            )
        )
    return msg(N_("Stock runs out: turn the discards over, unshuffled, every time."))


def _wilds(rules: RuleSet) -> list[Message]:
    """Wild 2s and the wild cap, which the table must remember at every laydown."""
    notes = []
    melds = rules.melds
    if melds.wild_twos:
        notes.append(
            msg(
                N_("2s are wild; a 2 left in hand counts %(points)s."),
                points=rules.scoring.values["2"],
            )
        )
    if melds.max_wilds_per_meld is not None:
        notes.append(wild_cap_message(melds.max_wilds_per_meld))
    if not melds.jokers_wild:
        notes.append(msg(N_("There are no jokers.")))
    return notes
