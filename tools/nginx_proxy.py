"""The proxy recipe run for real: nginx in front of several `scorekeeper serve` processes.

nginx takes deploy/nginx's own upstream block (its ports swapped for the processes') and
locations file, on a local port without TLS, so tests/hosting/test_proxy.py and `make bench`
(bench/proxy_tables.py) serve through the files an operator installs.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parent.parent
RECIPE = ROOT / "deploy" / "nginx"
UPSTREAM = re.compile(r"^upstream scorekeeper \{.*?^\}", re.M | re.S)
RECIPE_PORTS = ("8001", "8002")
LOCATIONS = "scorekeeper-locations.conf"
LOGS = "/var/log/nginx/"
PREFIX = "/scores"
HASH = "hash $scorekeeper_game"  # the recipe's game affinity


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def find_nginx() -> str | None:
    """nginx, installed from Debian's package when it is missing and this user may (as CI)."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found or os.geteuid() != 0 or not shutil.which("apt-get"):
        return found
    quiet = {**os.environ, "DEBIAN_FRONTEND": "noninteractive", "RUNLEVEL": "1"}
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "nginx"]):
        subprocess.run(command, env=quiet, check=False, capture_output=True)
    return shutil.which("nginx", path="/usr/sbin:/sbin")


def upstream(ports: Sequence[int], affinity: bool = True) -> str:
    """deploy/nginx/scorekeeper.conf's upstream block, on these ports instead of 8001 and 8002
    (without affinity: round robin, as the recipe was before, for the bench's comparison)."""
    match = UPSTREAM.search((RECIPE / "scorekeeper.conf").read_text())
    assert match is not None, "deploy/nginx/scorekeeper.conf lost its upstream block"
    lines = match[0].splitlines()
    assert any(line.strip().startswith(HASH) for line in lines), "the recipe lost its hash"
    lines = [line for line in lines if affinity or not line.strip().startswith(HASH)]
    servers = [line for line in lines if line.strip().startswith("server ")]
    assert [re.search(r":(\d+)", line)[1] for line in servers] == list(RECIPE_PORTS)  # type: ignore[index]
    first = lines.index(servers[0])
    ours = [servers[0].replace(RECIPE_PORTS[0], str(port)) for port in ports]
    return "\n".join(lines[:first] + ours + lines[first + len(servers) :])


def logged_in(text: str, folder: Path) -> str:
    """The recipe's text with its logs in folder instead of /var/log/nginx."""
    return text.replace(LOGS, f"{folder}/")


def recipe_http(ports: Sequence[int], folder: Path, affinity: bool = True) -> str:
    """What deploy/nginx/scorekeeper.conf puts in nginx's http block before its servers (the
    log format, the upstream on these ports); the locations file copied into folder, with its
    logs there too."""
    recipe = (RECIPE / "scorekeeper.conf").read_text()
    http = recipe[: recipe.index("\nserver {")]
    (folder / LOCATIONS).write_text(logged_in((RECIPE / LOCATIONS).read_text(), folder))
    return UPSTREAM.sub(lambda _: upstream(ports, affinity), http)


def configuration(port: int, ports: Sequence[int], folder: Path, affinity: bool = True) -> str:
    """A whole nginx.conf: the recipe's http part and locations; logs and temp files in folder,
    nginx's default access log (Debian's, the combined format) beside the recipe's."""
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    user = "user root;" if os.geteuid() == 0 else ""  # its workers then read the temp folder
    return f"""
{user}
worker_processes 2;
worker_rlimit_nofile 16384;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{ worker_connections 8192; }}
http {{
    access_log {folder / "access.log"};
    {temp} uwsgi_temp_path {folder / "uwsgi"}; scgi_temp_path {folder / "scgi"};
    {recipe_http(ports, folder, affinity)}
    server {{
        listen 127.0.0.1:{port};
        # Which process answered, for the test that posts to the other one.
        add_header X-Upstream $upstream_addr always;
        include {folder / LOCATIONS};
    }}
}}
"""


@contextmanager
def nginx(
    ports: Sequence[int],
    folder: Path,
    ready: str = "/healthz",
    statuses: Collection[int] = (200,),
    affinity: bool = True,
) -> Iterator[str]:
    """nginx in front of the processes on these ports; yields the app's URL, prefix included.

    `ready`: a path that answers one of `statuses` once nginx and an app behind it are up
    (502 once nginx is up in front of none); `affinity`: False drops the recipe's hash.
    """
    program, port = ready_to_start(find_nginx(), "nginx", folder)
    conf = folder / "nginx.conf"
    conf.write_text(configuration(port, ports, folder, affinity))
    command = [program, "-c", str(conf), "-p", str(folder), "-e", str(folder / "error.log")]
    with proxying([*command, "-g", "daemon off;"], port, ready, statuses) as base:
        yield base


def ready_to_start(program: str | None, package: str, folder: Path) -> tuple[str, int]:
    """The proxy's program (it must be installed), its folder made, and a port for it."""
    assert program is not None, f"{package} is not installed (apt-get install {package})"
    folder.mkdir(parents=True, exist_ok=True)
    return program, free_port()


@contextmanager
def proxying(
    command: Sequence[str], port: int, ready: str, statuses: Collection[int], **popen: Any
) -> Iterator[str]:
    """A proxy's process, listening on port; yields the app's URL through it once `ready`
    answers one of `statuses`."""
    process = subprocess.Popen(command, **popen)
    try:
        wait_for(f"http://127.0.0.1:{port}{PREFIX}{ready}", process, statuses=statuses)
        yield f"http://127.0.0.1:{port}{PREFIX}"
    finally:
        process.terminate()
        process.wait(timeout=20)


@contextmanager
def server(
    command: Sequence[str], ready: str, quiet: bool = False, log: Path | None = None, **env: str
) -> Iterator[None]:
    """A server process, once `ready` (a URL) answers 200; stopped afterwards.

    `quiet`: its log goes nowhere (a bench's); `log`: into that file (a test that reads it);
    else to this process's stderr (a test's).
    """
    environ = {**os.environ, **env}
    with open(log, "a") if log else nullcontext(subprocess.DEVNULL if quiet else None) as err:
        process = subprocess.Popen(command, env=environ, stdout=subprocess.DEVNULL, stderr=err)
        try:
            wait_for(ready, process)
            yield
        finally:
            process.terminate()
            process.wait(timeout=30)


@contextmanager
def scorekeeper(
    environment: Mapping[str, str], *options: str, quiet: bool = False, log: Path | None = None
) -> Iterator[int]:
    """One `scorekeeper serve --no-migrate` process on a free port; yields the port."""
    port = free_port()
    script = Path(sys.executable).parent / "scorekeeper"
    command = [str(script), "serve", "--no-migrate", "--host", "127.0.0.1", "--port", str(port)]
    ready = f"http://127.0.0.1:{port}/healthz"
    with server([*command, *options], ready, quiet, log, **environment):
        yield port


def wait_for(
    url: str,
    process: subprocess.Popen[Any],
    seconds: float = 30,
    statuses: Collection[int] = (200,),
) -> None:
    """Wait until a URL answers 200 (or a status asked for); fail at once if the process that
    should answer died."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args} exited with {process.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError as error:
            if error.code in statuses:
                return
            time.sleep(0.1)
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {seconds} s")
