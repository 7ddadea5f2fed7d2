"""Rule sets to and from JSON: lossless for good input, a message per field for bad."""

import copy
import json
import typing
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.bounds import (
    BUY_CALL_LENGTH,
    MAX_MELDS,
    MAX_ROUNDS,
    MIN_ROUNDS,
    NAME_LENGTH,
)
from scorekeeper.rules.errors import RuleSetInvalid
from scorekeeper.rules.messages import Message
from scorekeeper.rules.player_names import visible
from scorekeeper.rules.playing_cards import RANK_CODES
from scorekeeper.rules.presets import ACES_HIGH, MAY_I, PRESETS, UNLIMITED_BUYS
from scorekeeper.rules.ruleset import (
    BuyRules,
    Contract,
    DealPasses,
    FirstDealer,
    MeldRules,
    ReshufflePolicy,
    RoundSpec,
    RuleSet,
    ScoringRules,
    TiebreakPolicy,
)
from scorekeeper.rules.ruleset_json import (
    ROOT,
    ruleset_from_dict,
    ruleset_from_json,
    ruleset_to_dict,
    ruleset_to_json,
)

PRESET_PARAMS = pytest.mark.parametrize("rules", PRESETS.values(), ids=PRESETS.keys())


@PRESET_PARAMS
def test_every_preset_survives_the_dict_round_trip(rules: RuleSet) -> None:
    assert ruleset_from_dict(ruleset_to_dict(rules)) == rules


@PRESET_PARAMS
def test_every_preset_survives_the_json_round_trip(rules: RuleSet) -> None:
    assert ruleset_from_json(ruleset_to_json(rules)) == rules


