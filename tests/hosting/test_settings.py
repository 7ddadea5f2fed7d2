"""Every setting works from its SCOREKEEPER_* variable (one test each), and every one is in the
README's table and deploy/.env.sample."""

from __future__ import annotations

import contextlib
import io
import logging
import re
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.pool import NullPool

from scorekeeper import config, create_app
from scorekeeper.config import PREFIX, SETTINGS
from scorekeeper.extensions import db
from scorekeeper.hosting import cli, servers, upgrades
from scorekeeper.hosting.command_options import parser
from scorekeeper.models import Game
from scorekeeper.rate_counts import file_uri
from tests.databases import migrate

ROOT = Path(__file__).parent.parent.parent
PLAIN = {"TESTING": True, "WTF_CSRF_ENABLED": False}  # create_app without make_app's settings
NEW_GAME = {"ruleset": "may-i", "players-0": "Concepción", "players-1": "Guðmundur"}
App = Callable[..., Flask]


def start(app: Flask) -> str:
    """A new game's URL."""
    response = app.test_client().post("/games/", data=NEW_GAME)
    assert response.status_code == 303
    return str(response.headers["Location"])


def test_every_setting_is_in_the_readme_table_and_the_sample_file() -> None:
    readme = (ROOT / "README.md").read_text()
    sample = (ROOT / "deploy" / ".env.sample").read_text()
    for setting in SETTINGS:
        name = PREFIX + setting.name
        assert re.search(rf"^\| `{name}`", readme, re.M), f"{name} is not in README's table"
        assert re.search(rf"^#? ?{name}=", sample, re.M), f"{name} is not in .env.sample"


@pytest.mark.storage
def test_data_dir_holds_the_database_secret_key_and_backups(
    clean_environment: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clean_environment.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path / "data"))
    app = create_app()
    assert app.instance_path == str(tmp_path / "data")
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'data'}/scorekeeper.db"
    assert (tmp_path / "data" / "secret_key").read_text().strip() == app.secret_key
    assert app.config["BACKUP_DIR"] == str(tmp_path / "data" / "backups")


@pytest.mark.storage
def test_database_url_chooses_the_database(
    clean_environment: pytest.MonkeyPatch, database_url: str, tmp_path: Path
) -> None:
    clean_environment.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))
    clean_environment.setenv("SCOREKEEPER_DATABASE_URL", database_url)
    app = create_app(PLAIN)
    assert app.test_client().get("/healthz").status_code == 200  # migrated: that database
    start(app)
    with app.app_context():
        assert db.engine.dialect.name == database_url.split(":")[0]
        assert db.session.scalar(select(func.count()).select_from(Game)) == 1
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize(
    ("url", "timeout"),
    [
        ("postgresql://u@db.example/scores", 5),
        ("postgresql://u@db.example/scores?connect_timeout=30", None),  # the URL's own
        ("sqlite:////srv/scores.db", None),
    ],
)
def test_postgresql_connections_give_up_after_five_seconds(
    clean_environment: pytest.MonkeyPatch, tmp_path: Path, url: str, timeout: int | None
) -> None:
    clean_environment.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))
    clean_environment.setenv("SCOREKEEPER_DATABASE_URL", url)
    options = create_app(PLAIN).config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert options.get("connect_args", {}).get("connect_timeout") == timeout
    assert options["hide_parameters"] is True  # no failed statement's error names a token


@pytest.mark.parametrize(
    ("url", "threads", "kept"),
    [
        ("postgresql://u@db.example/scores", 12, 12),
        ("postgresql://u@db.example/scores", 0, None),  # not `serve`'s: SQLAlchemy's 5
        ("sqlite:////srv/scores.db", 12, None),  # opening one costs a file, not a backend
    ],
)
def test_a_served_process_keeps_a_postgresql_connection_for_each_thread(
    clean_environment: pytest.MonkeyPatch, tmp_path: Path, url: str, threads: int, kept: int | None
) -> None:
    clean_environment.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))
    clean_environment.setenv("SCOREKEEPER_DATABASE_URL", url)
    options = create_app(PLAIN, threads=threads).config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert options.get("pool_size") == kept


