"""A round's end posted by the form is read from its fields when each holds a value the form
takes (pages/round_end_form.read_posted), exactly as the form reads it; else the form is made
and says at the field what it does not take."""

from __future__ import annotations

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict

from scorekeeper.pages import rounds
from scorekeeper.pages.forms import round_form
from scorekeeper.pages.round_end_form import Posted, read_form, read_posted
from tests.conftest import Table
from tests.web.test_games import PLAYERS

NAMES = list(enumerate(PLAYERS))
SEATS = tuple(seat for seat, _name in NAMES)
CUTTER = 2
POSTED = {
    **{"went_out": "1", "points_0": "20", "points_2": "5", "cards_3": "K JK"},
    **{"cut_bonus_seat": "", "action_id": "a-1", "version": "3"},
}
CHANGES = [
    {},
    *({"points_0": value} for value in (" 20 ", "+7", "1_000", "10000", "", "   ", "٣")),
    *({"points_0": value} for value in ("-1", "10001", "2.5", "x", "0x10")),
    *({"cards_3": value} for value in ("", "  ", "KH 7S 7S", "K X", "1")),
    *({"went_out": value} for value in ("", "4", "stock", " 1", None)),
    *({"cut_bonus_seat": value} for value in ("2", "3", " ", None)),
    *({"action_id": value} for value in (" ", "bad id", "x" * 65, "x" * 64, None)),
    *({"version": value} for value in ("", "-1", "x", str(2**63), "0", None)),
    {"points_1": "5"},  # points for who went out: the rules refuse them, not the form
]


@pytest.mark.parametrize("allow_stock", [True, False])
@pytest.mark.parametrize("changes", CHANGES)
def test_a_post_is_read_as_the_form_reads_it(
    app: Flask, changes: dict[str, str | None], allow_stock: bool
) -> None:
    posted = {k: v for k, v in {**POSTED, **changes}.items() if v is not None}
    with app.test_request_context(method="POST", data=posted):
        form = round_form(NAMES, allow_stock, (CUTTER, "Carla", 25))
        taken = form.validate()
        read = read_posted(MultiDict(posted), SEATS, allow_stock, CUTTER)
        assert (read is not None) == taken, form.errors
        if read is not None:
            assert read == Posted(read_form(form), form.action_id.data, form.version.data)


def test_a_cut_is_read_only_where_the_round_has_a_cutter(app: Flask) -> None:
    posted = {**POSTED, "cut_bonus_seat": "2"}
    read = read_posted(MultiDict(posted), SEATS, False, None)
    assert read is not None and read.end.cut_bonus_seat is None


def test_a_well_formed_round_is_saved_without_making_the_form(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.start(PLAYERS)

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the form was made")

    with monkeypatch.context() as patched:
        patched.setattr(rounds, "round_form", refuse)
        assert table.end_round(1, "Anna", {"Ben": 25, "Carla": 40, "Dan": 55}).status_code == 303
    assert "Anna went out" in table.page("/sheet")
    # A value the form does not take: the form is made, and says so at the field.
    refused = table.end_round(2, "Anna", {"Ben": "K X", "Carla": 40, "Dan": 55})
    assert refused.status_code == 422
    assert 'id="hand-1" class="hand has-error' in refused.get_data(as_text=True)
