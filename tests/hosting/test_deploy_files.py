"""deploy/ as far as this machine can check it without a container engine: the Dockerfile
linted by hadolint, its entrypoint run outside a container, compose's structure, nginx's site
configuration checked by nginx itself, and the systemd unit by systemd-analyze."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from flask import Flask

from scorekeeper import __version__, create_app
from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.hosting import schema
from scorekeeper.rules.presets import MAY_I
from tests.databases import migrate
from tools.nginx_proxy import LOCATIONS, RECIPE, find_nginx, free_port, logged_in, wait_for

ROOT = Path(__file__).parent.parent.parent
DEPLOY = ROOT / "deploy"
BIN = Path(sys.executable).parent


def test_the_dockerfile_passes_hadolint() -> None:
    done = subprocess.run(
        [str(BIN / "hadolint"), str(DEPLOY / "Dockerfile")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_image_is_slim_runs_as_no_root_keeps_one_volume_and_checks_its_health() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^ARG PYTHON=3\.\d+-slim", dockerfile, re.M)
    [user] = re.findall(r"^USER (\S+)", dockerfile, re.M)
    assert not user.startswith(("0", "root"))
    assert re.findall(r"^VOLUME (.+)", dockerfile, re.M) == ['["/data"]']
    assert 'CMD ["scorekeeper", "health"]' in dockerfile
    assert 'ENTRYPOINT ["scorekeeper-entrypoint"]' in dockerfile
    assert "deploy/entrypoint.sh /usr/local/bin/scorekeeper-entrypoint" in dockerfile


def entrypoint(data: Path, *arguments: str, port: int = 0) -> subprocess.Popen[str]:
    """deploy/entrypoint.sh as the container runs it: the image's PATH and settings."""
    env = {
        **os.environ,
        "PATH": f"{BIN}:{os.environ['PATH']}",
        "SCOREKEEPER_DATA_DIR": str(data),
        "SCOREKEEPER_HOST": "127.0.0.1",
        "SCOREKEEPER_PORT": str(port),
        "SCOREKEEPER_WORKERS": "1",
    }
    command = ["sh", str(DEPLOY / "entrypoint.sh"), *arguments]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def an_older_instance(data: Path) -> str:
    """A data volume left by the release before: one migration behind, with a game."""
    url = f"sqlite:///{data / 'scorekeeper.db'}"
    migrate(url, str(data))
    app: Flask = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "x"})
    with app.app_context():
        actions.create_game(MAY_I, ["Bartholomeus", "Guðmundur"], 0)
        db.session.remove()
        db.engine.dispose()
    migrate(url, str(data), revision="-1")
    return url


def test_the_entrypoint_backs_up_migrates_and_serves(tmp_path: Path) -> None:
    an_older_instance(tmp_path)
    port = free_port()
    process = entrypoint(tmp_path, port=port)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", process)  # 200: at head
    finally:
        process.terminate()  # exec'd: the signal reaches the server itself
        _out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    [backup] = (tmp_path / "backups").iterdir()
    assert backup.name.startswith("before-migration-") and backup.suffix == ".sqlite3"
    assert f"Backed the database up to {backup}" in err


def test_the_entrypoint_runs_any_other_command(tmp_path: Path) -> None:
    version = entrypoint(tmp_path, "--version")
    assert version.communicate(timeout=60)[0].strip() == f"scorekeeper {__version__}"
    an_older_instance(tmp_path)
    backup = entrypoint(tmp_path, "backup", str(tmp_path / "today.sqlite3"))
    _out, err = backup.communicate(timeout=60)
    assert backup.returncode == 0, err
    assert (tmp_path / "today.sqlite3").read_bytes().startswith(b"SQLite format 3")


