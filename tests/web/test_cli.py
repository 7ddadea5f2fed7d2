"""`scorekeeper serve --lan`: the LAN address, the printed URL and QR code, the log filter."""

from __future__ import annotations

import io
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import segno

from scorekeeper.hosting.cli import announce
from scorekeeper.hosting.lan import interface_address, lan_address
from scorekeeper.security import RedactLinks, redact_links
from tools.nginx_proxy import free_port


def test_lan_address_is_an_address_of_this_machine() -> None:
    addresses = {interface_address(name) for _i, name in socket.if_nameindex()}
    address = lan_address()
    assert address in addresses | {"127.0.0.1"}
    socket.inet_aton(address)  # a well-formed IPv4 address


def test_an_unknown_interface_has_no_address() -> None:
    assert interface_address("no-such-if0") is None


def test_serving_the_lan_prints_the_url_and_a_qr_code_of_it() -> None:
    out = io.StringIO()
    announce("http://192.0.2.7:5000/", lan=True, out=out)
    printed = out.getvalue()
    assert "http://192.0.2.7:5000/" in printed
    expected = io.StringIO()
    segno.make("http://192.0.2.7:5000/", error="m").terminal(out=expected, compact=True)
    assert expected.getvalue() in printed


def test_serving_locally_prints_no_qr_code() -> None:
    out = io.StringIO()
    announce("http://127.0.0.1:5000/", lan=False, out=out)
    assert out.getvalue() == "Scorekeeper is serving at http://127.0.0.1:5000/\n"


def test_game_links_are_redacted_from_log_lines() -> None:
    line = '"GET /g/12/Zx9_secret-Token/buys HTTP/1.1" 200 -'
    assert redact_links(line) == '"GET /g/12/…/buys HTTP/1.1" 200 -'


def test_rule_set_links_are_redacted_from_log_lines() -> None:
    line = '"POST /house-rules/7/Zx9_secret-Token/delete HTTP/1.1" 303 -'
    assert redact_links(line) == '"POST /house-rules/7/…/delete HTTP/1.1" 303 -'
    assert redact_links("GET /house-rules/shared?r=abc") == "GET /house-rules/shared?r=abc"


def test_table_links_are_redacted_from_log_lines() -> None:
    line = '"GET /t/4/Zx9_secret-Token/record HTTP/1.1" 200 -'
    assert redact_links(line) == '"GET /t/4/…/record HTTP/1.1" 200 -'
    assert redact_links("GET /tables/new HTTP/1.1") == "GET /tables/new HTTP/1.1"


TOKEN = "Zx9_secretToken-0123456789abcdef"  # the shape of link_tokens.new_token's


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        (f"GET /s//1/{TOKEN}", "GET /s//1/…"),
        (f"GET //g///12//{TOKEN}/sheet", "GET //g///12//…/sheet"),
        (f"GET /scores/t/3/{TOKEN}?x=1", "GET /scores/t/3/…?x=1"),
        (f"GET /G/1/{TOKEN}/buys", "GET /G/1/…/buys"),
        (f"GET /games/new?next=%2Fg%2F1%2F{TOKEN}", "GET /games/new?next=…"),
        (f"GET /g/1/%5A%78{TOKEN[2:]}", "GET /g/1/…"),
        (
            f"referer=https://scores.example.org/house-rules/x/{TOKEN}",
            "referer=https://scores.example.org/house-rules/x/…",
        ),
    ],
)
def test_anything_token_like_in_a_path_or_query_is_redacted(line: str, shown: str) -> None:
    assert redact_links(line) == shown


@pytest.mark.parametrize(
    "line",
    [
        "GET /api/v1/games/12/rounds/3 200",
        "GET /rules/round-end-corrections-and-notes 404",
        "Refused host: set SCOREKEEPER_PUBLIC_URL or SCOREKEEPER_TRUSTED_HOSTS",
        "File /usr/lib/python3/dist-packages/sqlalchemy/engine/base.py, line 1",
    ],
)
def test_words_paths_and_settings_stay_as_they_are(line: str) -> None:
    assert redact_links(line) == line


def test_the_request_log_never_holds_a_link_token() -> None:
    stream = io.StringIO()
    logger = logging.getLogger("scorekeeper-test-redaction")
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    logger.addFilter(RedactLinks())
    logger.warning('"%s" %s', "GET /g/3/abcDEF123_-x HTTP/1.1", 200)
    logger.removeHandler(handler)
    assert "abcDEF123" not in stream.getvalue()
    assert "/g/3/…" in stream.getvalue()


def test_scorekeeper_serve_migrates_and_answers(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'served.db'}",
        "SCOREKEEPER_SECRET_KEY": "test-only-secret",
    }
    script = Path(sys.executable).parent / "scorekeeper"
    command = [str(script), "serve", "--lan", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        first_line = server.stdout.readline()
        assert first_line.strip() == f"Scorekeeper is serving at http://127.0.0.1:{port}/"
        page = ""
        for _attempt in range(50):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    page = answer.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert "Scorekeeper" in page
    finally:
        server.terminate()
        try:
            # gunicorn's arbiter waits for its workers; on a loaded machine that took 5-9 s.
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if server.stdout is not None:
            server.stdout.close()
