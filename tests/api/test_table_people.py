"""A table's people and record through the API: figures, rename, merge and undo, as the pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from .conftest import assert_problem, bearer
from .tables import BEN_WINS, TableApi, play

# Tables, people and files written and read back: on both databases.
pytestmark = pytest.mark.storage

RECORD_ROW = re.compile(r'<tr>\s*<th scope="row"><a [^>]*>([^<]+)</a></th>(.*?)</tr>', re.S)


def page_record(client: FlaskClient, tables: TableApi, query: str = "") -> dict[str, list[str]]:
    """The record page's rows by name: played, won, win rate, average, best, worst, rounds
    gone out, buys, tiebreaks, as the page shows them."""
    page = client.get(f"/t/{tables.id}/{tables.links['edit_token']}/record{query}")
    html = page.get_data(as_text=True)
    return {
        name: re.findall(r"<td>([^<]*)</td>", cells) for name, cells in RECORD_ROW.findall(html)
    }


def as_shown(row: dict[str, Any]) -> list[str]:
    """The API's figures as the record page writes them (English)."""
    rate, average = row["win_rate"], row["average"]
    return [
        str(row["played"]),
        str(row["won"]),
        "–" if rate is None else f"{round(rate * 100)}%",
        "–" if average is None else f"{average:.1f}",
        *("–" if row[k] is None else str(row[k]) for k in ("best", "worst")),
        *(str(row[k]) for k in ("rounds_out", "buys", "tiebreaks")),
    ]


@pytest.fixture
def played(tables: TableApi) -> TableApi:
    """A table of two finished games (Ben wins both) and one in play, with a buy by Anna."""
    tables.open()
    first = tables.start(["Anna", "Ben", "Carla", "Dan"])
    assert first.buy("Anna").status_code == 201
    play(first, BEN_WINS)
    play(tables.start(["Ann", "Ben", "Carla", "Dan"]), BEN_WINS, Anna="Ann")
    tables.start(["Anna", "Ben"])
    return tables


def test_the_record_has_every_figure_the_record_page_shows(
    client: FlaskClient, played: TableApi
) -> None:
    record = played.ok("get", "/record")
    assert record["filters"] == {"ruleset": None, "since": None, "until": None}
    names = [row["person"]["name"] for row in record["people"]]
    assert names == list(page_record(client, played)) == ["Ben", "Ann", "Anna", "Carla", "Dan"]
    shown = page_record(client, played)
    assert {row["person"]["name"]: as_shown(row) for row in record["people"]} == shown
    ben = played.figures()["Ben"]
    assert (ben["played"], ben["won"], ben["best"], ben["totals"]) == (2, 2, 35, [35, 35])
    assert played.figures()["Anna"]["buys"] == 1
    assert ben["costliest"] is not None and len(ben["by_contract"]) == 7


def test_the_view_link_reads_the_record_and_a_persons_figures(played: TableApi) -> None:
    view = played.links["view_token"]
    assert played.call("get", "/record", token=view).json == played.ok("get", "/record")
    ben = f"/people/{played.person('Ben')}"
    assert played.call("get", ben, token=view).json == played.ok("get", ben)


def test_the_filters_narrow_the_record_and_a_bad_one_is_refused(
    client: FlaskClient, played: TableApi
) -> None:
    narrowed = played.ok("get", "/record?ruleset=liverpool")
    assert {row["played"] for row in narrowed["people"]} == {0}
    assert narrowed["filters"]["ruleset"] == "liverpool"
    later = played.ok("get", "/record?since=2999-01-01&until=2999-12-31")
    assert later["filters"] == {"ruleset": None, "since": "2999-01-01", "until": "2999-12-31"}
    problem = assert_problem(played.call("get", "/record?since=soon&ruleset=x"), 422)
    assert problem["errors"] == {
        "ruleset": ["Choose one of the rule sets."],
        "since": ["Enter a date like 2026-12-31."],
    }
    headers = {**bearer(played.links["view_token"]), "Accept-Language": "de"}
    german = played.client.get(f"{played.url}/record?until=13", headers=headers)
    assert assert_problem(german, 422, "until")["errors"]["until"] == [
        "Gib ein Datum wie 2026-12-31 ein."
    ]


def test_a_persons_figures_are_their_pages(client: FlaskClient, played: TableApi) -> None:
    ben = played.person("Ben")
    found = played.ok("get", f"/people/{ben}")
    assert found["figures"] == played.figures()["Ben"]
    versus = {v["other"]["name"]: v for v in found["versus"]}
    assert set(versus) == {"Anna", "Ann", "Carla", "Dan"}
    assert (versus["Anna"]["games"], versus["Anna"]["ahead"], versus["Anna"]["behind"]) == (1, 1, 0)
    page = client.get(f"/t/{played.id}/{played.links['edit_token']}/people/{ben}")
    assert "<dt>Played</dt><dd>2</dd>" in page.get_data(as_text=True)
    assert_problem(played.call("get", "/people/99999"), 404)


def test_a_rename_shows_in_every_game_and_a_taken_name_is_refused(played: TableApi) -> None:
    dan = played.person("Dan")
    assert played.ok("put", f"/people/{dan}/name", {"name": "Daniel"})["name"] == "Daniel"
    games = played.ok("get", "/games")["games"]
    assert sum("Daniel" in g["players"] for g in games) == 2
    taken = assert_problem(played.call("put", f"/people/{dan}/name", {"name": "ben"}), 422, "name")
    assert taken["detail"] == "Someone at this table is already called ben."
    assert_problem(played.call("put", f"/people/{dan}/name", {"name": ""}), 422, "name")
    assert_problem(played.call("put", "/people/99999/name", {"name": "Zed"}), 404)
    assert "Daniel" in played.figures()


def test_a_merge_counts_two_spellings_as_one_and_its_undo_parts_them(played: TableApi) -> None:
    anna, ann = played.person("Anna"), played.person("Ann")
    merged = played.ok("post", "/merges", {"merged": ann, "into": anna}, status=201)
    assert merged["games_moved"] == 1 and merged["merged"]["merged_into"] == anna
    figures = played.figures()
    assert "Ann" not in figures and figures["Anna"]["played"] == 2
    assert played.ok("get")["merged"] == [{"id": ann, "name": "Ann", "merged_into": anna}]
    undone = played.ok("delete", f"/merges/{ann}")
    assert undone == {"id": ann, "name": "Ann", "merged_into": None}
    assert played.figures()["Ann"]["played"] == 1 and played.figures()["Anna"]["played"] == 1
    again = assert_problem(played.call("delete", f"/merges/{ann}"), 422)
    assert again["detail"] == "Ann is not merged."


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"merged": "{ben}", "into": "{dan}"}, "into"),  # they played the same games
        ({"merged": "{ben}", "into": "{ben}"}, "into"),
        ({"merged": 99999, "into": "{ben}"}, "merged"),
        ({"merged": "{ben}", "into": 99999}, "into"),
        ({"merged": "{ben}"}, "into"),
        ({"merged": -1, "into": "{ben}"}, "merged"),
    ],
)
def test_a_merge_the_table_cannot_make_is_refused_at_the_field(
    played: TableApi, body: dict[str, Any], field: str
) -> None:
    ids = {"ben": played.person("Ben"), "dan": played.person("Dan")}
    sent = {k: int(v.format(**ids)) if isinstance(v, str) else v for k, v in body.items()}
    before = played.ok("get")
    assert_problem(played.call("post", "/merges", sent), 422, field)
    assert played.ok("get") == before
