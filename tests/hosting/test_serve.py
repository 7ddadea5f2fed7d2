"""`scorekeeper serve`: gunicorn's workers (one per core by default) or waitress, with the same
options; the access log on stderr; `--version` and `health`; a missing extra said plainly."""

from __future__ import annotations

import gc
import os
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from gunicorn.app.base import BaseApplication

from scorekeeper import __version__, config, create_app
from scorekeeper.config import MissingExtra
from scorekeeper.hosting import servers
from scorekeeper.hosting.cli import data_lines
from tests.conftest import status_of
from tests.hosting.test_instance_backup import SCRIPT
from tools.nginx_proxy import free_port, wait_for


@dataclass
class Served:
    """A `scorekeeper serve` process, its port, and what it wrote to stderr once stopped."""

    port: int
    process: subprocess.Popen[str]
    stderr: str = ""

    def wait_to_log(self, text: str, seconds: float = 30) -> None:
        """Read stderr until `text` is in it: a server logs a request after answering it, so a
        stop right after the answer could cut the line (seen under waitress at load 13)."""
        assert self.process.stderr is not None
        os.set_blocking(self.process.stderr.fileno(), False)
        deadline = time.monotonic() + seconds
        while text not in self.stderr and time.monotonic() < deadline:
            self.stderr += self.process.stderr.read() or ""
            time.sleep(0.05)
        os.set_blocking(self.process.stderr.fileno(), True)


@contextmanager
def serving(tmp_path: Path, *options: str, **settings: str) -> Iterator[Served]:
    """`scorekeeper serve` on a fresh SQLite instance."""
    port = free_port()
    env = {**os.environ, "SCOREKEEPER_DATA_DIR": str(tmp_path), **settings}
    command = [str(SCRIPT), "serve", "--host", "127.0.0.1", "--port", str(port), *options]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    served = Served(port, process)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", process)
        yield served
    finally:
        process.terminate()
        served.stderr += process.communicate(timeout=30)[1]


def children(pid: int) -> list[int]:
    """The processes whose parent is pid (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def workers_started(pid: int, expected: int, seconds: float = 30) -> int:
    """How many worker processes the server has, once it has `expected` or the time is up: the
    first worker can answer while gunicorn is still forking the others on a loaded machine."""
    deadline = time.monotonic() + seconds
    while len(found := children(pid)) < expected and time.monotonic() < deadline:
        time.sleep(0.1)
    return len(found)


def status(url: str, host: str | None = None) -> int:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    return status_of(request, timeout=10)


def test_version() -> None:
    done = subprocess.run([str(SCRIPT), "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"scorekeeper {__version__}"


def test_gunicorn_serves_one_worker_per_core_by_default() -> None:
    assert servers.default_server() == "gunicorn"  # Linux, as CI
    options = servers.gunicorn_options("127.0.0.1", 8000, 8, servers.cores())
    assert options["workers"] == len(os.sched_getaffinity(0))
    assert options["threads"] == 8 and options["worker_class"] == "gthread"


def test_gunicorn_runs_the_workers_asked_for_and_logs_each_request(tmp_path: Path) -> None:
    with serving(tmp_path, "--workers", "3") as served:
        assert status(f"http://127.0.0.1:{served.port}/games/new") == 200
        assert status(f"http://127.0.0.1:{served.port}/", host="evil.example") == 400
        assert workers_started(served.process.pid, 3) == 3
    logged = served.stderr
    assert "scorekeeper.access: 127.0.0.1 GET /games/new 200 " in logged
    assert "scorekeeper.access: 127.0.0.1 GET / 400 " in logged and "healthz" not in logged


def test_serve_says_at_start_when_trusted_hosts_leave_out_the_public_host(
    tmp_path: Path,
) -> None:
    public = {"SCOREKEEPER_PUBLIC_URL": "https://Scores.example.org/scores"}
    refused = {**public, "SCOREKEEPER_TRUSTED_HOSTS": "internal.example"}
    with serving(tmp_path, "--workers", "1", **refused) as served:
        assert status(f"http://127.0.0.1:{served.port}/", host="scores.example.org") == 400
    said = "SCOREKEEPER_TRUSTED_HOSTS leaves out scores.example.org, the host of "
    assert said in served.stderr
    trusted = {**public, "SCOREKEEPER_TRUSTED_HOSTS": "internal.example, scores.example.org"}
    with serving(tmp_path, "--workers", "1", **trusted) as served:
        assert status(f"http://127.0.0.1:{served.port}/", host="scores.example.org") == 200
    assert "leaves out" not in served.stderr


def test_waitress_serves_with_the_same_options(tmp_path: Path) -> None:
    with serving(tmp_path, "--threads", "4", SCOREKEEPER_SERVER="waitress") as served:
        assert status(f"http://127.0.0.1:{served.port}/games/new") == 200
        assert children(served.process.pid) == []
        served.wait_to_log("GET /games/new 200 ")
    logged = served.stderr
    assert "waitress: Serving on" in logged and "GET /games/new 200 " in logged


@pytest.mark.parametrize("server", servers.SERVERS)
def test_each_server_freezes_the_heap_its_app_started_with(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python's full collection would walk every startup object again, stopping every thread
    (servers.started): each process freezes them once its app is built."""
    frozen: list[int] = []

    def run(self: BaseApplication) -> None:  # gunicorn's worker, after its fork
        self.load()
        frozen.append(gc.get_freeze_count())

    def waitress_serve(app: object, **_options: object) -> None:
        frozen.append(gc.get_freeze_count())

    monkeypatch.setattr(BaseApplication, "run", run)
    monkeypatch.setattr("waitress.serve", waitress_serve)
    gc.unfreeze()
    try:
        servers.serve(lambda: Flask(__name__), "127.0.0.1", free_port(), 2, 1, server)
    finally:
        gc.unfreeze()
    assert len(frozen) == 1 and frozen[0] > 1000


