"""The access log: one line per request (client, method, path with link tokens hidden, status,
time), the unchanged poll answered before Flask included; nothing a link's token in it."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

import scorekeeper
from scorekeeper.extensions import db
from scorekeeper.models import CardTable, Game, HouseRules, SeatLink
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict
from tests.conftest import Table
from tests.tables.helpers import open_table
from tools.nginx_proxy import free_port

App = Callable[..., Flask]
LINE = re.compile(r"^(\S+) (GET|POST|PUT) (/\S*) (\d{3}) \d+\.\d ms$")


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The access log's lines so far."""
    return [r.getMessage() for r in caplog.records if r.name == "scorekeeper.access"]


def test_each_request_gets_one_line_when_its_answer_is_sent(
    app_from: App, caplog: pytest.LogCaptureFixture
) -> None:
    client = app_from().test_client()
    with caplog.at_level(logging.INFO, logger="scorekeeper.access"):
        answer = client.get("/games/new")
        assert lines(caplog) == []  # the answer is not sent yet
        answer.close()
        client.get("/no/such/page").close()
    [first, missing] = lines(caplog)
    assert LINE.match(first) and first.startswith("127.0.0.1 GET /games/new 200 ")
    assert missing.startswith("127.0.0.1 GET /no/such/page 404 ")


def tokens(app: Flask) -> list[str]:
    """Every link token the instance holds."""
    with app.app_context():
        found = [
            *db.session.scalars(select(Game.edit_token)),
            *db.session.scalars(select(Game.view_token)),
            *db.session.scalars(select(CardTable.edit_token)),
            *db.session.scalars(select(CardTable.view_token)),
            *db.session.scalars(select(HouseRules.token)),
            *db.session.scalars(select(SeatLink.token)),
        ]
        db.session.remove()
    return found


