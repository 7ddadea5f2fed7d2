"""Every user value that enters a translated message reaches a page escaped, in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.i18n import translate, translate_text
from scorekeeper.rules.messages import Message, msg
from tests.conftest import Table

SCRIPT = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
CATALOG = Path(__file__).parents[2] / "scorekeeper/translations/messages.pot"
PARAM = re.compile(r"%\((\w+)\)s")


def messages_with_values() -> list[Message]:
    """Each catalog sentence that takes values, filled with a script tag (counts with 2)."""
    with CATALOG.open("rb") as file:
        catalog = read_po(file)
    found = []
    for entry in catalog:
        single, plural = (entry.id, None) if isinstance(entry.id, str) else entry.id
        names = set(PARAM.findall(single + (plural or "")))
        if not entry.id or not names:
            continue
        params = {name: 2 if name == "count" else SCRIPT for name in names}
        count = 2 if plural else None
        found.append(Message(single, params, plural, count))
    return found


MESSAGES = messages_with_values()


@pytest.mark.parametrize("language", ["en", "de", "nl", "es"])
def test_every_message_with_values_escapes_them(app: Flask, language: str) -> None:
    assert len(MESSAGES) > 40
    headers = {"Accept-Language": language}
    with app.test_request_context(headers=headers):
        for message in MESSAGES:
            html = translate(message)
            assert "<script>" not in html, message.template
            if "count" not in message.params or len(message.params) > 1:
                assert ESCAPED in html, (message.template, html)
            assert "<script>" in translate_text(message) or len(message.params) == 1


def test_lists_and_nested_messages_are_escaped_once(app: Flask) -> None:
    with app.test_request_context():
        nested = msg("Another change came in meanwhile: %(what)s.", what=msg("%(x)s", x=SCRIPT))
        listed = msg("%(names)s", names=("<b>", "&"))
    with app.test_request_context():
        assert translate(nested) == f"Another change came in meanwhile: {ESCAPED}."
        assert translate(listed) == "&lt;b&gt; and &amp;"
        assert translate_text(listed) == "<b> and &"


def test_cards_posted_to_the_end_of_round_form_come_back_escaped(table: Table) -> None:
    table.start(["Anna", "Ben"])
    response = table.client.post(f"{table.url}/rounds/1", data={"went_out": "0", "cards_1": SCRIPT})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert SCRIPT not in page and "alert(1)" in page


def test_a_player_named_like_a_script_is_shown_as_text(client: FlaskClient, table: Table) -> None:
    table.start([SCRIPT, "Ben"])
    table.buy(SCRIPT)
    conflict = table.buy(SCRIPT, version="1")
    pages = [conflict.get_data(as_text=True), table.page(), table.page("/sheet")]
    assert conflict.status_code == 409
    for page in pages:
        assert SCRIPT not in page and ESCAPED in page
