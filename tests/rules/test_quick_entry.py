"""A round said in one line, read in four languages: what it fills and what it refuses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.spoken_numbers import number_words
from scorekeeper.rules.quick_entry import MAX_TEXT, Reading, SaidHand
from scorekeeper.rules.quick_entry import read_round as read_with

FAMILY = ["Anna", "Bob", "Carl"]
LONG = [
    "Bartholomeus",
    "Concepción",
    "Marie-Claire",
    "Maximiliane",
    "Jean Baptiste",
    "Jean",
    "Ömer",
]

OUT = "out"


def read_round(text: str, names: list[str], language: str) -> Reading:
    """Read with text2num's number words, as the end-of-round form does."""
    return read_with(text, names, language, number_words)


def hands(text: str, names: list[str], language: str) -> dict[str, object]:
    reading = read_round(text, names, language)
    assert not reading.problems, [problem.render() for problem in reading.problems]
    return {names[hand.seat]: OUT if hand.went_out else hand.points for hand in reading.hands}


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("en", "Anna out, Bob 35, Carl twelve", {"Anna": OUT, "Bob": 35, "Carl": 12}),
        (
            "en",
            "anna out bob thirty-five and carl one hundred and five",
            {"Anna": OUT, "Bob": 35, "Carl": 105},
        ),
        ("en", "Bob has 35 points, Anna went out", {"Bob": 35, "Anna": OUT}),
        ("en", "A out B 0 C zero", {"Anna": OUT, "Bob": 0, "Carl": 0}),
        ("de", "Anna raus, Bob fünfunddreißig, Carl zwölf", {"Anna": OUT, "Bob": 35, "Carl": 12}),
        (
            "de",
            "Anna ist raus und Bob hat fünf und dreißig Punkte, Carl 12",
            {"Anna": OUT, "Bob": 35, "Carl": 12},
        ),
        ("nl", "Anna uit, Bob vijfendertig, Carl twaalf", {"Anna": OUT, "Bob": 35, "Carl": 12}),
        ("nl", "Bob heeft vijf en dertig punten en Anna is uit", {"Bob": 35, "Anna": OUT}),
        ("es", "Anna fuera, Bob treinta y cinco, Carl doce", {"Anna": OUT, "Bob": 35, "Carl": 12}),
        (
            "es",
            "Anna salió y Bob tiene veinticinco puntos y Carl cero",
            {"Anna": OUT, "Bob": 25, "Carl": 0},
        ),
    ],
)
def test_the_table_says_a_round(language: str, text: str, expected: dict[str, object]) -> None:
    assert hands(text, FAMILY, language) == expected


def test_english_out_is_understood_in_every_language() -> None:
    for language in ["de", "nl", "es"]:
        assert hands("Anna out", FAMILY, language) == {"Anna": OUT}


def test_long_names_by_their_first_letters_and_whole() -> None:
    said = "Barth 10, concepcion 5, Marie-Claire 7, Maxi 3, Jean Baptiste 20, Jean 4, Omer out"
    assert hands(said, LONG, "en") == {
        "Bartholomeus": 10,
        "Concepción": 5,
        "Marie-Claire": 7,
        "Maximiliane": 3,
        "Jean Baptiste": 20,
        "Jean": 4,
        "Ömer": OUT,
    }


def test_marie_claire_said_as_two_words() -> None:
    assert hands("marie claire acht", LONG, "de") == {"Marie-Claire": 8}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Ma 10", "“Ma” fits more than one player (Marie-Claire and Maximiliane)"),
        ("Zed 10", "“Zed” is not a player's name."),
        ("35 Bob 10", "“35” does not follow a player's name."),
        ("Bob", "No points were said for Bob."),
        ("Bob lots", "“lots” is not a player's name."),
        (
            "Bob seven million",
            "“seven million” is not a number of points for Bob.",
        ),
        ("Bob 10, Bob 20", "Bob was said twice: the first is kept."),
        ("Bob 99999999", "“99999999” is not a number of points for Bob."),
    ],
)
def test_what_it_cannot_read_it_says(text: str, problem: str) -> None:
    reading = read_round(text, [*FAMILY, "Marie-Claire", "Maximiliane"], "en")
    assert any(found.render().startswith(problem) for found in reading.problems), [
        found.render() for found in reading.problems
    ]


def test_a_name_said_twice_keeps_the_first() -> None:
    reading = read_round("Bob 10, Bob 20", FAMILY, "en")
    assert reading.hands == (SaidHand(1, went_out=False, points=10),)


def test_an_ambiguous_name_does_not_spoil_the_others() -> None:
    reading = read_round("Anna out, Ma 10, Bob 5", ["Anna", "Bob", "Marie", "Max"], "en")
    assert reading.hands == (SaidHand(0, True, None), SaidHand(1, False, 5))
    assert len(reading.problems) == 1


def test_nothing_is_read_from_an_overlong_line() -> None:
    reading = read_round("Bob 1 " * MAX_TEXT, FAMILY, "en")
    assert reading.hands == ()
    assert "at most 500 characters" in reading.problems[0].render()


def test_an_unknown_language_reads_english() -> None:
    assert hands("Anna out, Bob seven", FAMILY, "fr") == {"Anna": OUT, "Bob": 7}


@given(st.text(max_size=MAX_TEXT))
def test_any_line_reads_without_failing(text: str) -> None:
    reading = read_round(text, LONG, "es")
    assert len({hand.seat for hand in reading.hands}) == len(reading.hands)
    assert all(hand.points is None or 0 <= hand.points < 10**6 for hand in reading.hands)