def test_an_operators_own_pool_class_is_left_unsized(
    clean_environment: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clean_environment.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))
    clean_environment.setenv("SCOREKEEPER_DATABASE_URL", "postgresql://u@db.example/scores")
    own = {"SQLALCHEMY_ENGINE_OPTIONS": {"poolclass": NullPool}}  # as behind PgBouncer
    options = create_app({**PLAIN, **own}, threads=8).config["SQLALCHEMY_ENGINE_OPTIONS"]
    assert "pool_size" not in options  # NullPool takes none: the engine would refuse to start


def test_serve_sizes_each_processs_pool_for_its_threads(
    clean_environment: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clean_environment.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))
    clean_environment.setenv("SCOREKEEPER_DATABASE_URL", "postgresql://u@db.example/scores")
    served: list[Flask] = []
    clean_environment.setattr(servers, "serve", lambda make, *_: served.append(make()))
    options = ["serve", "--no-migrate", "--threads", "12", "--workers", "2"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(options) == 0
    assert [app.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_size"] for app in served] == [12]


def test_secret_key_signs_the_session_and_stays_text(
    clean_environment: pytest.MonkeyPatch, database_url: str, tmp_path: Path
) -> None:
    clean_environment.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))
    clean_environment.setenv("SCOREKEEPER_SECRET_KEY", "1234567890")  # as JSON, a number
    app = create_app({**PLAIN, "SQLALCHEMY_DATABASE_URI": database_url})
    assert app.secret_key == "1234567890" and not (tmp_path / "secret_key").exists()
    client = app.test_client()
    assert client.post("/games/", data=NEW_GAME).status_code == 303  # the session keeps it
    cookie = client.get_cookie("session")
    signer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    assert cookie is not None and signer.loads(cookie.value)
    with app.app_context():
        db.engine.dispose()


def test_public_url_names_share_links(clean_environment: pytest.MonkeyPatch, app_from: App) -> None:
    clean_environment.setenv("SCOREKEEPER_PUBLIC_URL", "https://scores.example.org")
    app = app_from()
    page = app.test_client().get(start(app) + "/share").get_data(as_text=True)
    assert 'value="https://scores.example.org/g/' in page


