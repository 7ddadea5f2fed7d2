"""A round said in one line, read in five languages: what it fills, and what it names instead."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.spoken_numbers import number_words
from scorekeeper.rules.messages import english_list
from scorekeeper.rules.quick_entry import MAX_TEXT, Reading, SaidHand
from scorekeeper.rules.quick_entry import read_round as read_with
from scorekeeper.rules.spoken_words import LANGUAGES
from tests.rules.quick_entry_tables import OUT, PLAYERS, UTTERANCES

FIVE = ["Bartholomeus", "Concepción", "Marie-Claire", "Oma", "Jo"]
LONG = [
    "Bartholomeus",
    "Concepción",
    "Marie-Claire",
    "Maximiliane",
    "Jean Baptiste",
    "Jean",
    "Ömer",
]


def read_round(text: str, names: list[str], language: str) -> Reading:
    """Read with text2num's number words, as the end-of-round form does."""
    return read_with(text, names, language, number_words)


def reading(text: str, names: list[str], language: str) -> tuple[dict[str, object], list[str]]:
    """The hands filled, by name, and every message said, in English."""
    read = read_round(text, names, language)
    hands = {names[hand.seat]: OUT if hand.went_out else hand.points for hand in read.hands}
    return hands, [problem.render() for problem in read.problems]


def nothing_for(*names: str) -> str:
    return f"Nothing for {english_list(names)}."


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [(language, text, hands) for language, said in UTTERANCES.items() for text, hands in said],
)
def test_a_round_said_at_the_table_fills_its_hands_and_says_nothing_else(
    language: str, text: str, expected: dict[str, object]
) -> None:
    names = PLAYERS[language]
    unnamed = [name for name in names if name not in expected]
    assert reading(text, names, language) == (expected, [nothing_for(*unnamed)] if unnamed else [])


def test_every_language_has_at_least_25_utterances() -> None:
    assert {language: len(said) >= 25 for language, said in UTTERANCES.items()} == dict.fromkeys(
        LANGUAGES, True
    )


# The misreadings issue 35 found, each with what the reading fills and says now.
@pytest.mark.parametrize(
    ("language", "names", "text", "hands", "said"),
    [
        (
            "en",
            FIVE,
            "B out, O 35, J 12, C 40",
            {"Bartholomeus": OUT, "Oma": 35, "Jo": 12, "Concepción": 40},
            [nothing_for("Marie-Claire")],
        ),
        (
            "en",
            FIVE,
            "Oma out, Jo out, B 12, C 3, M 4",
            {"Bartholomeus": 12, "Concepción": 3, "Marie-Claire": 4},
            ["Only one player goes out, but Oma and Jo were said out."],
        ),
        ("nl", ["Erik", "Piet"], "Piet heeft er vijfendertig", {"Piet": 35}, [nothing_for("Erik")]),
        (
            "nl",
            ["Erik", "Jan"],
            "Piet heeft er vijfendertig",
            {},
            ["I could not read “Piet”, so “vijfendertig” is left out.", nothing_for("Erik", "Jan")],
        ),
        ("es", ["Sebastián", "Ana"], "Ana se salió", {"Ana": OUT}, [nothing_for("Sebastián")]),
        (
            "es",
            ["Sebastián", "Marta"],
            "Ana se salió",
            {},
            ["I could not read “Ana”, so “salió” is left out.", nothing_for("Sebastián", "Marta")],
        ),
        ("nl", ["Gaatje", "Jan"], "Jan gaat uit", {"Jan": OUT}, [nothing_for("Gaatje")]),
        ("es", ["Ana", "Bob"], "Ana fuera, Bob veintidos", {"Ana": OUT, "Bob": 22}, []),
        ("fr", ["Anna", "Bob"], "Anna est sortie, Bob 35", {"Anna": OUT, "Bob": 35}, []),
        (
            "fr",
            ["Bob", "Carl"],
            "Anna est sortie",
            {},
            ["I could not read “Anna”, so “sortie” is left out.", nothing_for("Bob", "Carl")],
        ),
    ],
)
def test_the_misreadings_it_was_found_with(
    language: str, names: list[str], text: str, hands: dict[str, object], said: list[str]
) -> None:
    assert reading(text, names, language) == (hands, said)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", "fertig"),
        ("de", "ist ausgegangen"),
        ("de", "raus"),
        ("nl", "is uitgegaan"),
        ("nl", "ging uit"),
        ("nl", "is klaar"),
        ("es", "ha salido"),
        ("es", "se fue"),
        ("es", "cerró"),
        ("es", "cerro"),
        ("fr", "est sortie"),
        ("fr", "est sorti"),
        ("fr", "a fini"),
        ("fr", "a terminé"),
        ("en", "went out"),
    ],
)
def test_the_sources_words_for_going_out(language: str, words: str) -> None:
    assert reading(f"Anna {words}, Bob 5", ["Anna", "Bob"], language) == (
        {"Anna": OUT, "Bob": 5},
        [],
    )