class Served(FlaskClient):
    """A test client that closes every answer at once, as a server does once it is sent."""

    def open(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("buffered", True)
        return super().open(*args, **kwargs)


def served_game(app_from: App) -> tuple[Flask, Table]:
    """An app whose answers are closed as a server's are, and a game started on it."""
    app = app_from()
    app.test_client_class = Served
    table = Table(app.test_client())
    table.start(["Bartholomeus", "Concepción", "Marie-Claire", "Guðmundur"])
    return app, table


def test_no_link_token_ever_reaches_the_log(
    app_from: App, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="scorekeeper.access"):
        app, table = served_game(app_from)
        client, url = table.client, table.url
        for path in ("", "/sheet", "/share", "/display", "/version?v=0&on=round"):
            client.get(url + path).close()
        table.buy("Concepción").close()
        client.get(url + "/version?v=1&on=round", headers={"HX-Request": "true"}).close()
        table_url = open_table(client)
        client.get(table_url + "/record").close()
        body = {"name": "Ours", "rules": ruleset_to_dict(MAY_I)}
        saved = client.post("/api/v1/rulesets/saved", json=body).get_json()
        client.get(f"/house-rules/{saved['id']}/{saved['token']}/edit").close()
    logged = "\n".join(lines(caplog))
    assert len(lines(caplog)) == 12 and all(LINE.match(line) for line in lines(caplog))
    secrets = tokens(app)
    assert len(secrets) == 9 and not [t for t in secrets if t in logged]
    assert "GET /g/1/…/sheet 200" in logged and "GET /t/1/…/record 200" in logged
    assert "/house-rules/1/…/edit 200" in logged
    assert "GET /g/1/…/version 200" in logged  # the unchanged poll, answered before Flask


def test_a_path_cannot_forge_a_line(app_from: App, caplog: pytest.LogCaptureFixture) -> None:
    client = app_from().test_client()
    with caplog.at_level(logging.INFO, logger="scorekeeper.access"):
        client.get("/x%0AGET /admin 200 1.0 ms%1b[31m").close()
    [line] = lines(caplog)
    assert "\n" not in line and "\x1b" not in line
    assert line.startswith("127.0.0.1 GET /x%0AGET%20/admin%20200%201.0%20ms%1B%5B31m 404 ")


def test_the_proxys_prefix_and_client_are_in_the_line(
    app_from: App, caplog: pytest.LogCaptureFixture
) -> None:
    client = app_from(PROXY_HOPS=1).test_client()
    forwarded = {"X-Forwarded-Prefix": "/scores", "X-Forwarded-For": "203.0.113.7"}
    with caplog.at_level(logging.INFO, logger="scorekeeper.access"):
        client.get("/games/new", headers=forwarded).close()
    assert lines(caplog)[0].startswith("203.0.113.7 GET /scores/games/new 200 ")


def test_a_link_typed_with_a_doubled_slash_keeps_its_token_out_of_the_log(
    app_from: App, caplog: pytest.LogCaptureFixture
) -> None:
    """Werkzeug answers `/g//1/<token>` with a 308 to the real page, before any route."""
    app, table = served_game(app_from)
    client, url = table.client, table.url
    table_url = open_table(client)
    with app.app_context():
        seat = db.session.scalars(select(SeatLink.token)).first()
    caplog.clear()
    shapes = [
        url.replace("/g/", "/g//"),
        url.replace("/g/1/", "/g/1//") + "//sheet",
        table_url.replace("/t/", "/t//"),
        f"/s//1/{seat}",
        f"/s/1//{seat}/version?v=1",
        f"/games/new?next=%2Fs%2F1%2F{seat}",
    ]
    with caplog.at_level(logging.INFO, logger="scorekeeper.access"):
        answers = [client.get(shape).status_code for shape in shapes]
    assert answers[:5] == [308] * 5
    logged = "\n".join(lines(caplog))
    assert len(lines(caplog)) == 6 and not [t for t in tokens(app) if t in logged]
    assert "GET /g//1/… 308" in logged and "GET /s//1/… 308" in logged


@pytest.mark.parametrize(
    "logger", ["gunicorn.error", "gunicorn.access", "waitress", "werkzeug", "scorekeeper"]
)
def test_every_logger_that_quotes_a_path_redacts_it(
    app_from: App, caplog: pytest.LogCaptureFixture, logger: str
) -> None:
    app_from()
    token = "Zx9_secretToken-0123456789abcdef"
    with caplog.at_level(logging.INFO, logger=logger):
        logging.getLogger(logger).error("Error handling request GET /g//1/%s/sheet", token)
        logging.getLogger(logger).info('"GET /x/%s?next=%%2Fg%%2F1%%2F%s HTTP/1.1"', token, token)
    logged = "\n".join(r.getMessage() for r in caplog.records if r.name == logger)
    assert token not in logged and "/g//1/…/sheet" in logged


def get(url: str) -> int:
    """The status a GET answers, its body read to the end; 0 when nothing answers yet."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            answer.read()
            return int(answer.status)
    except urllib.error.HTTPError as answer:
        answer.read()
        return int(answer.code)
    except OSError:
        return 0


def test_flask_run_writes_each_line_once(tmp_path: Path) -> None:
    """Neither werkzeug's own line nor app.logger's copy of ours: one line a request."""
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'scorekeeper.db'}",
        "SCOREKEEPER_DATA_DIR": str(tmp_path),
        "SCOREKEEPER_SECRET_KEY": "log-test",
        "PYTHONPATH": str(Path(scorekeeper.__file__).parent.parent),  # this tree's, not another's
    }
    command = [sys.executable, "-m", "flask", "--app", "scorekeeper", "run", "--port", str(port)]
    process = subprocess.Popen(command, env=env, cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    logged: list[str] = []
    assert process.stderr is not None
    reader = threading.Thread(target=lambda: logged.extend(process.stderr or ()))
    reader.start()
    base, paths = f"http://127.0.0.1:{port}", ("/games/new", "/no/such/page")
    try:
        for _ in range(300):  # up to 30 s for the server to answer
            if get(f"{base}/healthz") or process.poll() is not None:
                break
            time.sleep(0.1)
        assert [get(base + path) for path in paths] == [200, 404]
        for _ in range(100):  # each line is written once the answer is sent
            if all(path in "".join(logged) for path in paths):
                break
            time.sleep(0.1)
        time.sleep(0.5)  # werkzeug's own line would follow at once
    finally:
        process.terminate()
        process.wait(timeout=30)
        reader.join(timeout=30)
        process.stderr.close()
    for path, status in zip(paths, (200, 404), strict=True):
        [line] = [line for line in logged if path in line]
        assert f"127.0.0.1 GET {path} {status} " in line
