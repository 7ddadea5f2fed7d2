"""`scorekeeper serve --lan` as README's "For a family" runs it: the phones reach the laptop's
address on the network, and the laptop's own browser still reaches localhost (issue 35.10)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from scorekeeper.hosting import servers
from scorekeeper.hosting.lan import lan_address, listening_on
from tests.hosting.test_instance_backup import SCRIPT
from tests.hosting.test_serve import status
from tools.nginx_proxy import free_port, wait_for

README = Path(__file__).parents[2] / "README.md"


def family_steps() -> list[str]:
    """The lines of the shell block under README's "For a family" heading."""
    section = README.read_text().split("### For a family", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "no shell block under 'For a family'"
    return [line for line in block[1].splitlines() if line.strip()]


@contextmanager
def serving_lan(tmp_path: Path, command: list[str], server: str) -> Iterator[int]:
    """The README's serve command on a fresh instance, on a free port; yields the port."""
    port = free_port()
    env = {**os.environ, "SCOREKEEPER_DATA_DIR": str(tmp_path), "SCOREKEEPER_PORT": str(port)}
    env["SCOREKEEPER_SERVER"] = server
    env.pop("SCOREKEEPER_HOST", None)
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True
    )
    try:
        wait_for(f"http://{lan_address()}:{port}/healthz", process)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_family_steps_stop_make_run_before_serving_the_lan() -> None:
    steps = family_steps()
    commands = [line.split("#")[0].strip() for line in steps]
    assert commands[0] == "make run" and commands[-1] == ".venv/bin/scorekeeper serve --lan"
    between = " ".join(steps[1:-1])
    assert "Ctrl-C" in between and "stop" in between.lower(), steps


@pytest.mark.parametrize("server", servers.SERVERS)
def test_serve_lan_as_written_answers_on_localhost_and_the_lan_address(
    tmp_path: Path, server: str
) -> None:
    written = shlex.split(family_steps()[-1].split("#")[0])
    assert written[0] == ".venv/bin/scorekeeper"
    address = lan_address()  # 127.0.0.1 on a machine with no other network
    with serving_lan(tmp_path, [str(SCRIPT), *written[1:]], server) as port:
        for host in dict.fromkeys([address, "127.0.0.1", "localhost"]):
            assert status(f"http://{host}:{port}/games/new") == 200, host


def test_one_network_address_is_served_with_the_loopback_beside_it() -> None:
    assert listening_on("192.168.1.20") == ["192.168.1.20", "127.0.0.1"]
    assert listening_on("fd00::20") == ["fd00::20", "::1"]
    for alone in ("127.0.0.1", "::1", "0.0.0.0", "::", "laptop.local"):
        assert listening_on(alone) == [alone]