def test_trusted_hosts_refuse_any_other_host(
    clean_environment: pytest.MonkeyPatch, app_from: App
) -> None:
    clean_environment.setenv("SCOREKEEPER_TRUSTED_HOSTS", "scores.example.org, other.example")
    client = app_from().test_client()
    assert client.get("/", headers={"Host": "other.example"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


@pytest.mark.parametrize(
    "host",
    ["LOCALHOST", "localhost.", "LocalHost.:8000", "Scores.Example.ORG", "scores.example.org."],
)
def test_a_host_in_capitals_or_with_the_final_dot_is_the_same_host(
    clean_environment: pytest.MonkeyPatch, app_from: App, host: str
) -> None:
    clean_environment.setenv("SCOREKEEPER_TRUSTED_HOSTS", "Scores.example.org")
    client = app_from().test_client()
    assert client.get("/", headers={"Host": host}).status_code == 200
    assert client.get("/", headers={"Host": "localhost.."}).status_code == 400


def test_proxy_hops_trust_the_proxys_forwarded_headers(
    clean_environment: pytest.MonkeyPatch, app_from: App
) -> None:
    clean_environment.setenv("SCOREKEEPER_PROXY_HOPS", "1")
    clean_environment.setenv("SCOREKEEPER_TRUSTED_HOSTS", "scores.example.org")
    app = app_from()
    url = start(app)
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example.org"}
    page = app.test_client().get(url + "/share", headers=forwarded).get_data(as_text=True)
    assert 'value="https://scores.example.org/g/' in page


@pytest.mark.parametrize(("value", "secure"), [("1", True), ("true", True), ("0", False)])
def test_https_marks_the_session_cookie_secure(
    clean_environment: pytest.MonkeyPatch, app_from: App, value: str, secure: bool
) -> None:
    clean_environment.setenv("SCOREKEEPER_HTTPS", value)
    answer = app_from().test_client().post("/games/", data=NEW_GAME)
    assert ("Secure" in answer.headers["Set-Cookie"]) is secure


def test_ratelimit_new_games(clean_environment: pytest.MonkeyPatch, app_from: App) -> None:
    clean_environment.setenv("SCOREKEEPER_RATELIMIT_NEW_GAMES", "2 per minute")
    client = app_from(RATELIMIT_ENABLED=True).test_client()
    codes = [client.post("/games/", data=NEW_GAME).status_code for _ in range(3)]
    assert codes == [303, 303, 429]


def test_ratelimit_link_misses(clean_environment: pytest.MonkeyPatch, app_from: App) -> None:
    clean_environment.setenv("SCOREKEEPER_RATELIMIT_LINK_MISSES", "2 per minute")
    client = app_from(RATELIMIT_ENABLED=True).test_client()
    assert [client.get(f"/g/1/guess{i}").status_code for i in range(3)] == [404, 404, 429]


def test_ratelimit_storage_uri_shares_counts_between_processes(
    clean_environment: pytest.MonkeyPatch, app_from: App, redis_url: str
) -> None:
    clean_environment.setenv("SCOREKEEPER_RATELIMIT_STORAGE_URI", redis_url)
    clean_environment.setenv("SCOREKEEPER_RATELIMIT_LINK_MISSES", "2 per minute")
    prefix = {"RATELIMIT_ENABLED": True, "RATELIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
    first, second = app_from(**prefix).test_client(), app_from(**prefix).test_client()
    assert [first.get(f"/g/1/guess{i}").status_code for i in range(2)] == [404, 404]
    assert second.get("/g/1/guess").status_code == 429  # the other process counted them


@pytest.mark.parametrize(("value", "lines"), [("false", 0), ("off", 0), ("1", 1)])
def test_access_log(
    clean_environment: pytest.MonkeyPatch,
    app_from: App,
    caplog: pytest.LogCaptureFixture,
    value: str,
    lines: int,
) -> None:
    clean_environment.setenv("SCOREKEEPER_ACCESS_LOG", value)
    client = app_from().test_client()
    with caplog.at_level(logging.INFO, logger="scorekeeper.access"):
        client.get("/").close()  # a server closes every answer; the line is written then
    assert len([r for r in caplog.records if r.name == "scorekeeper.access"]) == lines


@pytest.mark.storage
def test_backup_dir_receives_the_backup_before_a_migration(
    clean_environment: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clean_environment.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))  # its rate limits' counts too
    url = f"sqlite:///{tmp_path / 'old.db'}"
    migrate(url, str(tmp_path))
    settings = {**PLAIN, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "x"}
    start(create_app(settings))
    migrate(url, str(tmp_path), revision="-1")  # as a database left by the release before
    clean_environment.setenv("SCOREKEEPER_BACKUP_DIR", str(tmp_path / "kept"))
    saved = upgrades.migrate(create_app(settings))
    assert saved is not None and saved.parent == tmp_path / "kept" and saved.exists()


@pytest.mark.parametrize(
    ("name", "value", "option", "expected"),
    [
        ("HOST", "0.0.0.0", "host", "0.0.0.0"),
        ("PORT", "8123", "port", 8123),
        ("SERVER", "waitress", "server", "waitress"),
        ("WORKERS", "3", "workers", 3),
        ("THREADS", "4", "threads", 4),
    ],
)
def test_serve_options_default_to_their_variables(
    clean_environment: pytest.MonkeyPatch, name: str, value: str, option: str, expected: object
) -> None:
    clean_environment.setenv(PREFIX + name, value)
    assert getattr(parser().parse_args(["serve"]), option) == expected


@pytest.mark.parametrize(("name", "value"), [("HOST", "192.0.2.4"), ("PORT", "8124")])
def test_the_old_host_and_port_variables_still_work(
    clean_environment: pytest.MonkeyPatch, name: str, value: str
) -> None:
    clean_environment.setenv(name, value)
    assert str(getattr(parser().parse_args(["serve"]), name.lower())) == value


def test_any_flask_setting_comes_from_its_prefixed_variable(
    clean_environment: pytest.MonkeyPatch, app_from: App
) -> None:
    clean_environment.setenv("SCOREKEEPER_MAX_CONTENT_LENGTH", "100")
    client = app_from().test_client()
    assert client.post("/games/", data={"players-0": "x" * 200}).status_code == 413


def test_the_environment_overrides_instance_config(
    clean_environment: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "config.py").write_text('PUBLIC_URL = "https://from-the-file.example"\n')
    clean_environment.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))
    assert create_app().config["PUBLIC_URL"] == "https://from-the-file.example"
    clean_environment.setenv("SCOREKEEPER_PUBLIC_URL", "https://from-the-environment.example")
    assert create_app().config["PUBLIC_URL"] == "https://from-the-environment.example"


