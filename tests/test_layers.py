"""Imports point down the layers of ARCHITECTURE.md: a module never imports from a layer above it.

Low to high: the rules engine (standard library only, but for the rating's one module),
infrastructure, the services (games,
tables, the capability links they share, and saved house rule sets),
the two front doors (pages and api, which never import each other), and the app itself.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

PACKAGE = Path(__file__).parent.parent / "scorekeeper"


class Layer(NamedTuple):
    """A layer's name and height; a module may import its own layer or lower ones."""

    name: str
    height: int


# The one library the rules engine imports, each in one module: a pure one (no I/O, no app).
RULES_LIBRARIES = {"scorekeeper.rules.party_rating": {"openskill"}}
RULES, INFRASTRUCTURE, SERVICE = Layer("rules", 0), Layer("infrastructure", 1), Layer("service", 2)
PAGES, API, APP = Layer("pages", 3), Layer("api", 3), Layer("app", 4)
# The first name under scorekeeper/ (a subpackage or a module) decides a module's layer.
LAYERS = {
    "rules": RULES,
    **dict.fromkeys(
        [
            *("extensions", "config", "database", "models", "i18n", "collation", "kept"),
            *("schema", "database_copies", "instance_backup", "upgrades", "write_turns"),
            "rate_counts",
        ],
        INFRASTRUCTURE,
    ),
    "migrations": INFRASTRUCTURE,
    "link_tokens": SERVICE,
    "house_rules": SERVICE,
    "games": SERVICE,
    "tables": SERVICE,
    "pages": PAGES,
    "api": API,
    **dict.fromkeys(
        [
            *("__init__", "cli", "security", "error_pages", "assets", "rate_limits"),
            *("unchanged_poll", "access_log", "health", "lan", "servers"),
            *("command_options", "instance_move"),
        ],
        APP,
    ),
}


def layer_of(module: str) -> Layer | None:
    """The layer of a module named like `scorekeeper.games.state`; None if it has none."""
    parts = module.split(".")[1:] or ["__init__"]
    return LAYERS.get(parts[0])


def may_import(own: Layer, theirs: Layer | None) -> bool:
    """Its own layer or a lower one; pages and api stand side by side and never meet."""
    return theirs is not None and (theirs.height < own.height or theirs == own)


def module_name(path: Path) -> str:
    """`scorekeeper/games/state.py` as `scorekeeper.games.state`; a package as its name."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imported(path: Path, source: str) -> list[tuple[int, str]]:
    """Every module the source imports, anywhere in it, with its line; relative ones resolved."""
    here = module_name(path).split(".")
    package = here if is_package(path) else here[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            # `from . import config` imports the module scorekeeper.config, not the package.
            found += [(node.lineno, submodule(target, alias.name)) for alias in node.names]
    return found


def submodule(target: str, name: str) -> str:
    """`target.name` when that is a module of ours, else `target`."""
    candidate = PACKAGE.parent.joinpath(*f"{target}.{name}".split("."))
    exists = candidate.with_suffix(".py").exists() or (candidate / "__init__.py").exists()
    return f"{target}.{name}" if exists else target


def violations(path: Path, source: str) -> list[str]:
    """What in this module's imports breaks the layer order, one line each."""
    own = layer_of(module_name(path))
    if own is None:
        return [f"{path.name} belongs to no layer: place it in tests/test_layers.py"]
    found = []
    for line, target in imported(path, source):
        top = target.split(".")[0]
        if top != "scorekeeper":
            allowed = RULES_LIBRARIES.get(module_name(path), set())
            if own == RULES and top not in sys.stdlib_module_names and top not in allowed:
                found.append(f"line {line}: the rules engine imports {target}")
            continue
        theirs = layer_of(target)
        if not may_import(own, theirs):
            found.append(f"line {line}: {own.name} imports {target} ({theirs and theirs.name})")
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_is_checked() -> None:
    names = {module_name(path) for path in MODULES}
    assert {"scorekeeper.rules.scoring", "scorekeeper.games.state", "scorekeeper.api"} <= names
    assert len(MODULES) > 40


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_imports_point_down_the_layers(path: Path) -> None:
    assert violations(path, path.read_text()) == []


