"""The proxy recipes as CI runs them: nginx (deploy/nginx's own files) and Caddy
(deploy/Caddyfile) under /scores/ in front of two `scorekeeper serve` processes on one
PostgreSQL database, rate limits on Redis: the README's server recipe, end to end.

Two phones play a round through each proxy: a change posted straight to the other process than
the one the proxy keeps the game on, the watching phone's live update, share links that name
the proxy's address, and link misses counted once for both processes (the client's address as
the proxy says it). Each game's requests reach one process, and move when it stops. No log
either proxy or process writes holds a token, a process down behind the proxy included.
"""

from __future__ import annotations

import html
import os
import re
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.databases import PostgresDatabase
from tools.caddy_proxy import caddy, find_caddy
from tools.nginx_proxy import find_nginx, free_port, nginx, scorekeeper

PLAYERS = ["Bartholomeus", "Concepción", "Marie-Claire", "Guðmundur"]
HX = {"HX-Request": "true"}
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
POLLER = re.compile(r'id="poller"[^>]*hx-get="([^"]+)"', re.S)
Front = Callable[..., AbstractContextManager[str]]  # (ports, folder, statuses=(200,))
DOWN = (502, 503)  # nginx's answer, and Caddy's once its health checks found none
PROXIES: dict[str, tuple[Callable[[], str | None], Front]] = {
    "nginx": (find_nginx, nginx),
    "caddy": (find_caddy, caddy),
}


@dataclass
class Proxy:
    """The proxy's address (prefix included), what stands behind it, and where all log."""

    base: str
    origin: str
    upstreams: list[str]
    ports: list[int]
    front: Front
    logs: Path
    settings: dict[str, str]


@pytest.fixture(params=list(PROXIES))
def proxy(
    request: pytest.FixtureRequest,
    postgres_database: PostgresDatabase,
    redis_url: str,
    tmp_path: Path,
) -> Iterator[Proxy]:
    """nginx or Caddy in front of two processes, as deploy/ sets them up."""
    find, front = PROXIES[request.param]
    if find() is None:
        reason = f"{request.param} is not installed (apt-get install {request.param})"
        if os.environ.get(f"SCOREKEEPER_REQUIRE_{request.param.upper()}"):
            pytest.fail(reason)
        pytest.skip(reason)
    settings = {
        "SCOREKEEPER_DATABASE_URL": postgres_database.clean(),
        "SCOREKEEPER_SECRET_KEY": "one-secret-for-every-process",
        "SCOREKEEPER_PROXY_HOPS": "1",
        "SCOREKEEPER_RATELIMIT_STORAGE_URI": redis_url,
        "SCOREKEEPER_RATELIMIT_KEY_PREFIX": f"proxy-test-{uuid.uuid4().hex}",
        "SCOREKEEPER_RATELIMIT_LINK_MISSES": "5 per minute",
        "SCOREKEEPER_RATELIMIT_NEW_GAMES": "100 per minute",  # games until one on each process
        "SCOREKEEPER_WORKERS": "1",  # a process each: "the other process" is the other port
        "SCOREKEEPER_DATA_DIR": str(tmp_path),
    }
    logs = tmp_path / "logs"
    logs.mkdir()
    with ExitStack() as stack:
        ports = [
            stack.enter_context(scorekeeper(settings, log=logs / f"app-{i}.log")) for i in range(2)
        ]
        base = stack.enter_context(front(ports, logs / request.param))
        upstreams = [f"127.0.0.1:{p}" for p in ports]
        origin = base.removesuffix("/scores")
        yield Proxy(base, origin, upstreams, ports, front, logs, settings)


class Phone(requests.Session):
    """A phone's browser: its cookies, the CSRF token of the last page it loaded."""

    csrf = ""

    def page(self, url: str) -> requests.Response:
        """Load a page as a browser does; keep its CSRF token."""
        answer = self.get(url, allow_redirects=False)
        assert answer.status_code == 200, (url, answer.status_code)
        self.csrf = CSRF.findall(answer.text)[0]
        return answer

    def submit(self, url: str, data: dict[str, str], htmx: bool = True) -> requests.Response:
        """Post a form as htmx does (or as a plain form when not htmx)."""
        headers = {"X-CSRFToken": self.csrf, **(HX if htmx else {})}
        return self.post(url, data=data, headers=headers, allow_redirects=False)


