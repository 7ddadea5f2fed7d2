"""The wheel's build step: templates/ and static/ go into the package, the catalogs compiled.

In the repository they sit beside the package (flaskr's layout, and where every tool looks);
an installed app finds them inside it (scorekeeper.bundled). The compiled `.mo` catalogs are
never committed: `make` builds them for a checkout, this step for a wheel.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).parent
FOLDERS = ("templates", "static")


def compile_catalogs(translations: Path) -> None:
    """Write messages.mo beside every messages.po, as `pybabel compile` does."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(translations.glob("*/LC_MESSAGES/messages.po")):
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name)
        with po.with_suffix(".mo").open("wb") as target:
            write_mo(target, catalog)


class BuildWithAssets(build_py):
    """build_py, then the folders the app serves and its compiled catalogs."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install serves the checkout's own folders
            return
        package = Path(self.build_lib) / "scorekeeper"
        for folder in FOLDERS:
            shutil.copytree(ROOT / folder, package / folder, dirs_exist_ok=True)
        compile_catalogs(package / "translations")


setup(cmdclass={"build_py": BuildWithAssets})