@pytest.mark.parametrize(
    ("where", "source"),
    [
        ("rules/scoring.py", "import flask"),
        ("rules/scoring.py", "from sqlalchemy import select"),
        ("rules/scoring.py", "from ..models import Game"),
        ("rules/scoring.py", "from .. import i18n"),
        ("models.py", "from .games.state import game_state"),
        ("games/state.py", "def f():\n    from ..pages.rendering import respond"),
        ("pages/buys.py", "from ..api.base import game_access"),
        ("api/routes.py", "from scorekeeper.pages import rendering"),
        ("api/routes.py", "from .. import create_app"),
        ("games/state.py", "from ..security import redact_links"),
        ("nowhere.py", "import os"),
    ],
)
def test_an_upward_import_is_caught(where: str, source: str) -> None:
    assert violations(PACKAGE / where, source) != []


@pytest.mark.parametrize(
    ("where", "source"),
    [
        ("rules/scoring.py", "import re\nfrom .ruleset import RuleSet\nfrom . import table"),
        ("models.py", "from .extensions import db\nfrom .rules.messages import Message"),
        ("games/state.py", "from ..models import Game\nfrom . import history"),
        ("pages/buys.py", "from ..games import actions\nfrom .game_door import GAME"),
        ("__init__.py", "from . import config\nfrom .api.routes import bp"),
    ],
)
def test_a_downward_import_passes(where: str, source: str) -> None:
    assert violations(PACKAGE / where, source) == []


# The stored facts of a game; a front door gets a game's state from games/opening.py only.
GAME_FACT_MODELS = {"Game", "Seat", "Round", "RoundResult", "Buy"}
FRONT_DOORS = ("pages", "api")


