"""A PostgreSQL outage under `scorekeeper serve` (gunicorn's workers): a TCP forwarder stands
between the app and the run's database and the test cuts it, never the server itself.

While it is cut every poll, page and change answers 503 with Retry-After (never 500); once it
is back the same phones go on; and no line the server wrote holds a token.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import requests

from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.databases import PostgresDatabase
from tests.hosting.forwarder import Forwarder, forwarding
from tests.hosting.test_instance_backup import SCRIPT
from tests.hosting.test_proxy import HX, Phone
from tools.nginx_proxy import free_port, wait_for


@dataclass
class Served:
    """The server's address, the forwarder its database connections pass, its log file."""

    base: str
    forwarder: Forwarder
    log: Path


@contextmanager
def serving_through(url: str, tmp_path: Path) -> Iterator[Served]:
    """`scorekeeper serve` (two workers) on the database at url, through a forwarder; its
    stderr into a file (a pipe nobody reads could fill and stall it)."""
    port, log = free_port(), tmp_path / "serve.log"
    env = {
        **os.environ,
        "SCOREKEEPER_SECRET_KEY": "one-secret-for-every-worker",
        "SCOREKEEPER_DATA_DIR": str(tmp_path),
        "SCOREKEEPER_WORKERS": "2",
    }
    command = [str(SCRIPT), "serve", "--no-migrate", "--host", "127.0.0.1", "--port", str(port)]
    with forwarding("127.0.0.1", 5432) as forwarder, log.open("w") as stderr:
        env["SCOREKEEPER_DATABASE_URL"] = url.replace(":5432/", f":{forwarder.port}/")
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            wait_for(f"http://127.0.0.1:{port}/healthz", process)
            yield Served(f"http://127.0.0.1:{port}", forwarder, log)
        finally:
            process.terminate()
            process.wait(timeout=30)


@dataclass
class Links:
    """One game's, one table's and one rule set's links, made through the API."""

    game: int
    version: int
    edit: str
    view: str
    seat: str
    table: str
    rule_set: str
    secrets: list[str] = field(default_factory=list)


def links_made(base: str) -> Links:
    """A game, a table and a saved rule set; every token they hold."""
    players = ["Bartholomeus", "Concepción", "Marie-Claire"]
    game = requests.post(f"{base}/api/v1/games", json={"ruleset": "may-i", "players": players})
    table = requests.post(f"{base}/api/v1/tables", json={"name": "Friday"})
    rules = {"name": "Ours", "rules": ruleset_to_dict(MAY_I)}
    rule_set = requests.post(f"{base}/api/v1/rulesets/saved", json=rules)
    assert [game.status_code, table.status_code, rule_set.status_code] == [201] * 3
    made, seats = game.json(), [link["token"] for link in game.json()["seat_links"]]
    edit, view = made["links"]["edit_token"], made["links"]["view_token"]
    table_links = table.json()["links"]
    table_url = f"/t/{table.json()['id']}/{table_links['edit_token']}"
    rule_set_url = f"/house-rules/{rule_set.json()['id']}/{rule_set.json()['token']}/edit"
    secrets = [edit, view, *seats, *table_links.values(), rule_set.json()["token"]]
    return Links(
        made["id"], made["version"], edit, view, seats[0], table_url, rule_set_url, secrets
    )


class Polling(threading.Thread):
    """A phone polling its game without a pause; what each answer was."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.answers, self.going = url, set[tuple[int, str | None]](), True

    def run(self) -> None:
        with requests.Session() as phone:
            while self.going:
                answer = phone.get(self.url, headers=HX, timeout=30)
                self.answers.add((answer.status_code, answer.headers.get("Retry-After")))


def during_the_cut(phone: Phone, base: str, links: Links) -> list[requests.Response]:
    """Every kind of request a table sends: polls, pages, a link typed with a doubled slash,
    a change from a page and from the API, a new game, the health check."""
    game = f"{base}/g/{links.game}/{links.edit}"
    api = f"{base}/api/v1/games/{links.game}"
    change = {"seat": 1, "action_id": "outage-buy", "version": links.version}
    bearer = {"Authorization": f"Bearer {links.edit}"}
    return [
        phone.get(f"{base}/g/{links.game}/{links.view}/version?v={links.version}", headers=HX),
        phone.get(f"{base}/s/{links.game}/{links.seat}/version?v={links.version}", headers=HX),
        phone.get(game),
        phone.get(f"{base}/g/{links.game}/{links.view}/sheet"),
        phone.get(f"{base}/s/{links.game}/{links.seat}"),
        phone.get(f"{base}/s//{links.game}/{links.seat}"),
        phone.get(f"{base}/g//{links.game}/{links.edit}/sheet"),
        phone.get(f"{base}{links.table}"),
        phone.get(f"{base}{links.rule_set}"),
        phone.submit(f"{game}/buys", {"seat": "1"}),
        phone.post(f"{api}/buys", json=change, headers=bearer),
        phone.get(api, headers=bearer),
        phone.post(f"{base}/api/v1/games", json={"ruleset": "may-i", "players": ["An", "Bo"]}),
        phone.get(f"{base}/healthz"),
    ]


def test_a_database_outage_answers_503_and_logs_no_token(
    postgres_database: PostgresDatabase, tmp_path: Path
) -> None:
    with serving_through(postgres_database.clean(), tmp_path) as served:
        links = links_made(served.base)
        phone = Phone()
        phone.page(f"{served.base}/g/{links.game}/{links.edit}")
        poll = f"{served.base}/g/{links.game}/{links.view}/version?v={links.version}&on=round"
        pollers = [Polling(poll) for _ in range(4)]
        for poller in pollers:
            poller.start()
        time.sleep(0.5)
        served.forwarder.cut()
        answers = [a for _ in range(3) for a in during_the_cut(phone, served.base, links)]
        served.forwarder.restore()
        deadline = time.monotonic() + 20
        while phone.get(poll, headers=HX).status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        for poller in pollers:
            poller.going = False
            poller.join(timeout=30)
        bought = phone.submit(f"{served.base}/g/{links.game}/{links.edit}/buys", {"seat": "1"})
    # Retry-After: 5 s, a new game's the later end of its creation limit's window (Flask-Limiter).
    seen = [(a.status_code, a.headers.get("Retry-After", "").isdigit()) for a in answers]
    assert seen == [(503, True)] * 14 * 3
    assert set().union(*(p.answers for p in pollers)) <= {(200, None), (503, "5")}
    assert (503, "5") in pollers[0].answers
    assert bought.status_code == 200 and "2 buys left" in bought.text  # the phones go on

    logged = served.log.read_text()
    assert [t for t in links.secrets if t in logged] == []
    assert f"GET /s//{links.game}/… 308" in logged and " 503 " in logged
    assert " 500 " not in logged


def test_a_database_that_stops_answering_answers_503_within_seconds(
    postgres_database: PostgresDatabase, tmp_path: Path
) -> None:
    """Its address takes no connection and refuses none: the app waits 5 s for one, not for
    TCP to give up, and answers 503."""
    with serving_through(postgres_database.clean(), tmp_path) as served:
        links = links_made(served.base)
        served.forwarder.cut(stalled=True)
        started = time.monotonic()
        polled = requests.get(
            f"{served.base}/g/{links.game}/{links.view}/version?v={links.version}", timeout=30
        )
        waited = time.monotonic() - started
        served.forwarder.restore()
    assert (polled.status_code, polled.headers.get("Retry-After")) == (503, "5")
    assert waited < 20  # the poll's connection and Flask's: 5 s each at most