def plain_json_types(value: object) -> bool:
    """True if the value holds only what json.dumps writes: no enums, tuples or dataclasses."""
    if isinstance(value, dict):
        return all(type(k) is str and plain_json_types(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_json_types(item) for item in value)
    return value is None or type(value) in (str, int, bool)


@PRESET_PARAMS
def test_the_dict_holds_only_plain_json_values(rules: RuleSet) -> None:
    data = ruleset_to_dict(rules)
    assert plain_json_types(data)
    assert json.loads(json.dumps(data)) == data


def test_enums_are_written_as_their_values_and_tuples_as_lists() -> None:
    data = ruleset_to_dict(ACES_HIGH)
    assert data["melds"]["aces"] == "high_or_low"
    assert data["reshuffle"] == "once"
    assert data["rounds"][6] == {
        "contract": {"books": 0, "runs": 3, "book_length": 3, "run_length": 4},
        "deal": 12,
        "final_discard": False,
        "buy_cap": None,
    }
    assert ruleset_to_dict(UNLIMITED_BUYS)["buys"]["cap_per_round"] is None


def test_changing_the_dict_leaves_the_rule_set_alone() -> None:
    data = ruleset_to_dict(MAY_I)
    data["scoring"]["values"]["JK"] = 99
    assert MAY_I.scoring.values["JK"] == 15


def test_json_keeps_non_ascii_names_readable() -> None:
    rules = replace(MAY_I, key="ours", name="Mäxchens Runde ♠", buy_call="Darf ich?")
    text = ruleset_to_json(rules)
    assert "Mäxchens Runde ♠" in text
    assert ruleset_from_json(text) == rules


def test_omitted_settings_take_their_defaults() -> None:
    data = {
        "key": "short",
        "name": "Short game",
        "rounds": [{"contract": {"books": 2}, "deal": 10}] * 6,
        "decks": [{"min_players": 2, "max_players": 8, "decks": 3, "jokers_base": 6}],
    }
    rules = ruleset_from_dict(data)
    assert rules == RuleSet(
        key="short",
        name="Short game",
        rounds=(RoundSpec(Contract(books=2), deal=10),) * 6,
        decks=(replace(MAY_I.decks[1], min_players=2),),
    )
    assert rules.buys == BuyRules() and rules.scoring == ScoringRules()


def test_a_stored_copy_of_three_rounds_reads_but_a_new_one_is_refused_at_rounds() -> None:
    data = {**ruleset_to_dict(MAY_I), "rounds": ruleset_to_dict(MAY_I)["rounds"][:3]}
    assert ruleset_from_dict(data, stored=True).rounds == MAY_I.rounds[:3]
    assert set(errors_for(data)) == {"rounds"}


def set_path(data: Any, path: str, value: object) -> None:
    """Set `value` at a dotted path; numeric parts index lists."""
    *parents, last = path.split(".")
    for part in parents:
        data = data[int(part)] if isinstance(data, list) else data[part]
    if isinstance(data, list):
        data[int(last)] = value
    else:
        data[last] = value


def del_path(data: Any, path: str) -> None:
    """Remove the key at a dotted path."""
    *parents, last = path.split(".")
    for part in parents:
        data = data[int(part)] if isinstance(data, list) else data[part]
    del data[last]


def errors_for(data: object) -> dict[str, list[Message]]:
    """The errors ruleset_from_dict refuses `data` with."""
    with pytest.raises(RuleSetInvalid) as excinfo:
        ruleset_from_dict(data)
    return excinfo.value.errors


def may_i_data() -> dict[str, Any]:
    return copy.deepcopy(ruleset_to_dict(MAY_I))


WRONG_TYPES = [
    ("rounds.2.deal", True),
    ("rounds.2.deal", "10"),
    ("rounds.2.deal", 10.5),
    ("rounds.2.deal", None),
    ("rounds.0.contract.books", [2]),
    ("rounds.0.buy_cap", "none"),
    ("rounds.0.final_discard", 0),
    ("buys.cap_per_round", "3"),
    ("buys.cap_per_round", False),
    ("buys.penalty_cards", None),
    ("melds.exact_laydown", 1),
    ("melds.exact_laydown", "yes"),
    ("melds.aces", "upside_down"),
    ("melds.aces", "LOW"),
    ("melds.aces", True),
    ("reshuffle", None),
    ("scoring.tiebreak", "coin"),
    ("name", 5),
    ("key", None),
    ("rounds", {}),
    ("rounds", "1,2,3"),
    ("rounds.0", 10),
    ("rounds.0.contract", [2, 0]),
    ("decks.1.decks", "three"),
    ("scoring", []),
    ("scoring.values", [15, 15]),
    ("scoring.values.JK", 1.5),
    ("scoring.values.JK", None),
    ("scoring.tiebreaker_round.deal", "10"),
]


@pytest.mark.parametrize(("path", "value"), WRONG_TYPES)
def test_a_wrong_type_is_refused_on_its_field(path: str, value: object) -> None:
    data = may_i_data()
    set_path(data, path, value)
    errors = errors_for(data)
    assert list(errors) == [path]
    assert all(isinstance(message, Message) for message in errors[path])


def test_every_wrong_type_is_reported_at_once() -> None:
    data = may_i_data()
    paths = ["rounds.2.deal", "buys.cap_per_round", "melds.aces", "scoring.values.JK", "name"]
    for path, value in zip(paths, [True, "3", "up", None, 5], strict=True):
        set_path(data, path, value)
    assert set(errors_for(data)) == set(paths)


def test_an_unknown_enum_value_lists_the_choices() -> None:
    data = may_i_data()
    set_path(data, "melds.aces", "sideways")
    [message] = errors_for(data)["melds.aces"]
    assert message.render() == "Must be one of: low, high_or_low, around."


@pytest.mark.parametrize("path", ["colour", "buys.colour", "rounds.1.colour", "scoring.bonus"])
def test_an_unknown_setting_is_refused(path: str) -> None:
    data = may_i_data()
    set_path(data, path, 1)
    assert set(errors_for(data)) == {path}


@pytest.mark.parametrize(
    "path",
    ["key", "name", "rounds", "decks", "rounds.0.deal", "rounds.3.contract", "decks.0.decks"],
)
def test_a_missing_required_setting_is_refused(path: str) -> None:
    data = may_i_data()
    del_path(data, path)
    [message] = errors_for(data)[path]
    assert message.render() == "Required."


@pytest.mark.parametrize("data", [None, [], "may-i", 7, True])
def test_a_document_that_is_not_an_object_is_refused_as_a_whole(data: object) -> None:
    assert set(errors_for(data)) == {ROOT}


def test_a_well_typed_but_invalid_rule_set_is_refused_by_validation() -> None:
    data = may_i_data()
    set_path(data, "rounds.4.deal", 2)
    set_path(data, "scoring.values.K", -10)
    assert set(errors_for(data)) == {"rounds.4.deal", "scoring.values.K"}


@pytest.mark.parametrize("text", ["", "{", "{'key': 1}", "[1, 2,]"])
def test_text_that_is_not_json_is_refused_with_its_position(text: str) -> None:
    with pytest.raises(RuleSetInvalid) as excinfo:
        ruleset_from_json(text)
    [message] = excinfo.value.errors[ROOT]
    assert set(message.params) == {"line", "column"}


def test_json_with_a_bad_field_is_refused_on_that_field() -> None:
    text = ruleset_to_json(MAY_I).replace('"penalty_cards": 1', '"penalty_cards": -1')
    with pytest.raises(RuleSetInvalid) as excinfo:
        ruleset_from_json(text)
    assert set(excinfo.value.errors) == {"buys.penalty_cards"}


# Strategies: vary the presets within the limits validation allows. Deals stay at 17 or
# fewer so six players fit two decks and four jokers (6 × 17 + 1 = 103 ≤ 108).
MAX_DEAL = 17
caps = st.none() | st.integers(0, 5)


@st.composite
def contracts(draw: st.DrawFn) -> Contract:
    books = draw(st.integers(0, 4))
    book_length = draw(st.integers(3, 4))
    run_length = draw(st.integers(3, 5))
    room = (MAX_DEAL + 1 - books * book_length) // run_length
    runs = draw(st.integers(0 if books else 1, max(1, min(3, room, MAX_MELDS - books))))
    contract = Contract(books, runs, book_length, run_length)
    return contract if contract.cards_needed <= MAX_DEAL + 1 else Contract(books=1)


@st.composite
def rounds(draw: st.DrawFn) -> RoundSpec:
    contract = draw(contracts())
    deal = draw(st.integers(max(1, contract.cards_needed - 1), MAX_DEAL))
    return RoundSpec(contract, deal, final_discard=draw(st.booleans()), buy_cap=draw(caps))


def typed(length: int) -> st.SearchStrategy[str]:
    """A table's own words: visible characters, not blank, within their bound."""
    return st.text(min_size=1, max_size=length).filter(lambda text: text.strip() and visible(text))


def all_fields(cls: type[Any], **overrides: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Build `cls` with every field drawn: flags and enums from their types, the rest given."""
    hints = typing.get_type_hints(cls)
    return st.builds(
        cls, **{name: overrides.get(name, st.from_type(hints[name])) for name in hints}
    )


rule_sets = st.builds(
    lambda base, changes: replace(base, **changes),
    st.sampled_from(list(PRESETS.values())),
    st.fixed_dictionaries(
        {
            # A preset's key is kept only by that preset itself (test_presets).
            "key": st.from_regex(r"[a-z0-9]{1,9}(-[a-z0-9]{1,9}){0,3}", fullmatch=True).filter(
                lambda key: key not in PRESETS
            ),
            "name": typed(NAME_LENGTH),
            "buy_call": typed(BUY_CALL_LENGTH),
            "rounds": st.lists(rounds(), min_size=MIN_ROUNDS, max_size=MAX_ROUNDS).map(tuple),
            "buys": all_fields(
                BuyRules, cap_per_round=caps, cap_per_game=caps, penalty_cards=st.integers(0, 2)
            ),
            "melds": all_fields(MeldRules, max_wilds_per_meld=st.none() | st.integers(1, 4)),
            "scoring": all_fields(
                ScoringRules,
                values=st.fixed_dictionaries(
                    {code: st.integers(0, 100) for code in RANK_CODES.values()}
                ).filter(lambda values: any(values.values())),
                cut_bonus=st.integers(0, 100),
                tiebreak=st.sampled_from(TiebreakPolicy),
                tiebreaker_round=rounds(),
            ),
            "reshuffle": st.sampled_from(ReshufflePolicy),
            "shuffle_on_reform": st.booleans(),
            "first_dealer": st.sampled_from(FirstDealer),
            "deal_passes": st.sampled_from(DealPasses),
        }
    ),
)


@settings(deadline=None)
@given(rule_sets)
def test_any_valid_rule_set_survives_the_json_round_trip_unchanged(rules: RuleSet) -> None:
    assert ruleset_from_json(ruleset_to_json(rules)) == rules


@settings(deadline=None)
@given(rule_sets, st.sampled_from(sorted(RANK_CODES.values())), st.integers(max_value=-1))
def test_any_negative_card_value_is_refused_on_that_rank(
    rules: RuleSet, code: str, value: int
) -> None:
    data = ruleset_to_dict(rules)
    data["scoring"]["values"][code] = value
    # With no other card above 0 the set is refused a second time, at scoring.values (no
    # value to score hands by): another rule than the one this property checks.
    assume(any(worth > 0 for rank, worth in data["scoring"]["values"].items() if rank != code))
    assert set(errors_for(data)) == {f"scoring.values.{code}"}


def test_a_whole_number_sent_as_a_float_reads_as_that_number() -> None:
    data = may_i_data()
    data["rounds"][2]["deal"] = 10.0  # JSON has one kind of number: 10.0 is 10
    data["scoring"]["values"]["K"] = 10.0
    rules = ruleset_from_dict(data)
    assert rules.rounds[2].deal == 10 and isinstance(rules.rounds[2].deal, int)
    assert rules == ruleset_from_dict(may_i_data())
