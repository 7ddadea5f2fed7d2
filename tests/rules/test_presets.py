"""The presets hold what docs/RULES.md 8 decides for each named variant."""

from __future__ import annotations

from scorekeeper.rules.presets import SHANGHAI
from scorekeeper.rules.table import contract_message


def test_shanghai_plays_the_ten_common_deals_of_eleven_cards() -> None:
    contracts = [contract_message(spec.contract).render() for spec in SHANGHAI.rounds]
    assert contracts == [
        "2 books",
        "1 book + 1 run",
        "2 runs",
        "3 books",
        "1 book + 1 run of 7",
        "2 books + 1 run of 5",
        "3 runs",
        "1 book + 1 run of 10",
        "3 books + 1 run of 5",
        "3 runs of 5",
    ]
    assert {spec.deal for spec in SHANGHAI.rounds} == {11}
    assert SHANGHAI.buys.cap_per_round == 2
