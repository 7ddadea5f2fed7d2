"""Tables through the web: their links, people picked in a new game, rename, merge and undo."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import CardTable, Game, Seat, TablePlayer
from tests.tables.helpers import BEN_WINS, TIED_GAME, open_table, play, play_tiebreaker, start_at
from tests.web.test_games import text

pytestmark = pytest.mark.storage


def tokens(app: Flask, table_id: int = 1) -> tuple[str, str]:
    """A table's edit and view tokens."""
    with app.app_context():
        table = db.session.get_one(CardTable, table_id)
        return table.edit_token, table.view_token


def person_id(app: Flask, name: str, table_id: int = 1) -> int:
    """The id of a person of a table by name."""
    with app.app_context():
        query = select(TablePlayer.id).where(
            TablePlayer.table_id == table_id, TablePlayer.name == name
        )
        return int(db.session.scalar(query) or 0)


def test_a_new_table_opens_on_its_secret_edit_link(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    edit, view = tokens(app)
    assert url == f"/t/1/{edit}" and edit != view and len(edit) >= 32
    assert "Thursday club" in client.get(url).get_data(as_text=True)
    assert "Thursday club" in client.get("/").get_data(as_text=True)


def test_a_table_needs_a_name(client: FlaskClient) -> None:
    response = client.post("/tables/", data={"name": "   "})
    assert response.status_code == 422
    assert "Enter a name." in text(response.get_data(as_text=True))


def test_a_wrong_or_replaced_link_opens_nothing(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    assert client.get("/t/1/not-the-token").status_code == 404
    assert client.get("/t/2/" + url.rsplit("/", 1)[1]).status_code == 404
    assert client.post(f"{url}/links/edit").status_code == 303
    replaced = client.get(url)
    assert replaced.status_code == 410
    hint = "Scan the QR code on the record keeper's phone (Share) to open the table again."
    assert hint in text(replaced.get_data(as_text=True))  # a table's, not a game's


def test_the_view_link_reads_but_changes_nothing(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    start_at(client, url, ["Anna", "Ben"])
    _edit, view = tokens(app)
    page = client.get(f"/t/1/{view}").get_data(as_text=True)
    assert "Anna" in page and "Start a game at this table" not in page
    refused = client.post(f"/t/1/{view}/games", data={"players-0": "X"})
    assert refused.status_code == 403
    hint = "To change the table's people and games, ask its record keeper for the edit link."
    assert hint in text(refused.get_data(as_text=True))
    anna = person_id(app, "Anna")
    assert client.post(f"/t/1/{view}/people/{anna}/name", data={"name": "Z"}).status_code == 403
    assert client.get(f"/t/1/{view}/backup.json").status_code == 403


def test_a_game_started_at_a_table_seats_its_people(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    start_at(client, url, ["Anna", "Ben"])
    start_at(client, url, ["anna", "Ben", "Carla"])
    with app.app_context():
        names = db.session.scalars(select(TablePlayer.name).order_by(TablePlayer.id)).all()
        assert names == ["Anna", "Ben", "Carla"]
        assert set(db.session.scalars(select(Game.table_id))) == {1}
        # A table's games seat its people, never a name of their own.
        assert db.session.scalars(select(Seat.player_name)).all() == [None] * 5
    form = client.get(f"{url}/games/new").get_data(as_text=True)
    assert '<option value="Anna">' in form and '<option value="Carla">' in form


def test_a_game_without_a_table_works_as_before(app: Flask, client: FlaskClient) -> None:
    response = client.post("/games/", data={"ruleset": "may-i", "players-0": "A", "players-1": "B"})
    assert response.status_code == 303
    with app.app_context():
        assert db.session.scalar(select(Game.table_id)) is None
        assert db.session.scalars(select(TablePlayer)).all() == []


def test_a_rename_shows_in_every_game(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    first = start_at(client, url, ["Anna", "Ben"])
    second = start_at(client, url, ["Ben", "Anna"])
    anna = person_id(app, "Anna")
    assert client.post(f"{url}/people/{anna}/name", data={"name": "Annabel"}).status_code == 303
    for game in (first, second):
        assert "Annabel" in game.page("/sheet")


def test_a_rename_to_a_taken_name_is_refused_at_the_field(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    start_at(client, url, ["Anna", "Ben"])
    anna = person_id(app, "Anna")
    response = client.post(f"{url}/people/{anna}/name", data={"name": "ben"})
    assert response.status_code == 422
    assert "Someone at this table is already called ben." in text(response.get_data(as_text=True))
    assert person_id(app, "Anna") == anna


def test_a_merge_is_shown_first_then_done_then_undone(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    typo = start_at(client, url, ["Anne", "Ben"])
    anna, anne = person_id(app, "Anna"), person_id(app, "Anne")
    page = text(client.get(url).get_data(as_text=True))
    assert "Anna and Anne: the same person?" in page
    preview = client.get(f"{url}/merge?merged={anne}&into={anna}")
    assert "Anne's 1 game will count as Anna's." in text(preview.get_data(as_text=True))
    with app.app_context():
        assert db.session.get_one(TablePlayer, anne).merged_into_id is None  # only shown
    done = client.post(f"{url}/merge", data={"merged": anne, "into": anna})
    assert done.status_code == 303
    assert "Anne counts as Anna" in text(client.get(url).get_data(as_text=True))
    sheet, said = typo.page("/sheet").split('id="history"', 1)  # the history names the merge
    assert "Anna" in sheet and "Anne" not in sheet and "Anne counts as Anna now" in said
    record = text(client.get(f"{url}/people/{anna}").get_data(as_text=True))
    assert "Played 1" in record  # the typo's game is not finished; the finished one counts
    assert client.post(f"{url}/people/{anne}/unmerge").status_code == 303
    with app.app_context():
        assert db.session.get_one(TablePlayer, anne).merged_into_id is None
    assert "Anne" in typo.page("/sheet")


def test_two_people_of_one_game_cannot_be_merged(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    start_at(client, url, ["Ann", "Anne"])
    ann, anne = person_id(app, "Ann"), person_id(app, "Anne")
    response = client.get(f"{url}/merge?merged={anne}&into={ann}")
    assert response.status_code == 422
    assert "played in the same game" in text(response.get_data(as_text=True))


def test_the_record_counts_finished_games(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), TIED_GAME[:7])
    page = client.get(f"{url}/record").get_data(as_text=True)
    row = re.search(r">Ben</a></th>(.*?)</tr>", page, re.S)
    assert row is not None
    cells = re.findall(r"<td>([^<]*)</td>", row.group(1))
    assert cells[:2] == ["2", "1"]  # the tie of the second game goes to Anna, out more often
    person = client.get(f"{url}/people/{person_id(app, 'Ben')}").get_data(as_text=True)
    assert 'id="totals-chart"' in person and "<svg" in person and "style=" not in person


def test_tiebreaks_count_every_game_a_tiebreak_decided_for_each_tied_player(
    client: FlaskClient,
) -> None:
    url = open_table(client)
    players = ["Anna", "Ben", "Carla", "Dan"]
    play(start_at(client, url, players), BEN_WINS)  # no tie
    play(start_at(client, url, players), TIED_GAME)  # Anna and Ben tie; Anna went out more
    play_tiebreaker(client, url, players)  # Anna and Ben tie again, on rounds out too
    page = client.get(f"{url}/record").get_data(as_text=True)
    tiebreaks = {}
    for name in players:
        row = re.search(rf">{name}</a></th>(.*?)</tr>", page, re.S)
        assert row is not None
        tiebreaks[name] = re.findall(r"<td>([^<]*)</td>", row.group(1))[-1]
    assert tiebreaks == {"Anna": "2", "Ben": "2", "Carla": "0", "Dan": "0"}


def test_a_bad_filter_is_reported_at_its_field(client: FlaskClient) -> None:
    url = open_table(client)
    response = client.get(f"{url}/record?since=yesterday&ruleset=poker")
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    assert "Enter a date like 2026-12-31." in page and "Choose one of the rule sets." in page


def test_nothing_of_one_table_shows_through_another(app: Flask, client: FlaskClient) -> None:
    first = open_table(client, "Family")
    start_at(client, first, ["Anna", "Secretname"])
    second = open_table(client, "Club")
    start_at(client, second, ["Zed", "Yan"])
    secret = person_id(app, "Secretname", table_id=1)
    other = client.get(second).get_data(as_text=True)
    other += client.get(f"{second}/record").get_data(as_text=True)
    other += client.get(f"{second}/games.csv").get_data(as_text=True)
    other += client.get(f"{second}/backup.json").get_data(as_text=True)
    assert "Secretname" not in other and "Anna" not in other
    assert client.get(f"{second}/people/{secret}").status_code == 404
    assert client.get(f"{second}/merge?merged={secret}&into={secret}").status_code == 404
    assert client.post(f"{second}/people/{secret}/name", data={"name": "x"}).status_code == 404
    zed = person_id(app, "Zed", table_id=2)
    assert client.post(f"{second}/merge", data={"merged": secret, "into": zed}).status_code == 404
    with app.app_context():
        games = db.session.scalars(select(Game).order_by(Game.id)).all()
        game_url = f"/g/{games[1].id}/{games[1].edit_token}"
    assert "Secretname" not in client.get(game_url + "/sheet").get_data(as_text=True)
    family_edit, family_view = tokens(app, 1)
    for path in ("", "/sheet", "/share", "/print"):
        shown = client.get(game_url + path).get_data(as_text=True)
        assert "Family" not in shown and family_edit not in shown and family_view not in shown
    assert client.get(f"/t/1/{games[1].edit_token}").status_code == 404


def test_the_record_comes_whole_or_as_its_fragment(client: FlaskClient) -> None:
    url = open_table(client)
    start_at(client, url, ["Anna", "Ben"])
    page = client.get(f"{url}/record").get_data(as_text=True)
    fragment = client.get(f"{url}/record", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<html" in page and 'id="record"' in page
    assert fragment.lstrip().startswith('<section id="record">') and "<html" not in fragment
    assert f'hx-get="{url}/record"' in client.get(url).get_data(as_text=True)


def test_a_merged_spelling_typed_again_seats_the_person(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    start_at(client, url, ["Anna", "Ben"])
    start_at(client, url, ["Anne", "Ben"])
    anna, anne = person_id(app, "Anna"), person_id(app, "Anne")
    client.post(f"{url}/merge", data={"merged": anne, "into": anna})
    game = start_at(client, url, ["Anne", "Carla"])
    assert "Anna" in game.page("/sheet")
    with app.app_context():
        assert len(db.session.scalars(select(TablePlayer)).all()) == 4  # Anna, Ben, Anne, Carla


def test_a_page_of_games_past_any_id_is_the_first_page(client: FlaskClient) -> None:
    url = open_table(client)
    start_at(client, url, ["Anna", "Ben"])
    for before in ("99999999999999999999999", "-5", "x"):
        assert client.get(f"{url}?before={before}").status_code == 200
    assert "Anna, Ben" in client.get(f"{url}?before=99999999999999999999999").get_data(as_text=True)


def test_a_persons_page_shows_head_to_head_and_contracts(app: Flask, client: FlaskClient) -> None:
    url = open_table(client)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), BEN_WINS)
    play(start_at(client, url, ["Anna", "Ben", "Carla", "Dan"]), TIED_GAME)
    page = text(client.get(f"{url}/people/{person_id(app, 'Ben')}").get_data(as_text=True))
    assert "Played 2 Won 1 Win rate 50%" in page
    assert "Anna 2 1 1 0" in page  # together, ahead, behind, even
    assert "2 books" in page and "Points per round by contract" in page
    only_other = client.get(f"{url}/people/{person_id(app, 'Ben')}?ruleset=liverpool")
    assert "Played 0" in text(only_other.get_data(as_text=True))


def test_the_record_follows_a_correction_of_a_finished_game(client: FlaskClient) -> None:
    url = open_table(client)
    game = start_at(client, url, ["Anna", "Ben", "Carla", "Dan"])
    play(game, BEN_WINS)

    def won(name: str) -> str:
        page = client.get(f"{url}/record").get_data(as_text=True)
        row = re.search(rf">{name}</a></th>(.*?)</tr>", page, re.S)
        assert row is not None
        return str(re.findall(r"<td>([^<]*)</td>", row.group(1))[1])

    assert (won("Ben"), won("Anna")) == ("1", "0")
    # Round 1 went to Anna, not Ben: Ben 85, Anna 40 - the record must not keep the old score.
    response = game.end_round(1, "Anna", {"Ben": 50, "Carla": 30, "Dan": 40})
    assert response.status_code == 303
    assert (won("Ben"), won("Anna")) == ("0", "1")