def test_waitress_refuses_more_than_one_process(tmp_path: Path) -> None:
    env = {**os.environ, "SCOREKEEPER_DATA_DIR": str(tmp_path)}
    command = [str(SCRIPT), "serve", "--server", "waitress", "--workers", "2", "--no-migrate"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "use --server gunicorn" in done.stderr


def test_the_health_command_says_whether_a_server_is_healthy(tmp_path: Path) -> None:
    with serving(tmp_path) as served:
        url = f"http://127.0.0.1:{served.port}/healthz"
        done = subprocess.run([str(SCRIPT), "health", "--url", url], capture_output=True, text=True)
        assert done.returncode == 0 and '"status":"ok"' in done.stdout
    done = subprocess.run([str(SCRIPT), "health", "--url", url], capture_output=True, text=True)
    assert done.returncode == 1 and '"status": "unreachable"' in done.stdout


@pytest.mark.parametrize(
    ("setting", "value", "extra"),
    [
        ("SQLALCHEMY_DATABASE_URI", "postgresql://u@h/db", "postgres"),
        ("RATELIMIT_STORAGE_URI", "redis://127.0.0.1:6379/0", "redis"),
    ],
)
def test_a_server_without_its_extra_is_named(
    monkeypatch: pytest.MonkeyPatch, setting: str, value: str, extra: str
) -> None:
    library = {"postgres": "psycopg", "redis": "redis"}[extra]
    monkeypatch.setattr(config, "find_spec", lambda name: None if name == library else object())
    with pytest.raises(MissingExtra, match=rf"pip install 'scorekeeper-rummy\[{extra}\]'"):
        create_app({setting: value, "SECRET_KEY": "x"})


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("SCOREKEEPER_WORKERS", "many", "SCOREKEEPER_WORKERS='many' is not a setting it takes"),
        ("SCOREKEEPER_PROXY_HOPS", "one", "SCOREKEEPER_PROXY_HOPS='one' is not a setting"),
        ("SCOREKEEPER_SERVER", "apache", "SCOREKEEPER_SERVER is one of gunicorn, waitress"),
    ],
)
def test_a_setting_it_cannot_take_is_named(
    tmp_path: Path, name: str, value: str, said: str
) -> None:
    env = {**os.environ, "SCOREKEEPER_DATA_DIR": str(tmp_path), name: value}
    command = [str(SCRIPT), "serve", "--no-migrate"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr


def test_serve_says_where_its_data_lives(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "SCOREKEEPER_DATA_DIR": str(tmp_path / "data")}
    env.pop("SCOREKEEPER_DATABASE_URL", None)
    command = [str(SCRIPT), "serve", "--port", str(port), "--workers", "1"]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", process)  # said before it serves
    finally:
        process.terminate()
        said = process.communicate(timeout=30)[0].splitlines()
    assert said[:4] == [
        f"Scorekeeper is serving at http://127.0.0.1:{port}/",
        f"Its data: {tmp_path / 'data'}",
        f"  database: {tmp_path / 'data' / 'scorekeeper.db'}",
        f"  backups:  {tmp_path / 'data' / 'backups'}",
    ]


def test_serve_names_a_postgresql_database_without_its_password(tmp_path: Path) -> None:
    url = "postgresql://keeper:Secret-pw@db.example:5432/scores"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "x"})
    said = "\n".join(data_lines(app))
    assert "keeper:***@db.example:5432/scores" in said and "Secret-pw" not in said
