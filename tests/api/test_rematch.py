"""After Play again the API says where each link leads (issue 35.9): a view client to the next
game's view link, an edit client to its edit link, a seat client to its own player's seat."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import game_links

from .conftest import Api, bearer

pytestmark = pytest.mark.storage


def seat_links(api: Api, edit_token: str, game_id: int) -> dict[str, str]:
    """Each seat's link of a game by the player's name, as its edit link reads them."""
    shown: Any = api.client.get(f"/api/v1/games/{game_id}", headers=bearer(edit_token)).json
    return {link["name"]: link["token"] for link in shown["seat_links"]}


def test_every_link_of_the_old_game_reads_its_own_link_of_the_next_one(api: Api) -> None:
    api.start()
    old_seats = seat_links(api, api.links["edit_token"], 1)
    assert api.state()["next_game"] is None
    ben = api.with_link(old_seats["Ben"], "get", f"{api.url}/seat").json
    assert ben is not None and ben["next_game"] is None
    again = api.client.post(f"/g/1/{api.links['edit_token']}/again")
    edit, view = game_links(api.client.application, 2)
    assert again.headers["Location"] == f"/g/2/{edit}"
    assert api.state()["next_game"] == {"id": 2, "token": edit, "seat": None}
    as_viewer: Any = api.with_link(api.links["view_token"], "get", api.url).json
    assert as_viewer["next_game"] == {"id": 2, "token": view, "seat": None}
    assert as_viewer["seat_links"] is None
    new_seats = seat_links(api, edit, 2)
    for seat, name in enumerate(api.names):
        shown: Any = api.with_link(old_seats[name], "get", f"{api.url}/seat").json
        assert shown["next_game"] == {"id": 2, "token": new_seats[name], "seat": seat}
        assert shown["game"]["next_game"] is None  # the game's own links stay the scorekeeper's
        opened = api.with_link(new_seats[name], "get", "/games/2/seat").json
        assert opened is not None and opened["name"] == name
    assert edit not in str(as_viewer) and not any(t in str(as_viewer) for t in new_seats.values())
