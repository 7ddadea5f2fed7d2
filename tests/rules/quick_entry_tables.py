"""What a table says at the end of a round, as a phone's dictation writes it, per language.

Eight players each, with long names (Bartholomeus, Concepción, Marie-Claire), two-word names
(Ana María) and names that start with a number word or a function word (Tennyson, Elfriede,
Tienke, Unai; Andy, Undine, Erik, Enzo, Gaatje, Sebastián, Yolanda, Esteban). Each line maps
to the hands it must fill; every player it does not name is "Nothing for …", and nothing else
may be said.
"""

from __future__ import annotations

OUT = "out"
Said = tuple[str, dict[str, object]]

PLAYERS = {
    "en": [
        "Bartholomeus",
        "Concepción",
        "Marie-Claire",
        "Andy",
        "Tennyson",
        "Oma",
        "Jo",
        "Ana María",
    ],
    "de": [
        "Bartholomeus",
        "Concepción",
        "Marie-Claire",
        "Elfriede",
        "Undine",
        "Oma",
        "Jo",
        "Ana María",
    ],
    "nl": ["Bartholomeus", "Concepción", "Marie-Claire", "Erik", "Enzo", "Gaatje", "Jan", "Tienke"],
    "es": [
        "Bartholomeus",
        "Concepción",
        "Marie-Claire",
        "Sebastián",
        "Ana María",
        "Unai",
        "Yolanda",
        "Esteban",
    ],
}

EN: list[Said] = [
    ("B out, O 35, J 12, C 40", {"Bartholomeus": OUT, "Oma": 35, "Jo": 12, "Concepción": 40}),
    (
        "Bartholomeus is out. Concepción 35, Marie-Claire 12, Andy has 40 points, Tennyson 8, "
        "Oma 0, Jo 25, Ana María 17.",
        {
            "Bartholomeus": OUT,
            "Concepción": 35,
            "Marie-Claire": 12,
            "Andy": 40,
            "Tennyson": 8,
            "Oma": 0,
            "Jo": 25,
            "Ana María": 17,
        },
    ),
    (
        "bartholomeus out concepcion thirty five marie claire twelve andy forty",
        {"Bartholomeus": OUT, "Concepción": 35, "Marie-Claire": 12, "Andy": 40},
    ),
    ("Oma went out, Jo has twenty-five", {"Oma": OUT, "Jo": 25}),
    ("Oma's out, Jo's got 25", {"Oma": OUT, "Jo": 25}),
    ("Jo ten, Tennyson twelve", {"Jo": 10, "Tennyson": 12}),
    ("Jo ten Tennyson twelve", {"Jo": 10, "Tennyson": 12}),
    ("Ten 12, Jo out", {"Tennyson": 12, "Jo": OUT}),
    ("Andy out and Oma 5", {"Andy": OUT, "Oma": 5}),
    ("Ana María 17, Ana María 17", {"Ana María": 17}),
    ("Ana 17 Andy 4", {"Ana María": 17, "Andy": 4}),
    ("ana maria seventeen", {"Ana María": 17}),
    ("Marie Claire, 12. Concepción, 35.", {"Marie-Claire": 12, "Concepción": 35}),
    ("Bart one hundred and five, Con out", {"Bartholomeus": 105, "Concepción": OUT}),
    ("So Jo is done, Oma 30 points", {"Jo": OUT, "Oma": 30}),
    ("OK Oma finished and Bart had 50", {"Oma": OUT, "Bartholomeus": 50}),
    (
        "Tenny 7 Bart 8 Conc 9 Mar 10",
        {"Tennyson": 7, "Bartholomeus": 8, "Concepción": 9, "Marie-Claire": 10},
    ),
    ("Jo: 12; Oma: out", {"Jo": 12, "Oma": OUT}),
    ("JO 12 OMA OUT", {"Jo": 12, "Oma": OUT}),
    ("Jo 12\nOma out\nAndy 40", {"Jo": 12, "Oma": OUT, "Andy": 40}),
    ("jo twelve oma out andy forty", {"Jo": 12, "Oma": OUT, "Andy": 40}),
    ("Jo had twelve points and Oma went out", {"Jo": 12, "Oma": OUT}),
    ("Marie-Claire zero", {"Marie-Claire": 0}),
    ("Tennyson ninety nine", {"Tennyson": 99}),
    ("Concepcion 35pts", {"Concepción": 35}),
    ("Bartholomeus 140, Concepción 135", {"Bartholomeus": 140, "Concepción": 135}),
]