def share_links(phone: Phone, proxy: Proxy, game: str) -> dict[str, str]:
    """The share page's edit and view links, as a phone would scan them."""
    shown = phone.page(f"{proxy.origin}{game}/share").text
    found = re.findall(r'id="(edit|view)-url" type="text" readonly value="([^"]+)"', shown)
    return {role: html.unescape(url) for role, url in found}


def test_a_round_is_played_from_two_phones_through_nginx(proxy: Proxy) -> None:
    scorer, watcher = Phone(), Phone()
    scorer.page(f"{proxy.base}/games/new")
    players = {f"players-{i}": name for i, name in enumerate(PLAYERS)}
    started = scorer.submit(f"{proxy.base}/games/", {"ruleset": "may-i", **players}, htmx=False)
    assert started.status_code == 303
    game = started.headers["Location"]
    assert game.startswith("/scores/g/")  # the app knows its prefix from X-Forwarded-Prefix

    links = share_links(scorer, proxy, game)
    assert set(links) == {"edit", "view"}
    assert all(link.startswith(f"{proxy.base}/g/") for link in links.values())

    watching = watcher.page(links["view"]).text
    poller = html.unescape(POLLER.findall(watching)[0])
    assert poller.startswith("/scores/g/") and 'href="/scores/static/' in watching

    shown = scorer.page(f"{proxy.origin}{game}")
    # The proxy keeps a game on one process: the change goes to the other one straight, as a
    # proxy would send it (its prefix and the client's address), so the watcher's poll through
    # the proxy reads on one process what the other wrote.
    (other,) = set(proxy.ports) - {int(shown.headers["X-Upstream"].rsplit(":", 1)[1])}
    straight = {"X-Forwarded-Prefix": "/scores", "X-Forwarded-For": "127.0.0.1"}
    path = game.removeprefix("/scores")
    bought = scorer.post(
        f"http://127.0.0.1:{other}{path}/buys",
        data={"seat": "1"},
        headers={"X-CSRFToken": scorer.csrf, **HX, **straight},
        allow_redirects=False,
    )
    assert bought.status_code == 200, bought.text
    assert "2 buys left (1/3)" in bought.text

    live = watcher.get(f"{proxy.origin}{poller}", headers=HX)
    assert live.status_code == 200 and "2 buys left (1/3)" in live.text

    hands = {"went_out": "0", "points_1": "25", "points_2": "40", "points_3": "15"}
    saved = scorer.submit(f"{proxy.origin}{game}/rounds/1", hands, htmx=False)
    assert saved.status_code == 303 and saved.headers["Location"].startswith("/scores/g/")
    sheet = watcher.page(links["view"] + "/sheet").text
    assert "Marie-Claire" in sheet and ">40<" in sheet


def game_on_each(phone: Phone, base: str, upstreams: list[str]) -> dict[str, dict[str, Any]]:
    """New games until each process keeps one; the first game each keeps, by its address."""
    kept: dict[str, dict[str, Any]] = {}
    new = {"ruleset": "may-i", "players": PLAYERS}
    for _ in range(40):
        game = phone.post(f"{base}/api/v1/games", json=new).json()
        (upstream,) = where_served(phone, base, game)  # one process for every request
        kept.setdefault(upstream, game)
        if len(kept) == len(upstreams):
            return kept
    raise AssertionError(f"40 games, all kept by {set(kept)}")


def test_link_misses_count_once_for_both_processes_and_the_client_the_proxy_saw(
    proxy: Proxy,
) -> None:
    guesser = Phone()
    # The proxy keeps a game on one process: guesses at a game on each reach both.
    ids = [game["id"] for game in game_on_each(guesser, proxy.base, proxy.upstreams).values()]
    guesses = [guesser.get(f"{proxy.base}/g/{ids[i % 2]}/guess{i}") for i in range(5)]
    assert [g.status_code for g in guesses] == [404] * 5
    assert {g.headers["X-Upstream"] for g in guesses} == set(proxy.upstreams)
    # A forged X-Forwarded-For changes nothing: nginx sets the header, it never appends.
    forged = guesser.get(f"{proxy.base}/g/1/guess", headers={"X-Forwarded-For": "10.9.9.9"})
    assert forged.status_code == 429


