"""The proxy recipe as CI runs it: nginx (deploy/nginx's own files) under /scores/ in front of
two `scorekeeper serve` processes on one PostgreSQL database, rate limits on Redis.

Two phones play a round through the proxy: a change posted to the other process than the page
came from, the watching phone's live update, share links that name the proxy's address, and
link misses counted once for both processes (the client's address as the proxy says it).
"""

from __future__ import annotations

import html
import os
import re
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tests.databases import PostgresDatabase
from tools.nginx_proxy import find_nginx, nginx, scorekeeper

PLAYERS = ["Bartholomeus", "Concepción", "Marie-Claire", "Guðmundur"]
HX = {"HX-Request": "true"}
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
POLLER = re.compile(r'id="poller"[^>]*hx-get="([^"]+)"', re.S)


@dataclass
class Proxy:
    """The proxy's address (prefix included) and what stands behind it."""

    base: str
    origin: str
    upstreams: list[str]


@pytest.fixture
def proxy(postgres_database: PostgresDatabase, redis_url: str, tmp_path: Path) -> Iterator[Proxy]:
    """nginx in front of two processes, as deploy/ sets them up."""
    if find_nginx() is None:
        reason = "nginx is not installed (apt-get install nginx); the proxy test skipped"
        if os.environ.get("SCOREKEEPER_REQUIRE_NGINX"):
            pytest.fail(reason)
        pytest.skip(reason)
    settings = {
        "SCOREKEEPER_DATABASE_URL": postgres_database.clean(),
        "SCOREKEEPER_SECRET_KEY": "one-secret-for-every-process",
        "SCOREKEEPER_PROXY_HOPS": "1",
        "SCOREKEEPER_RATELIMIT_STORAGE_URI": redis_url,
        "SCOREKEEPER_RATELIMIT_KEY_PREFIX": f"proxy-test-{uuid.uuid4().hex}",
        "SCOREKEEPER_RATELIMIT_LINK_MISSES": "5 per minute",
        "SCOREKEEPER_WORKERS": "1",  # a process each: "the other process" is the other port
        "SCOREKEEPER_DATA_DIR": str(tmp_path),
    }
    with ExitStack() as stack:
        ports = [stack.enter_context(scorekeeper(settings)) for _ in range(2)]
        base = stack.enter_context(nginx(ports, tmp_path / "nginx"))
        yield Proxy(base, base.removesuffix("/scores"), [f"127.0.0.1:{p}" for p in ports])


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
    bought = scorer.submit(f"{proxy.origin}{game}/buys", {"seat": "1"})
    assert bought.status_code == 200, bought.text
    assert {shown.headers["X-Upstream"], bought.headers["X-Upstream"]} == set(proxy.upstreams)
    assert "2 buys left (1/3)" in bought.text

    live = watcher.get(f"{proxy.origin}{poller}", headers=HX)
    assert live.status_code == 200 and "2 buys left (1/3)" in live.text

    hands = {"went_out": "0", "points_1": "25", "points_2": "40", "points_3": "15"}
    saved = scorer.submit(f"{proxy.origin}{game}/rounds/1", hands, htmx=False)
    assert saved.status_code == 303 and saved.headers["Location"].startswith("/scores/g/")
    sheet = watcher.page(links["view"] + "/sheet").text
    assert "Marie-Claire" in sheet and ">40<" in sheet


def test_link_misses_count_once_for_both_processes_and_the_client_the_proxy_saw(
    proxy: Proxy,
) -> None:
    guesser = Phone()
    guesses = [guesser.get(f"{proxy.base}/g/1/guess{i}") for i in range(5)]
    assert [g.status_code for g in guesses] == [404] * 5
    assert {g.headers["X-Upstream"] for g in guesses} == set(proxy.upstreams)
    # A forged X-Forwarded-For changes nothing: nginx sets the header, it never appends.
    forged = guesser.get(f"{proxy.base}/g/1/guess", headers={"X-Forwarded-For": "10.9.9.9"})
    assert forged.status_code == 429