def test_compose_waits_on_a_healthy_postgresql_and_keeps_redis_optional() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    app, database, cache = (compose["services"][s] for s in ("app", "db", "redis"))
    assert (ROOT / app["build"]["context"].removeprefix("../")).exists()
    assert app["build"]["dockerfile"] == "deploy/Dockerfile"
    assert app["image"] == f"scorekeeper:{__version__}"
    assert app["depends_on"]["db"] == {"condition": "service_healthy"}
    assert app["depends_on"]["redis"] == {"condition": "service_healthy", "required": False}
    assert app["volumes"] == ["data:/data"] and app["env_file"] == ".env"
    assert "@db:5432/" in app["environment"]["SCOREKEEPER_DATABASE_URL"]
    assert database["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    assert cache["profiles"] == ["redis"] and "healthcheck" in cache


def test_the_nginx_site_with_tls_passes_nginx_t(tmp_path: Path) -> None:
    program = find_nginx()
    if program is None or shutil.which("openssl") is None:
        pytest.skip("nginx or openssl is not installed")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=scores.example.org", "-keyout", str(tmp_path / "key.pem"),
         "-out", str(tmp_path / "cert.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    site = (RECIPE / "scorekeeper.conf").read_text()
    site = re.sub(r"/etc/letsencrypt/live/[^;]+/fullchain\.pem", str(tmp_path / "cert.pem"), site)
    site = re.sub(r"/etc/letsencrypt/live/[^;]+/privkey\.pem", str(tmp_path / "key.pem"), site)
    site = logged_in(site.replace("/etc/nginx/snippets/", f"{tmp_path}/"), tmp_path)
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / LOCATIONS).write_text(logged_in((RECIPE / LOCATIONS).read_text(), tmp_path))
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"pid {tmp_path}/nginx.pid;\nevents {{}}\n"
        f"http {{ access_log off; include {tmp_path}/site.conf; }}\n"
    )
    done = subprocess.run(
        [program, "-t", "-c", str(conf), "-e", str(tmp_path / "error.log")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


UNITS = ("scorekeeper@.service", "scorekeeper-backup.service", "scorekeeper-backup.timer")


def installed_units(folder: Path) -> Path:
    """deploy/systemd's units in a folder, naming this venv's command and a sample env file."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    (folder / "scorekeeper.env").write_text((DEPLOY / ".env.sample").read_text())
    for name in UNITS:
        unit = (DEPLOY / "systemd" / name).read_text().replace("/opt/scorekeeper/bin/", f"{BIN}/")
        unit = unit.replace("/etc/scorekeeper/scorekeeper.env", str(folder / "scorekeeper.env"))
        (folder / name).write_text(unit)
    return folder


def test_the_systemd_units_pass_systemd_analyze(tmp_path: Path) -> None:
    unit = (DEPLOY / "systemd" / "scorekeeper@.service").read_text()
    assert "ExecStart=/opt/scorekeeper/bin/scorekeeper serve" in unit
    assert "Environment=SCOREKEEPER_PORT=%i" in unit
    nightly = (DEPLOY / "systemd" / "scorekeeper-backup.service").read_text()
    assert "ExecStart=/opt/scorekeeper/bin/scorekeeper backup --keep 14" in nightly
    assert "OnCalendar=" in (DEPLOY / "systemd" / "scorekeeper-backup.timer").read_text()
    folder = installed_units(tmp_path)
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", "scorekeeper@8001.service",
         "scorekeeper-backup.service", "scorekeeper-backup.timer"],
        cwd=folder, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr


@pytest.mark.parametrize("unit", ["scorekeeper@8001.service", "scorekeeper-backup.service"])
def test_the_systemd_units_expose_little(tmp_path: Path, unit: str) -> None:
    folder = installed_units(tmp_path)
    (folder / "scorekeeper@8001.service").write_text((folder / "scorekeeper@.service").read_text())
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", "--no-pager", str(folder / unit)],
        capture_output=True, text=True,
    )  # fmt: skip
    [level] = re.findall(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert float(level) < 3, done.stdout  # was 7.3: any service's defaults, a few protections


def test_the_caddyfile_balances_the_same_processes_under_the_same_prefix() -> None:
    caddy = (DEPLOY / "Caddyfile").read_text()
    nginx = (RECIPE / "scorekeeper.conf").read_text()
    upstreams = re.findall(r"server (127\.0\.0\.1:\d+)", nginx)
    assert f"reverse_proxy {' '.join(upstreams)}" in caddy
    assert "handle_path /scores/*" in caddy and "header_up X-Forwarded-Prefix /scores" in caddy
    assert "health_uri /healthz" in caddy


def test_the_sample_settings_are_plain_assignments() -> None:
    for line in (DEPLOY / ".env.sample").read_text().splitlines():
        assert not line or line.startswith("#") or re.fullmatch(r"[A-Z_]+=(\S.*)?", line), line
    assert schema.heads()  # the image migrates to these
