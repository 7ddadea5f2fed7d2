"""The Caddy recipe run for real: deploy/Caddyfile in front of `scorekeeper serve` processes.

Caddy takes the recipe's own file, its site address made a local port without TLS, its
upstreams the processes' ports and its logs a folder's, so tests/hosting/test_proxy.py serves
through the file an operator installs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tools.nginx_proxy import RECIPE_PORTS, ROOT, proxying, ready_to_start

CADDYFILE = ROOT / "deploy" / "Caddyfile"
SITE = "scores.example.org {"
LOGS = "/var/log/caddy/"
# Only here: no admin endpoint, no certificates, Caddy's state in the folder.
LOCAL = "{{\n\tadmin off\n\tauto_https off\n\tstorage file_system {data}\n"
BALANCED = "lb_policy header X-Scorekeeper-Game"
# Which process answered, for the test that posts to the other one.
UPSTREAM_HEADER = "\n\t\t\theader_down X-Upstream {http.reverse_proxy.upstream.hostport}"


def find_caddy() -> str | None:
    """caddy, installed from Debian's package when it is missing and this user may (as CI)."""
    found = shutil.which("caddy")
    if found or os.geteuid() != 0 or not shutil.which("apt-get"):
        return found
    quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive", "RUNLEVEL": "1"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "caddy"]):
        subprocess.run(command, env=quiet, check=False, capture_output=True)
    return shutil.which("caddy")


def caddyfile(port: int, ports: Sequence[int], folder: Path) -> str:
    """deploy/Caddyfile on 127.0.0.1:port over plain HTTP, in front of these ports."""
    recipe = CADDYFILE.read_text()
    upstreams = " ".join(f"127.0.0.1:{p}" for p in RECIPE_PORTS)
    assert (
        SITE in recipe
        and BALANCED in recipe
        and f"reverse_proxy {upstreams} {{" in recipe
        and "\n{\n" in recipe
    )
    ours = " ".join(f"127.0.0.1:{p}" for p in ports)
    text = recipe.replace(SITE, f"http://127.0.0.1:{port} {{").replace(upstreams, ours)
    text = text.replace("\n{\n", "\n" + LOCAL.format(data=folder / "data"), 1)
    text = text.replace(BALANCED, BALANCED + UPSTREAM_HEADER)
    return text.replace(LOGS, f"{folder}/")


@contextmanager
def caddy(ports: Sequence[int], folder: Path, statuses: Collection[int] = (200,)) -> Iterator[str]:
    """Caddy in front of the processes on these ports; yields the app's URL, prefix included.

    Ready once /healthz answers one of `statuses` (503 in front of none). What Caddy writes to
    stderr (its default log) goes to folder/caddy.log.
    """
    program, port = ready_to_start(find_caddy(), "caddy", folder)
    conf = folder / "Caddyfile"
    conf.write_text(caddyfile(port, ports, folder))
    home = {"HOME": str(folder), "XDG_CONFIG_HOME": str(folder), "XDG_DATA_HOME": str(folder)}
    command = [program, "run", "--config", str(conf), "--adapter", "caddyfile"]
    environ = {**os.environ, **home}
    with (
        (folder / "caddy.log").open("w") as log,
        proxying(
            command, port, "/healthz", statuses, env=environ, stdout=log, stderr=subprocess.STDOUT
        ) as base,
    ):
        yield base