def reads_game_models(source: str) -> list[str]:
    """The game fact models a module imports from scorekeeper.models, by name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("models"):
            found += [alias.name for alias in node.names if alias.name in GAME_FACT_MODELS]
    return found


@pytest.mark.parametrize(
    "path",
    [path for path in MODULES if path.relative_to(PACKAGE).parts[0] in FRONT_DOORS],
    ids=lambda path: str(path.relative_to(PACKAGE)),
)
def test_the_front_doors_read_no_game_through_the_orm(path: Path) -> None:
    """Views open a game with games.opening (a GameState of GameFacts), never its rows, and
    never take it, or a table, from g: no endpoint list decides how either is loaded."""
    source = path.read_text()
    assert reads_game_models(source) == []
    taken = ("g.state", "g.game", "g.locked_state", "g.version", "g.table")
    assert not [word for word in taken if word in source]


# Who keeps game data: the one cache (kept.py) and the three modules that call into it for
# their kind (a game's states, the sheet's regions, the record's scored games).
KEEPERS = {"kept.py", "games/opening.py", "pages/kept_regions.py", "tables/record.py"}
# The memoizers of what is no game data: rule text, words and numbers, files, models, names.
MEMOIZERS = {
    *("games/state.py", "i18n.py", "assets.py", "collation.py", "schema.py", "api/reading.py"),
    *("rules/ruleset_json.py", "tables/backup_rows.py"),
}


def keeps_game_data(path: Path, source: str) -> bool:
    """Whether a module imports the one cache, or a least-recently-used map of its own."""
    imports = imported(path, source)
    kept = any(target == "scorekeeper.kept" for _line, target in imports)
    return kept or "cachetools" in source or "OrderedDict" in source


def test_only_the_one_cache_and_its_callers_keep_game_data() -> None:
    """States, regions and scored games live in kept.py alone; the opening, the sheet's
    regions and the record call into it, and nothing else keeps a game."""
    keepers = {
        str(path.relative_to(PACKAGE))
        for path in MODULES
        if keeps_game_data(path, path.read_text())
    }
    assert keepers == KEEPERS
    assert not (PACKAGE / "recent.py").exists()


def test_each_memoizer_keeps_no_game_data_and_says_why_with_a_bound() -> None:
    """A functools cache only where listed, each bounded, each with the line above it saying
    why it is no game data (which goes into the one cache)."""
    found = set()
    for path in MODULES:
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines):
            if "_cache(" in line or line.strip() in ("@cache", "@functools.cache"):
                if not line.lstrip().startswith("@"):
                    continue
                where = str(path.relative_to(PACKAGE))
                found.add(where)
                assert "maxsize=" in line and "maxsize=None" not in line, f"{where}: {line}"
                assert lines[number - 1].startswith("# Not game data:"), f"{where}: {line}"
    assert found <= MEMOIZERS


def test_a_map_of_a_module_of_its_own_is_caught() -> None:
    here = PACKAGE / "games" / "links.py"
    assert keeps_game_data(here, "from collections import OrderedDict")
    assert keeps_game_data(here, "from cachetools import LRUCache")
    assert keeps_game_data(here, "from ..kept import keep_state")
    assert keeps_game_data(PACKAGE / "cli.py", "from .kept import keep_state")
    assert not keeps_game_data(here, "from functools import lru_cache")


def test_the_rules_engine_derives_a_state_from_facts_alone() -> None:
    """rules/game_state.py reads GameFacts: no model, no look-alike row module exists."""
    source = (PACKAGE / "rules" / "game_state.py").read_text()
    assert "from .game_facts import GameFacts" in source
    assert not (PACKAGE / "tables" / "facts.py").exists()


def test_a_front_door_reading_game_rows_is_caught() -> None:
    assert reads_game_models("from ..models import Game, CardTable") == ["Game"]
    assert reads_game_models("from ..models import CardTable, HouseRules") == []


def moves_a_version(source: str) -> list[int]:
    """The lines that move a game's version: an UPDATE of `Game` setting `version`, or an
    assignment to a `.version` attribute."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            sets_version = node.func.attr == "values" and any(
                keyword.arg == "version" for keyword in node.keywords
            )
            if sets_version and "update(Game)" in ast.unparse(node.func.value):
                found.append(node.lineno)
        targets = [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
        targets += node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Attribute) and t.attr == "version" for t in targets):
            found.append(node.lineno)
    return found


def test_only_the_one_change_path_moves_a_games_version() -> None:
    """games/history.py (`write`, and `add` for a new game) alone moves a version: every
    change any phone can see goes through it, with its history entry (issue 32)."""
    moving = {
        str(path.relative_to(PACKAGE)): lines
        for path in MODULES
        if (lines := moves_a_version(path.read_text()))
    }
    assert set(moving) == {"games/history.py"}, moving


def test_a_version_moved_elsewhere_is_caught() -> None:
    bump = "db.session.execute(update(Game).where(Game.id == 1).values(version=Game.version + 1))"
    assert moves_a_version(bump) == [1]
    assert moves_a_version("game.version += 1") == [1]
    assert moves_a_version("db.session.execute(update(Round).values(run_outs=2))") == []


# The API's floors, lowest first: each module imports only those below it, so none imports one
# above it and no two import each other (ARCHITECTURE.md, "The JSON API").
API_FLOORS = (
    *("base", "fields", "reading", "answers", "openapi"),
    *("rulesets", "games", "rounds", "seats", "tables", "table_people", "table_files"),
    "routes",
)


def test_the_api_modules_import_only_the_floors_below_them() -> None:
    modules = {path.stem for path in (PACKAGE / "api").glob("*.py")} - {"__init__"}
    assert modules == set(API_FLOORS)
    upward = []
    for floor, name in enumerate(API_FLOORS):
        path = PACKAGE / "api" / f"{name}.py"
        for line, target in imported(path, path.read_text(encoding="utf-8")):
            parts = target.split(".")
            if (
                parts[:2] == ["scorekeeper", "api"]
                and len(parts) > 2
                and API_FLOORS.index(parts[2]) >= floor
            ):
                upward.append(f"api/{name}.py:{line} imports {target}")
    assert upward == []
