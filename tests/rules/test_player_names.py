"""Player names: a clean form to show and a key that makes look-alike names one player."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.errors import RuleError
from scorekeeper.rules.player_names import NAME_LENGTH, clean_name, name_key


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ömer", "ÖMER"),
        ("O\u0308mer", "Ömer"),
        ("Ｂｏｂ", "bob"),
        ("Straße", "STRASSE"),
        ("ǅ", "dž"),
    ],
)
def test_look_alikes_share_a_key(one: str, other: str) -> None:
    assert name_key(clean_name(one)) == name_key(clean_name(other))


@pytest.mark.parametrize(
    "name", ["\u200bBob", "Bob\ufeff", "\u202eboB", "B\x00b", "A\u2028B", "\ue000"]
)
def test_invisible_characters_are_refused(name: str) -> None:
    with pytest.raises(RuleError):
        clean_name(name)


def test_spaces_are_trimmed_and_single_and_length_is_kept() -> None:
    assert clean_name("  Anna \u3000 Lena ") == "Anna Lena"
    assert clean_name("x" * NAME_LENGTH) == "x" * NAME_LENGTH
    for name in ("", "   ", "x" * (NAME_LENGTH + 1)):
        with pytest.raises(RuleError):
            clean_name(name)


@given(st.text(max_size=NAME_LENGTH))
def test_cleaning_and_keys_are_stable(raw: str) -> None:
    try:
        name = clean_name(raw)
    except RuleError:
        return
    assert clean_name(name) == name
    assert name_key(name_key(name)) == name_key(name)
