"""Card notation: reading tokens, local rank letters and labels (RULES.md section 1)."""

import pytest

from scorekeeper.rules.errors import CardParseError, RuleError
from scorekeeper.rules.playing_cards import (
    JOKER,
    NATURAL_RANKS,
    Card,
    Rank,
    Suit,
    parse_card,
    parse_cards,
    rank_letter,
)


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("7H", Card(Rank.SEVEN, Suit.HEARTS)),
        ("10S", Card(Rank.TEN, Suit.SPADES)),
        ("TS", Card(Rank.TEN, Suit.SPADES)),
        ("QD", Card(Rank.QUEEN, Suit.DIAMONDS)),
        ("AC", Card(Rank.ACE, Suit.CLUBS)),
        ("2C", Card(Rank.TWO, Suit.CLUBS)),
        ("JS", Card(Rank.JACK, Suit.SPADES)),
        ("KH", Card(Rank.KING, Suit.HEARTS)),
        ("JK", JOKER),
        ("7♥", Card(Rank.SEVEN, Suit.HEARTS)),
        ("10♠", Card(Rank.TEN, Suit.SPADES)),
        ("A♣", Card(Rank.ACE, Suit.CLUBS)),
        ("Q♦", Card(Rank.QUEEN, Suit.DIAMONDS)),
        ("7h", Card(Rank.SEVEN, Suit.HEARTS)),
        ("ts", Card(Rank.TEN, Suit.SPADES)),
        ("qd", Card(Rank.QUEEN, Suit.DIAMONDS)),
        ("jk", JOKER),
        ("Joker", JOKER),
        (" 7H ", Card(Rank.SEVEN, Suit.HEARTS)),
    ],
)
def test_parse_card_reads_the_notation(token: str, card: Card) -> None:
    assert parse_card(token) == card


@pytest.mark.parametrize("token", ["1H", "11S", "ZZ", "7X", "", "H7", "JKH", "10", "7 H"])
def test_parse_card_refuses_a_bad_token_and_names_it(token: str) -> None:
    with pytest.raises(CardParseError) as excinfo:
        parse_card(token)
    assert excinfo.value.token == token
    assert excinfo.value.field == "cards"
    assert excinfo.value.message.params == {"token": token}
    assert str(excinfo.value) == f"Not a card: {token}"


def test_a_card_parse_error_is_a_rule_error_the_views_can_show() -> None:
    with pytest.raises(RuleError):
        parse_card("ZZ")


@pytest.mark.parametrize(
    "text",
    ["7H 10S JK", "7H,10S,JK", "7h, 10♠ ,jk", "  7H\t10S\nJK  ", ["7H", "10S", "JK"]],
)
def test_parse_cards_reads_a_string_or_a_list(text: str | list[str]) -> None:
    assert parse_cards(text) == [Card(Rank.SEVEN, Suit.HEARTS), Card(Rank.TEN, Suit.SPADES), JOKER]


@pytest.mark.parametrize("text", ["", "   ", []])
def test_parse_cards_of_nothing_is_an_empty_hand(text: str | list[str]) -> None:
    assert parse_cards(text) == []


@pytest.mark.parametrize(("text", "bad"), [("7H ZZ 1H", "ZZ"), (["QD", "11S"], "11S")])
def test_parse_cards_names_the_first_bad_token(text: str | list[str], bad: str) -> None:
    with pytest.raises(CardParseError) as excinfo:
        parse_cards(text)
    assert excinfo.value.token == bad


@pytest.mark.parametrize(
    ("locale", "letters"),
    [
        ("en", "JQK"),
        ("es", "JQK"),
        ("de", "BDK"),
        ("nl", "BVH"),
        ("de_DE", "BDK"),
        ("nl-NL", "BVH"),
        ("fr", "VDR"),
        ("fr_CA", "VDR"),
        ("it", "JQK"),  # no letters of its own: English
    ],
)
def test_face_cards_use_the_tables_letters(locale: str, letters: str) -> None:
    faces = (Rank.JACK, Rank.QUEEN, Rank.KING)
    assert "".join(rank_letter(rank, locale) for rank in faces) == letters


@pytest.mark.parametrize("locale", ["en", "es", "de", "nl", "fr"])
@pytest.mark.parametrize(("rank", "letter"), [(Rank.ACE, "A"), (Rank.TWO, "2"), (Rank.TEN, "10")])
def test_aces_and_numbers_read_the_same_everywhere(locale: str, rank: Rank, letter: str) -> None:
    assert rank_letter(rank, locale) == letter


@pytest.mark.parametrize(
    ("card", "locale", "label"),
    [
        (Card(Rank.QUEEN, Suit.SPADES), "en", "Q♠"),
        (Card(Rank.QUEEN, Suit.SPADES), "de", "D♠"),
        (Card(Rank.QUEEN, Suit.SPADES), "nl", "V♠"),
        (Card(Rank.KING, Suit.HEARTS), "nl", "H♥"),
        (Card(Rank.JACK, Suit.CLUBS), "de", "B♣"),
        (Card(Rank.TEN, Suit.DIAMONDS), "es", "10♦"),
        (Card(Rank.ACE, Suit.HEARTS), "de", "A♥"),
        (Card(Rank.KING, Suit.SPADES), "fr", "R♠"),
        (Card(Rank.JACK, Suit.HEARTS), "fr", "V♥"),
        (Card(Rank.ACE, Suit.CLUBS), "fr", "A♣"),
        (JOKER, "en", "JK"),  # not 🃏, which looks like the sheet's ★ "went out" mark
        (JOKER, "nl", "JK"),
    ],
)
def test_a_card_is_labelled_in_the_tables_language(card: Card, locale: str, label: str) -> None:
    assert card.label(locale) == label


def test_a_label_defaults_to_english() -> None:
    assert Card(Rank.JACK, Suit.HEARTS).label() == "J♥"


@pytest.mark.parametrize("card", [JOKER, *(Card(r, s) for r in NATURAL_RANKS for s in Suit)])
def test_every_card_reads_back_from_its_notation(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(card.label()) == card


def test_only_the_joker_is_wild() -> None:
    assert JOKER.is_joker
    assert not any(Card(rank, Suit.SPADES).is_joker for rank in NATURAL_RANKS)
