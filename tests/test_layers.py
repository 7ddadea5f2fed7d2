"""Imports point down the layers of ARCHITECTURE.md: a module never imports from a layer above it.

The contracts are import-linter's, in pyproject.toml ([tool.importlinter]); `lint-imports` checks
them in `make check` and here. Low to high: the rules engine (standard library only, but for the
rating's one module), infrastructure, the services (games, tables, the capability links they
share, and saved house rule sets), the two front doors (pages and api, which never import each
other), the app's own parts, and hosting, which alone builds the app. What follows them are the
checks no contract can express.
"""

from __future__ import annotations

import ast
import copy
import sys
import tomllib
from pathlib import Path

import grimp
import pytest
from importlinter import configuration
from importlinter.application import use_cases
from importlinter.application.app_config import settings

PACKAGE = Path(__file__).parent.parent / "scorekeeper"
PYPROJECT = PACKAGE.parent / "pyproject.toml"
CONTRACTS = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
# The one library the rules engine imports, each in one module: a pure one (no I/O, no app).
RULES_LIBRARIES = {"scorekeeper.rules.party_rating": {"openskill"}}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    """Every import of the package, the standard library's and other packages' too."""
    return grimp.build_graph("scorekeeper", include_external_packages=True, cache_dir=None)


class Built:
    """lint-imports' graph builder, answering a graph made here."""

    def __init__(self, graph: grimp.ImportGraph) -> None:
        self.graph = graph

    def build(self, **_options: object) -> grimp.ImportGraph:
        return self.graph


def contracts_kept(graph: grimp.ImportGraph, *added: tuple[str, str]) -> bool:
    """Whether the contracts hold for the package with these imports (importer, imported) added."""
    changed = copy.deepcopy(graph)
    for importer, imported in added:
        changed.add_import(importer=importer, imported=imported)
    configuration.configure()  # what the lint-imports command sets up, then its graph replaced
    settings.configure(GRAPH_BUILDER=Built(changed))
    try:
        return use_cases.lint_imports(str(PYPROJECT), cache_dir=None, no_logo=True)
    finally:
        configuration.configure()


def test_the_contracts_hold(graph: grimp.ImportGraph) -> None:
    assert contracts_kept(graph)


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("scorekeeper.rules.scoring", "scorekeeper.models"),
        ("scorekeeper.rules.scoring", "scorekeeper.i18n"),
        ("scorekeeper.models", "scorekeeper.games.state"),
        ("scorekeeper.games.state", "scorekeeper.pages.rendering"),
        ("scorekeeper.pages.buys", "scorekeeper.api.base"),
        ("scorekeeper.api.routes", "scorekeeper.pages.rendering"),
        ("scorekeeper.api.routes", "scorekeeper"),
        ("scorekeeper.games.state", "scorekeeper.security"),
        ("scorekeeper.security", "scorekeeper.hosting.health"),
        ("scorekeeper.hosting.cli", "scorekeeper.kept"),
        ("scorekeeper.rules.errors", "scorekeeper.rules.scoring"),  # a circle
        ("scorekeeper.api.base", "scorekeeper.api.games"),  # a floor of the API below its door
    ],
)
def test_an_import_against_a_contract_is_caught(
    graph: grimp.ImportGraph, importer: str, imported: str
) -> None:
    assert not contracts_kept(graph, (importer, imported))


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("scorekeeper.rules.scoring", "scorekeeper.rules.stock"),
        ("scorekeeper.models", "scorekeeper.rules.messages"),
        ("scorekeeper.pages.buys", "scorekeeper.games.actions"),
        ("scorekeeper", "scorekeeper.api.routes"),
        ("scorekeeper.hosting.health", "scorekeeper.version"),
    ],
)
def test_a_downward_import_passes(graph: grimp.ImportGraph, importer: str, imported: str) -> None:
    assert contracts_kept(graph, (importer, imported))


def layered(contract: str) -> set[str]:
    """The names a layers contract places, each a package or module of its container."""
    (layers,) = [c for c in CONTRACTS if c["id"] == contract]
    return {
        name.strip() for layer in layers["layers"] for name in layer.replace("|", ":").split(":")
    }


def test_every_module_is_in_a_layer() -> None:
    """A new module is placed in the layers of pyproject.toml, or no contract would check it."""
    found = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    found |= {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert found == layered("layers")
    assert {"rules", "games", "pages", "api", "hosting"} <= found
    api = {path.stem for path in (PACKAGE / "api").glob("*.py")} - {"__init__"}
    assert api == layered("api-floors")


def library_imports(graph: grimp.ImportGraph, module: str) -> set[str]:
    """The packages outside scorekeeper and the standard library a module imports."""
    imported = {name.split(".")[0] for name in graph.find_modules_directly_imported_by(module)}
    return imported - {"scorekeeper"} - sys.stdlib_module_names


def rules_engine_libraries(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    """What the rules engine imports besides the standard library, by module, where any."""
    return {
        module: found
        for module in graph.find_descendants("scorekeeper.rules")
        if (found := library_imports(graph, module))
    }


def test_the_rules_engine_imports_the_standard_library_alone(graph: grimp.ImportGraph) -> None:
    assert rules_engine_libraries(graph) == RULES_LIBRARIES


@pytest.mark.parametrize("library", ["flask", "sqlalchemy", "openskill"])
def test_a_library_in_the_rules_engine_is_caught(graph: grimp.ImportGraph, library: str) -> None:
    changed = copy.deepcopy(graph)
    changed.add_import(importer="scorekeeper.rules.scoring", imported=library)
    assert rules_engine_libraries(changed) != RULES_LIBRARIES


def test_a_migration_imports_nothing_of_the_app() -> None:
    """Outside the import graph (no package): each migration keeps what it needs as it was."""
    for path in (PACKAGE / "migrations").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert not node.level and "scorekeeper" not in (node.module or ""), path
            if isinstance(node, ast.Import):
                assert not any("scorekeeper" in alias.name for alias in node.names), path


MODULES = sorted(PACKAGE.rglob("*.py"))


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


# Who keeps game data: the one cache, kept.py; the `kept` contract names the three modules that
# call into it for their kind (a game's states, the sheet's regions, the record's scored games).
# The memoizers of what is no game data: rule text, words and numbers, files, models, names.
MEMOIZERS = {
    *(
        "games/state.py",
        "i18n.py",
        "assets.py",
        "collation.py",
        "hosting/schema.py",
        "api/reading.py",
    ),
    *("rules/ruleset_json.py", "tables/backup/write.py"),
}


def keeps_a_map(source: str) -> bool:
    """Whether a module holds a least-recently-used map of its own."""
    return "cachetools" in source or "OrderedDict" in source


def test_only_the_one_cache_keeps_game_data() -> None:
    """States, regions and scored games live in kept.py alone: nothing else keeps a map."""
    keepers = {str(path.relative_to(PACKAGE)) for path in MODULES if keeps_a_map(path.read_text())}
    assert keepers == {"kept.py"}
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
    assert keeps_a_map("from collections import OrderedDict")
    assert keeps_a_map("from cachetools import LRUCache")
    assert not keeps_a_map("from functools import lru_cache")


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