def links_of_every_kind(phone: Phone, proxy: Proxy) -> list[str]:
    """A game's edit, view and seat links, a table's and a rule set's, as phones open them."""
    api = f"{proxy.base}/api/v1"
    game = phone.post(f"{api}/games", json={"ruleset": "may-i", "players": PLAYERS}).json()
    table = phone.post(f"{api}/tables", json={"name": "Friday"}).json()
    rules = phone.get(f"{api}/rulesets/may-i").json()["rules"]
    rule_set = phone.post(f"{api}/rulesets/saved", json={"name": "Ours", "rules": rules}).json()
    seats = [seat["token"] for seat in game["seat_links"]]
    links = game["links"]
    return [
        f"/g/{game['id']}/{links['edit_token']}",
        f"/g/{game['id']}/{links['view_token']}/sheet",
        f"/g//{game['id']}/{links['view_token']}/version?v={game['version']}",
        f"/s/{game['id']}/{seats[0]}",
        f"/s//{game['id']}/{seats[1]}",
        f"/t/{table['id']}/{table['links']['edit_token']}",
        f"/t/{table['id']}/{table['links']['view_token']}/record",
        f"/house-rules/{rule_set['id']}/{rule_set['token']}/edit",
        f"/games/new?next=/s/{game['id']}/{seats[2]}",
    ]


def test_no_log_of_the_proxy_or_the_processes_holds_a_token(proxy: Proxy) -> None:
    phone = Phone()
    paths = links_of_every_kind(phone, proxy)
    answers = [phone.get(f"{proxy.base}{path}", headers=HX).status_code for path in paths]
    assert answers == [200] * len(paths)
    # No process answers behind the proxy: its error lines quote the requests that met none.
    with proxy.front([free_port(), free_port()], proxy.logs / "down", statuses=DOWN) as base:
        assert {phone.get(f"{base}{path}").status_code for path in paths} <= set(DOWN)
    tokens = {part for path in paths for part in re.split(r"[/?=]", path) if len(part) == 32}
    assert len(tokens) == 8  # a game's two, its three seats', a table's two, a rule set's
    logged = {log.name: log.read_text() for log in proxy.logs.rglob("*.log")}
    assert {name: [t for t in tokens if t in text] for name, text in logged.items()} == {
        name: [] for name in logged
    }
    # The proxy's log and the log of the process that keeps game 1.
    assert sum("/g/1/" in text for text in logged.values()) >= 2


def where_served(phone: Phone, base: str, game: dict[str, Any]) -> set[str]:
    """The processes that answered a game's page, poll, seat page and API read (each 200)."""
    game_id, token = game["id"], game["links"]["edit_token"]
    version = game["version"]
    answers = [
        phone.get(f"{base}/g/{game_id}/{token}"),
        phone.get(f"{base}/g/{game_id}/{token}/version?v={version}", headers=HX),
        phone.get(f"{base}/s/{game_id}/{game['seat_links'][0]['token']}"),
        phone.get(f"{base}/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}),
    ]
    assert [a.status_code for a in answers] == [200] * 4
    assert PLAYERS[0] in answers[0].text
    # After a retry the proxy names each process it tried: the last one answered.
    return {a.headers["X-Upstream"].split(",")[-1].strip() for a in answers}


def test_each_game_reaches_one_process_and_moves_when_it_stops(proxy: Proxy) -> None:
    phone = Phone()
    with ExitStack() as stack, ExitStack() as stopping:
        log = proxy.logs / "app-2.log"
        third = stopping.enter_context(scorekeeper(proxy.settings, log=log))
        upstreams = [*proxy.upstreams, f"127.0.0.1:{third}"]
        base = stack.enter_context(proxy.front([*proxy.ports, third], proxy.logs / "three"))
        kept = game_on_each(phone, base, upstreams)  # each game's requests on one process
        stopping.close()  # the third process stops; nginx and Caddy find it down
        moved = kept.pop(upstreams[-1])
        deadline = time.monotonic() + 15  # Caddy's health check (10 s) finds it down
        landed: set[str] = set()
        while not landed and time.monotonic() < deadline:
            try:
                landed = where_served(phone, base, moved)
            except AssertionError:
                time.sleep(0.5)
        assert len(landed) == 1 and landed < set(proxy.upstreams)
        # Consistent hashing: the games of the processes still up stay where they were.
        assert {u: where_served(phone, base, game) for u, game in kept.items()} == {
            u: {u} for u in kept
        }
