"""A rule set's printed sheet from a packed link (`/rules/sheet?r=`), with no link needed: what
follows a valid packing never reaches the QR code, and no link too long for one answers 500."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.pages.ruleset_form import encode
from scorekeeper.pages.template_helpers import qr_svg
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.ruleset_json import ruleset_to_dict

PACKED = encode(ruleset_to_dict(MAY_I))
STRAY = {
    "letters": "A" * 1700,
    "the link again": PACKED * 3,
    "padding and noise": "==" + "x-_" * 700,
    "escaped bytes": "%00%FF" * 400,
}


@pytest.mark.parametrize("stray", STRAY)
def test_stray_text_after_a_packed_rule_set_never_reaches_the_qr_code(
    client: FlaskClient, stray: str
) -> None:
    response = client.get("/rules/sheet", query_string={"r": PACKED + STRAY[stray]})
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    qr = page[page.index('<figure class="sheet-qr">') : page.index("</figure>")]
    assert f"r={PACKED}<" in qr  # the QR code's link (its title), packed again from what was read


def test_a_link_too_long_for_a_qr_code_is_said_not_drawn(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "de"}):
        drawn = qr_svg("https://example.org/?r=" + "x" * 5000)
    assert "<svg" not in drawn and "QR-Code" in drawn