@pytest.mark.parametrize(
    ("language", "text", "number"),
    [
        ("es", "veintidos", 22),
        ("es", "veintitres", 23),
        ("es", "dieciseis", 16),
        ("de", "funfunddreissig", 35),
        ("de", "fuenfzig", 50),
        ("de", "zwolf", 12),
        ("nl", "tweeentwintig", 22),
        ("nl", "drieenveertig", 43),
        ("fr", "zero", 0),
    ],
)
def test_number_words_typed_without_their_accents(language: str, text: str, number: int) -> None:
    assert reading(f"Bob {text}", ["Bob"], language) == ({"Bob": number}, [])


REFUSALS = ["Anna", "Bob", "Marie-Claire", "Maximiliane", "Tennyson"]


@pytest.mark.parametrize(
    ("text", "hands", "said"),
    [
        (
            "Ma 10, Bob 5",
            {"Bob": 5},
            [
                "“Ma” fits more than one player (Marie-Claire and Maximiliane): "
                "say more of the name."
            ],
        ),
        ("Zed 4, Bob 5", {"Bob": 5}, ["I could not read “Zed”, so “4” is left out."]),
        ("Bob 5 Zed Zack", {"Bob": 5}, ["I could not read “Zed Zack”."]),
        ("35 Bob 10", {"Bob": 10}, ["“35” does not follow a player's name."]),
        ("Bob 30, 5", {"Bob": 30}, ["“5” does not follow a player's name."]),
        ("Bob 30 5", {}, ["“30 5” is not a number of points for Bob."]),
        ("Bob twenty 5", {}, ["“twenty 5” is not a number of points for Bob."]),
        ("Bob out 5", {}, ["“out 5” is not a number of points for Bob."]),
        ("Bob seven million", {}, ["“seven million” is not a number of points for Bob."]),
        ("Bob 99999999", {}, ["“99999999” is not a number of points for Bob."]),
        ("Bob 10, Bob 20", {}, ["Bob was said twice: “Bob 10” and “Bob 20”."]),
        ("Bob 10, Bob ten", {"Bob": 10}, []),
        (
            "Bob out, Anna went out",
            {},
            ["Only one player goes out, but Bob and Anna were said out."],
        ),
        (
            "Bob ten 12",
            {},
            ["After Bob, “ten” could be points or Tennyson: say the whole name."],
        ),
        ("Bob lots", {}, ["I could not read “lots”."]),
        ("Bob a hundred", {}, ["I could not read “a”, so “hundred” is left out."]),
        ("Bob A 35", {}, ["I could not read “A”, so “35” is left out."]),
    ],
)
def test_what_it_cannot_be_sure_of_it_names(
    text: str, hands: dict[str, object], said: list[str]
) -> None:
    filled, problems = reading(text, REFUSALS, "en")
    told = " ".join(said)
    unnamed = [name for name in REFUSALS if name not in hands and name not in told]
    assert (filled, problems) == (hands, [*said, nothing_for(*unnamed)])