DE: list[Said] = [
    ("B raus, O 35, J 12, C 40", {"Bartholomeus": OUT, "Oma": 35, "Jo": 12, "Concepción": 40}),
    (
        "Bartholomeus ist raus. Concepción 35, Marie-Claire 12, Elfriede hat 40 Punkte, "
        "Undine 8, Oma 0, Jo 25, Ana María 17.",
        {
            "Bartholomeus": OUT,
            "Concepción": 35,
            "Marie-Claire": 12,
            "Elfriede": 40,
            "Undine": 8,
            "Oma": 0,
            "Jo": 25,
            "Ana María": 17,
        },
    ),
    ("Oma ist fertig, Jo hat zwölf", {"Oma": OUT, "Jo": 12}),
    ("Oma ist ausgegangen und Jo hat fünfunddreißig Punkte", {"Oma": OUT, "Jo": 35}),
    ("Oma fertig Jo fünf und dreißig", {"Oma": OUT, "Jo": 35}),
    ("Jo elf, Elfriede zwölf", {"Jo": 11, "Elfriede": 12}),
    ("Jo elf Elfriede zwölf", {"Jo": 11, "Elfriede": 12}),
    ("Elf 12, Jo raus", {"Elfriede": 12, "Jo": OUT}),
    ("Undine raus und Oma 5", {"Undine": OUT, "Oma": 5}),
    ("Undi 5 Oma aus", {"Undine": 5, "Oma": OUT}),
    ("Ana María 17 und Elfriede ist draußen", {"Ana María": 17, "Elfriede": OUT}),
    ("Marie Claire zwölf Concepcion dreiunddreißig", {"Marie-Claire": 12, "Concepción": 33}),
    ("Jo funfunddreissig", {"Jo": 35}),
    ("Jo zwoelf, Oma fuenfzig", {"Jo": 12, "Oma": 50}),
    ("Bart hundertfünf, Con raus", {"Bartholomeus": 105, "Concepción": OUT}),
    ("Also Jo ist raus, Oma hat noch 30 Punkte", {"Jo": OUT, "Oma": 30}),
    ("Oma ging raus, Jo 12", {"Oma": OUT, "Jo": 12}),
    ("Jo: 12; Oma: raus", {"Jo": 12, "Oma": OUT}),
    ("Jo 12\nOma raus\nElfriede 40", {"Jo": 12, "Oma": OUT, "Elfriede": 40}),
    ("jo zwölf oma raus elfriede vierzig", {"Jo": 12, "Oma": OUT, "Elfriede": 40}),
    ("Jo hatte zwölf Punkte und Oma ist rausgegangen", {"Jo": 12, "Oma": OUT}),
    ("Marie-Claire null", {"Marie-Claire": 0}),
    ("Undine neunundneunzig", {"Undine": 99}),
    ("Concepción 35 Pkt", {"Concepción": 35}),
    ("Oma out, Jo 12", {"Oma": OUT, "Jo": 12}),
    ("Jo ein und zwanzig", {"Jo": 21}),
]

NL: list[Said] = [
    ("B uit, G 35, J 12, C 40", {"Bartholomeus": OUT, "Gaatje": 35, "Jan": 12, "Concepción": 40}),
    (
        "Bartholomeus is uit. Concepción 35, Marie-Claire 12, Erik heeft 40 punten, Enzo 8, "
        "Gaatje 0, Jan 25, Tienke 17.",
        {
            "Bartholomeus": OUT,
            "Concepción": 35,
            "Marie-Claire": 12,
            "Erik": 40,
            "Enzo": 8,
            "Gaatje": 0,
            "Jan": 25,
            "Tienke": 17,
        },
    ),
    ("Jan gaat uit", {"Jan": OUT}),
    ("Jan ging uit, Gaatje vijfendertig", {"Jan": OUT, "Gaatje": 35}),
    ("Erik heeft er vijfendertig", {"Erik": 35}),
    ("Jan is uitgegaan en Erik heeft vijf en dertig punten", {"Jan": OUT, "Erik": 35}),
    ("Gaatje is klaar, Enzo twaalf", {"Gaatje": OUT, "Enzo": 12}),
    ("Jan tien, Tienke twaalf", {"Jan": 10, "Tienke": 12}),
    ("Jan tien Tienke twaalf", {"Jan": 10, "Tienke": 12}),
    ("Tien 12, Jan uit", {"Tienke": 12, "Jan": OUT}),
    ("Enzo uit en Erik 5", {"Enzo": OUT, "Erik": 5}),
    ("Eri 5 Enz 6 Gaa 7", {"Erik": 5, "Enzo": 6, "Gaatje": 7}),
    ("Marie Claire twaalf Concepcion drieëndertig", {"Marie-Claire": 12, "Concepción": 33}),
    ("Jan tweeentwintig", {"Jan": 22}),
    ("Bart honderdvijf, Con uit", {"Bartholomeus": 105, "Concepción": OUT}),
    ("Nou, Jan is uit en Erik heeft nog 30 punten", {"Jan": OUT, "Erik": 30}),
    ("Jan: 12; Gaatje: uit", {"Jan": 12, "Gaatje": OUT}),
    ("Jan 12\nGaatje uit\nErik 40", {"Jan": 12, "Gaatje": OUT, "Erik": 40}),
    ("jan twaalf gaatje uit erik veertig", {"Jan": 12, "Gaatje": OUT, "Erik": 40}),
    ("Jan had twaalf punten en Gaatje ging uit", {"Jan": 12, "Gaatje": OUT}),
    ("Marie-Claire nul", {"Marie-Claire": 0}),
    ("Tienke negenennegentig", {"Tienke": 99}),
    ("Concepción 35 pnt", {"Concepción": 35}),
    ("Gaatje out, Jan 12", {"Gaatje": OUT, "Jan": 12}),
    ("Erik een, Enzo twee", {"Erik": 1, "Enzo": 2}),
    ("Dus Erik is klaar", {"Erik": OUT}),
]

