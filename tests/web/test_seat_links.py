"""A link per seat (issue 24.1, 24.4): its page, its strength, its refusals, its replacement,
its QR code on the share page, and the note where it cannot reach a player from afar."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.pages.seats import only_on_local_network
from scorekeeper.security import redact_links
from tests.attacks.test_rate_limits import limited  # noqa: F401 (a fixture)
from tests.conftest import Table, game_links, seat_tokens
from tests.databases import close, make_app
from tests.web.test_games import HX, text

pytestmark = pytest.mark.storage

PLAYERS = ["Anna", "Ben", "Carla"]
LAN_NOTE = "a player joining from afar cannot open them"


def test_every_seat_gets_its_own_strong_link(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    tokens = seat_tokens(app)
    assert sorted(tokens) == [0, 1, 2]
    everything = {*tokens.values(), *game_links(app)}
    assert len(everything) == 5  # no two links alike
    assert min(len(token) for token in tokens.values()) >= 32  # 192 bits, as the others


def test_a_seat_page_shows_this_round_the_seats_buys_and_the_standings(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)  # Anna deals round 1; Ben plays first
    table.buy("Ben")
    response = table.client.get(f"/s/1/{seat_tokens(app)[1]}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    said = text(response.get_data(as_text=True))
    assert "Your seat: Ben" in said
    assert "Round 1 of 7" in said and "10 cards each" in said
    assert re.search(r"Dealer Anna", said) and re.search(r"Plays first Ben", said)
    assert "1 buy this round · 2 buys left" in said
    assert "Standings" in said
    assert "/rules" in response.get_data(as_text=True)
    rules = table.client.get(f"/s/1/{seat_tokens(app)[1]}/rules")
    assert rules.status_code == 200 and "Rounds" in text(rules.get_data(as_text=True))


def test_a_seat_page_changes_nothing_and_shows_no_scorekeepers_controls(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    page = table.client.get(f"/s/1/{seat_tokens(app)[0]}").get_data(as_text=True)
    for control in (">Buy<", "End of round", "Undo last change", "Replace this link"):
        assert control not in page


def test_a_seat_link_opens_no_game_page_and_no_game_link_opens_a_seat_page(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    table.start(["Dan", "Eve"])
    ours, theirs = seat_tokens(app, 1), seat_tokens(app, 2)
    edit, view = game_links(app)
    client = table.client
    for path in ("", "/share", "/sheet", "/buys"):
        assert client.get(f"/g/1/{ours[0]}{path}").status_code == 404
    assert client.post("/g/1/" + ours[0] + "/buys", data={"seat": "0"}).status_code == 404
    for token in (edit, view, theirs[0], "x" * 32):
        response = client.get(f"/s/1/{token}")
        assert response.status_code == 404
        assert "Anna" not in response.get_data(as_text=True)
    assert client.get(f"/s/2/{ours[0]}").status_code == 404  # another game's seat
    assert client.get(f"/s/{2**40}/{ours[0]}").status_code == 404


def test_the_share_page_lists_a_qr_code_per_seat_for_the_edit_link_only(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    edit, view = game_links(app)
    tokens = seat_tokens(app)
    page = table.client.get(f"/g/1/{edit}/share").get_data(as_text=True)
    for seat, name in enumerate(PLAYERS):
        card = page[page.index(f'id="seat-{seat}-link"') :]
        assert name in card[:400]
        assert f"/s/1/{tokens[seat]}" in card[: card.index("</section>")]
    assert page.count('<div class="qr">') == 2 + len(PLAYERS)
    by_view = table.client.get(f"/g/1/{view}/share").get_data(as_text=True)
    assert "seat-links" not in by_view
    assert not any(token in by_view for token in tokens.values())


def test_replacing_a_seat_link_locks_the_old_one_out_with_410(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    edit, view = game_links(app)
    old = seat_tokens(app)
    assert table.client.post(f"/g/1/{view}/seat-links?seat=1").status_code == 403
    assert table.client.post(f"/g/1/{edit}/seat-links?seat=7").status_code == 404
    assert seat_tokens(app) == old
    replaced = table.client.post(f"/g/1/{edit}/seat-links?seat=1")
    assert replaced.status_code == 303 and "/share" in replaced.headers["Location"]
    new = seat_tokens(app)
    assert new[1] != old[1] and new[0] == old[0] and new[2] == old[2]
    assert table.client.get(f"/s/1/{old[1]}").status_code == 410
    assert table.client.get(f"/s/1/{new[1]}").status_code == 200


def test_the_seat_page_follows_the_game_live(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    url = f"/s/1/{seat_tokens(app)[2]}"
    with app.app_context():
        version = db.session.scalar(select(Game.version).where(Game.id == 1))
    poll = f"{url}/version?v={version}&on=round-1"  # the pad is the round's
    assert table.client.get(poll, headers=HX).get_data() == b""
    table.buy("Carla")
    answer = table.client.get(poll, headers=HX).get_data(as_text=True)
    assert 'id="seat"' in answer and 'hx-swap-oob="true"' in answer
    assert "1 buy this round" in text(answer)
    assert 'id="poller"' in answer and "every 2s" in answer


def test_seat_links_are_redacted_in_logs() -> None:
    assert redact_links("GET /s/12/abcDEF_-123/version?v=3") == "GET /s/12/…/version?v=3"


@pytest.mark.parametrize(
    ("url", "lan_only"),
    [
        ("http://192.168.1.20:5000/s/1/x", True),
        ("http://10.0.0.5/s/1/x", True),
        ("http://scorekeeper.local:5000/s/1/x", True),
        ("http://127.0.0.1:5000/s/1/x", False),  # the loopback note says that one
        ("https://scores.example.org/s/1/x", False),
        ("http://93.184.216.34/s/1/x", False),
    ],
)
def test_a_lan_only_address_is_told_from_one_a_remote_seat_reaches(
    url: str, lan_only: bool
) -> None:
    assert only_on_local_network(url) is lan_only


@pytest.mark.parametrize(
    ("public", "noted"),
    [("http://192.168.1.20:5000", True), ("https://scores.example.org", False)],
)
def test_the_share_page_says_when_seat_links_reach_no_one_from_afar(
    database_url: str, tmp_path: Path, public: str, noted: bool
) -> None:
    app = make_app(database_url, str(tmp_path), PUBLIC_URL=public)
    client = app.test_client()
    response = client.post("/games/", data={"ruleset": "may-i", "players-0": "A", "players-1": "B"})
    page = text(client.get(response.headers["Location"] + "/share").get_data(as_text=True))
    assert (LAN_NOTE in page) is noted
    assert (public + "/s/") in page
    close(app)


def test_guessing_seat_links_counts_as_guessing_links(
    limited: Callable[..., Flask],  # noqa: F811
) -> None:
    app = limited(RATELIMIT_LINK_MISSES="5 per minute")
    client: FlaskClient = app.test_client()
    game = client.post("/games/", data={"ruleset": "may-i", "players-0": "A", "players-1": "B"})
    assert game.status_code == 303
    guesses = [client.get(f"/s/1/guess{i}").status_code for i in range(6)]
    assert guesses == [404] * 5 + [429]