@pytest.mark.parametrize(
    ("language", "names", "text", "said"),
    [
        (
            "de",
            ["Jo", "Elfriede"],
            "Jo elf 20",
            "After Jo, “elf” could be points or Elfriede: say the whole name.",
        ),
        (
            "nl",
            ["Jan", "Tienke"],
            "Jan tien 12",
            "After Jan, “tien” could be points or Tienke: say the whole name.",
        ),
        (
            "es",
            ["Sebastián", "Unai"],
            "Sebastián un 12",
            "After Sebastián, “un” could be points or Unai: say the whole name.",
        ),
        (
            "de",
            ["Oma", "Jo"],
            "Oma raus, Jo ist fertig",
            "Only one player goes out, but Oma and Jo were said out.",
        ),
        (
            "nl",
            ["Erik", "Enzo"],
            "Erik uit, Enzo is klaar",
            "Only one player goes out, but Erik and Enzo were said out.",
        ),
        (
            "es",
            ["Yolanda", "Esteban"],
            "Yolanda fuera, Esteban salió",
            "Only one player goes out, but Yolanda and Esteban were said out.",
        ),
        (
            "fr",
            ["Bob", "Septime"],
            "Bob sept 12",
            "After Bob, “sept” could be points or Septime: say the whole name.",
        ),
        (
            "fr",
            ["Anna", "Bob"],
            "Anna est sortie, Bob a fini",
            "Only one player goes out, but Anna and Bob were said out.",
        ),
        ("nl", ["Erik", "Enzo"], "Er 12 En 5", "“12 En 5” does not follow a player's name."),
    ],
)
def test_a_name_that_is_also_a_number_or_a_filler_is_never_guessed(
    language: str, names: list[str], text: str, said: str
) -> None:
    filled, problems = reading(text, names, language)
    assert filled == {}
    assert problems[0] == said


def test_each_filled_hand_keeps_the_words_it_came_from() -> None:
    read = read_round("B out, O 35, Jo has twelve points", FIVE, "en")
    assert read.hands == (
        SaidHand(0, went_out=True, points=None, words="B out"),
        SaidHand(3, went_out=False, points=35, words="O 35"),
        SaidHand(4, went_out=False, points=12, words="Jo has twelve"),
    )


def test_long_names_by_their_first_letters_and_whole() -> None:
    said = "Barth 10, concepcion 5, Marie-Claire 7, Maxi 3, Jean Baptiste 20, Jean 4, Omer out"
    assert reading(said, LONG, "en") == (
        {
            "Bartholomeus": 10,
            "Concepción": 5,
            "Marie-Claire": 7,
            "Maximiliane": 3,
            "Jean Baptiste": 20,
            "Jean": 4,
            "Ömer": OUT,
        },
        [],
    )


def test_two_word_names_by_their_first_letters() -> None:
    names = ["Ana María", "Ana Lucía", "Jean Baptiste"]
    assert reading("Ana M 5, Ana L 6, J B out", names, "es") == (
        {"Ana María": 5, "Ana Lucía": 6, "Jean Baptiste": OUT},
        [],
    )


def test_english_out_is_understood_in_every_language() -> None:
    for language in LANGUAGES:
        assert reading("Anna out, Bob 5", ["Anna", "Bob"], language) == (
            {"Anna": OUT, "Bob": 5},
            [],
        )


def test_an_empty_line_names_everyone_it_said_nothing_for() -> None:
    assert reading("", ["Anna", "Bob"], "en") == ({}, [nothing_for("Anna", "Bob")])


def test_nothing_is_read_from_an_overlong_line() -> None:
    read = read_round("Bob 1 " * MAX_TEXT, FIVE, "en")
    assert read.hands == ()
    assert [problem.render() for problem in read.problems] == [
        "Say the round in at most 500 characters."
    ]


def test_an_unknown_language_reads_english() -> None:
    assert reading("Anna out, Bob seven", ["Anna", "Bob"], "it") == ({"Anna": OUT, "Bob": 7}, [])


@given(st.text(max_size=MAX_TEXT))
def test_any_line_reads_without_failing(text: str) -> None:
    read = read_round(text, LONG, "es")
    assert len({hand.seat for hand in read.hands}) == len(read.hands)
    assert sum(hand.went_out for hand in read.hands) <= 1
    assert all(hand.points is None or 0 <= hand.points < 10**6 for hand in read.hands)
    assert all(hand.words and hand.words in text for hand in read.hands)