def test_an_empty_variable_counts_as_unset(
    clean_environment: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    clean_environment.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path))
    for name in ("SECRET_KEY", "PUBLIC_URL", "RATELIMIT_STORAGE_URI", "ACCESS_LOG", "TESTING"):
        clean_environment.setenv(PREFIX + name, "")
    app = create_app()
    assert app.secret_key == (tmp_path / "secret_key").read_text().strip()
    assert app.config["RATELIMIT_STORAGE_URI"] == file_uri(app.instance_path)
    assert app.config["ACCESS_LOG"]
    assert "PUBLIC_URL" not in app.config and app.config["TESTING"] is False


def help_of(*command: str) -> str:
    """What `scorekeeper <command> --help` prints."""
    with pytest.raises(SystemExit), contextlib.redirect_stdout(io.StringIO()) as out:
        parser().parse_args([*command, "--help"])
    return " ".join(out.getvalue().split())  # argparse wraps at the terminal's width


def test_help_names_each_options_variable_and_default(
    clean_environment: pytest.MonkeyPatch,
) -> None:
    said = help_of("serve")
    for name, default in [
        ("HOST", "127.0.0.1"),
        ("PORT", "8000"),
        ("SERVER", servers.default_server()),
        ("WORKERS", "one per core"),
        ("THREADS", str(servers.THREADS)),
        ("DATA_DIR", "instance/ in a checkout"),
        ("DATABASE_URL", "SQLite in the data folder"),
    ]:
        assert re.search(rf"\$SCOREKEEPER_{name}\b[^)]*default: {re.escape(default)}", said), name
    assert "$SCOREKEEPER_BACKUP_DIR; default: <data dir>/backups" in help_of("backup")
    assert "default: http://127.0.0.1:8000/healthz" in help_of("health")
    for setting in SETTINGS:
        assert PREFIX + setting.name in help_of(), setting.name


def test_help_shows_the_default_the_environment_sets(
    clean_environment: pytest.MonkeyPatch,
) -> None:
    clean_environment.setenv("SCOREKEEPER_PORT", "8123")
    clean_environment.setenv("SCOREKEEPER_THREADS", "3")
    said = help_of("serve")
    assert "$SCOREKEEPER_PORT; default: 8123" in said
    assert "$SCOREKEEPER_THREADS; default: 3" in said


@pytest.fixture
def installed(clean_environment: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    """The app as a wheel installs it, into a venv at tmp_path/venv, for a user at tmp_path."""
    clean_environment.setattr(config, "installed", lambda: True)
    clean_environment.setattr(sys, "prefix", str(tmp_path / "venv"))
    clean_environment.setenv("HOME", str(tmp_path / "home"))
    clean_environment.delenv("XDG_DATA_HOME", raising=False)
    return clean_environment


def test_an_installed_app_keeps_its_data_in_the_users_data_folder(
    installed: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "home" / ".local" / "share" / "scorekeeper"
    assert create_app().instance_path == str(folder)
    assert (folder / "secret_key").exists() and folder.stat().st_mode & 0o777 == 0o700
    assert not (tmp_path / "venv").exists()
    installed.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert config.data_dir() == str(tmp_path / "xdg" / "scorekeeper")
    installed.setenv("SCOREKEEPER_DATA_DIR", str(tmp_path / "chosen"))
    assert config.data_dir() == str(tmp_path / "chosen")


def test_an_instance_left_in_the_venv_is_still_used(
    installed: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    inside = tmp_path / "venv" / "var" / "scorekeeper-instance"
    inside.mkdir(parents=True)
    (inside / "scorekeeper.db").touch()
    assert config.data_dir() == str(inside)


def test_a_checkout_keeps_its_data_in_instance(clean_environment: pytest.MonkeyPatch) -> None:
    assert config.data_dir() is None  # Flask's instance/ beside the package, for `make run`
    assert create_app(PLAIN).instance_path == str(ROOT / "instance")
