"""Fill the English catalog from the source strings, so English is a complete catalog too.

Run by `make extract` after `pybabel update`: every message's English text is its id.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

CATALOG = Path("scorekeeper/translations/en/LC_MESSAGES/messages.po")


def main() -> int:
    """Copy each msgid (and plural) into its translation in the English catalog."""
    with CATALOG.open("rb") as source:
        catalog = read_po(source, locale="en")
    for message in catalog:
        if not message.id:
            continue
        message.string = message.id
        message.flags.discard("fuzzy")
    with CATALOG.open("wb") as target:
        write_po(target, catalog, omit_header=False, sort_output=True, width=100)
    return 0


if __name__ == "__main__":
    sys.exit(main())
