"""The words a table says around names and points in a round said aloud, per language.

Every word is folded (lower case, no accents: quick_entry.fold) so a keyboard without "ó" or
"ß" reads the same. The words for going out are the sources' own (shared/rules/sources:
"ausgegangen", "fertig", "uitgegaan", "klaar", "salió", "se fue", "cerró"); French, which has no
source, says the table's "sortie", "fini" (shared/i18n/french.md).
"""

from __future__ import annotations

LANGUAGES = ("en", "de", "nl", "es", "fr")


def _words(said: str) -> frozenset[str]:
    return frozenset(said.split())


# Each a phrase of folded words: "se fue" goes out, "fue" alone does not.
OUT_PHRASES: dict[str, frozenset[tuple[str, ...]]] = {
    "en": frozenset({("out",), ("done",), ("finished",)}),
    "de": frozenset(
        {("raus",), ("aus",), ("draussen",), ("fertig",), ("ausgegangen",), ("rausgegangen",)}
    ),
    "nl": frozenset({("uit",), ("uitgegaan",), ("klaar",)}),
    "es": frozenset(
        {("fuera",), ("salio",), ("salido",), ("sale",), ("se", "fue"), ("cerro",), ("cerrado",)}
    ),
    # "Anna est sortie", "Bob a fini", "Carl sort": "est" and "a" are fillers.
    "fr": frozenset(
        {("sorti",), ("sortie",), ("sort",), ("fini",), ("finie",), ("termine",), ("terminee",)}
    ),
}

# Function words and fillers: what a sentence carries around the points ("Piet heeft er
# vijfendertig", "Ana se salió", "Bob has 35 points"). Never a name, nor its first letters.
FILLERS: dict[str, frozenset[str]] = {
    "en": _words(
        "and has had have is was went goes got gets with the for then so also um uh er ok okay "
        "points point pts"
    ),
    "de": _words(
        "und hat hatte ist war ging geht mit der die das den er sie es noch nur auch dann also so "
        "ja ah ahm ok okay punkte punkt pkt"
    ),
    "nl": _words(
        "en heeft had is was ging gaat zit op met de het er nog ook dan dus nou ja eh uh ok oke "
        "punten punt pnt"
    ),
    "es": _words(
        "a y tiene tenia ha con esta el la los las le de del que se ya lleva queda quedan es "
        "son tambien pues bueno entonces eh vale ok puntos punto pts"
    ),
    "fr": _words(
        "et a est avait etait il elle en y avec le la les du de des qui encore aussi alors donc "
        "puis bon ben euh ok fait fais marque reste points point pts"
    ),
}


def language_of(locale: str) -> str:
    """The reading's language for a locale: "es_ES" reads Spanish, an unknown one English."""
    language = locale.replace("-", "_").split("_")[0].lower()
    return language if language in LANGUAGES else "en"


def out_phrases(language: str) -> frozenset[tuple[str, ...]]:
    """The language's phrases for going out, and English "out" in every language."""
    return OUT_PHRASES[language] | OUT_PHRASES["en"]