ES: list[Said] = [
    (
        "B fuera, S 35, U 12, C 40",
        {"Bartholomeus": OUT, "Sebastián": 35, "Unai": 12, "Concepción": 40},
    ),
    (
        "Bartholomeus salió. Concepción 35, Marie-Claire 12, Sebastián tiene 40 puntos, "
        "Ana María 8, Unai 0, Yolanda 25, Esteban 17.",
        {
            "Bartholomeus": OUT,
            "Concepción": 35,
            "Marie-Claire": 12,
            "Sebastián": 40,
            "Ana María": 8,
            "Unai": 0,
            "Yolanda": 25,
            "Esteban": 17,
        },
    ),
    ("Ana María se salió", {"Ana María": OUT}),
    ("Ana se salió y Sebastián tiene treinta y cinco", {"Ana María": OUT, "Sebastián": 35}),
    ("Yolanda ha salido, Esteban doce", {"Yolanda": OUT, "Esteban": 12}),
    ("Unai se fue y Yolanda veintidos", {"Unai": OUT, "Yolanda": 22}),
    ("Esteban cerró, Unai veintitrés", {"Esteban": OUT, "Unai": 23}),
    ("Sebastián un punto, Unai doce", {"Sebastián": 1, "Unai": 12}),
    ("Sebastián uno Unai doce", {"Sebastián": 1, "Unai": 12}),
    ("Un 12, Sebastián fuera", {"Unai": 12, "Sebastián": OUT}),
    ("Yo 5 Est 6 Seb 7", {"Yolanda": 5, "Esteban": 6, "Sebastián": 7}),
    ("Marie Claire doce Concepcion treinta y tres", {"Marie-Claire": 12, "Concepción": 33}),
    ("Ana maria veintiseis", {"Ana María": 26}),
    ("Bart ciento cinco, Conc fuera", {"Bartholomeus": 105, "Concepción": OUT}),
    ("Pues Unai salió y a Esteban le quedan 30 puntos", {"Unai": OUT, "Esteban": 30}),
    ("Unai: 12; Yolanda: fuera", {"Unai": 12, "Yolanda": OUT}),
    ("Unai 12\nYolanda fuera\nEsteban 40", {"Unai": 12, "Yolanda": OUT, "Esteban": 40}),
    ("unai doce yolanda fuera esteban cuarenta", {"Unai": 12, "Yolanda": OUT, "Esteban": 40}),
    ("Unai tenía doce puntos y Yolanda salió", {"Unai": 12, "Yolanda": OUT}),
    ("Marie-Claire cero", {"Marie-Claire": 0}),
    ("Esteban noventa y nueve", {"Esteban": 99}),
    ("Concepción 35 pts", {"Concepción": 35}),
    ("Yolanda out, Unai 12", {"Yolanda": OUT, "Unai": 12}),
    ("Esteban está fuera, Sebastián dieciseis", {"Esteban": OUT, "Sebastián": 16}),
    ("Bueno, Concepción ya salió", {"Concepción": OUT}),
    ("Sebastián lleva veinte", {"Sebastián": 20}),
]

UTTERANCES = {"en": EN, "de": DE, "nl": NL, "es": ES}
