"""What every test app would build alike, built once per test process.

The suite makes an app for nearly every test (tests/databases.make_app), and a server process
makes one for its life. Profiling `tests/web/test_games.py` showed two thirds of its CPU in
work each new app repeats: compiling each page's templates again (Jinja keeps compiled code
per environment) and compiling each URL rule's builder again (Werkzeug makes Python code per
rule and app). Both outputs depend only on their sources, so one compile per process serves
every app of the run; a template whose source changed compiles afresh (its checksum).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.routing import Rule


class SharedTemplateCode(BytecodeCache):
    """Compiled templates in memory, shared by every app of this test process."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Hand a template's compiled code over, if compiled before (Jinja checks its source)."""
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep a template's compiled code for the next app."""
        self.code[bucket.key] = bucket.bytecode_to_string()


TEMPLATE_CODE = SharedTemplateCode()
_compile_builder = Rule._compile_builder
_builders: dict[tuple[Any, ...], Callable[..., tuple[str, str]]] = {}


def _shared_builder(rule: Rule, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
    """Werkzeug's URL builder for a rule, compiled once per rule text: the function takes the
    rule as its first argument and reads its converters from it, so any app's rule of the same
    text, parts and defaults can use it."""
    defaults = tuple(sorted((name, repr(value)) for name, value in (rule.defaults or {}).items()))
    key = (rule.rule, tuple(rule._trace), defaults, append_unknown)
    if key not in _builders:
        _builders[key] = _compile_builder(rule, append_unknown)
    return _builders[key]


Rule._compile_builder = _shared_builder  # type: ignore[method-assign]
