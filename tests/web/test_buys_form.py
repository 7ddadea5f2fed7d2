"""The buys region as one form: its buttons post as a browser would, and each tap records once."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict
from werkzeug.test import TestResponse

from scorekeeper.models import Buy
from tests.conftest import Table, game_links
from tests.web.test_games import HX, PLAYERS, count, text

pytestmark = pytest.mark.storage


@dataclass
class BuysForm:
    """The buys region's forms as a browser sees them: their hidden fields and their buttons."""

    forms: list[dict[str, str]] = field(default_factory=list)  # action, hx-post
    hidden: list[tuple[str, str]] = field(default_factory=list)
    buttons: list[dict[str, str]] = field(default_factory=list)

    def button(self, testid_or_label: str, seat: int) -> dict[str, str]:
        """The button of a seat by its data-testid prefix or its text."""
        return next(
            b
            for b in self.buttons
            if b["value"] == str(seat)
            and testid_or_label in (b.get("data-testid", "").split("-")[0], b["text"])
        )


class _Reader(HTMLParser):
    """Reads the forms, hidden fields and buttons inside <section id="buys">."""

    def __init__(self) -> None:
        super().__init__()
        self.found, self.inside, self.depth, self.pressing = BuysForm(), False, 0, None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = {name: value or "" for name, value in attrs}
        if tag == "section":
            self.inside = self.inside or given.get("id") == "buys"
            self.depth += self.inside
        if not self.inside:
            return
        if tag == "form":
            self.found.forms.append(given)
        elif tag == "input" and given.get("type") == "hidden":
            self.found.hidden.append((given["name"], given["value"]))
        elif tag == "button":
            self.pressing = {**given, "text": ""}
            self.found.buttons.append(self.pressing)

    def handle_endtag(self, tag: str) -> None:
        if tag == "button":
            self.pressing = None
        if tag == "section" and self.inside:
            self.depth -= 1
            self.inside = self.depth > 0

    def handle_data(self, data: str) -> None:
        if self.pressing is not None:
            self.pressing["text"] += data.strip()


def buys_form(page: str) -> BuysForm:
    reader = _Reader()
    reader.feed(page)
    return reader.found


def press(table: Table, form: BuysForm, button: dict[str, str], htmx: bool = False) -> TestResponse:
    """Submit the form with one button, as a browser does: its formaction, else the form's."""
    target = button.get("formaction") or form.forms[0]["action"]
    data = MultiDict([*form.hidden, (button["name"], button["value"])])
    return table.client.post(target, data=data, headers=HX if htmx else {})


def test_the_buys_region_is_one_form_with_one_token_of_each_kind(table: Table) -> None:
    table.start(PLAYERS)
    table.buy("Ben")
    form = buys_form(table.page())
    assert len(form.forms) == 1
    assert form.forms[0]["action"] == f"{table.url}/buys"
    # With htmx each button posts on its own: taps on different players never drop each other.
    assert "hx-post" not in form.forms[0]
    assert sorted(name for name, _ in form.hidden) == ["action_id", "csrf_token", "version"]
    # A Buy and a Down per player, and a take-back for Ben, who has bought.
    assert len(form.buttons) == 2 * len(PLAYERS) + 1
    take_back = form.button("−", 1)
    assert take_back["formaction"] == f"{table.url}/buys/remove"
    assert take_back["aria-label"] == "Take back a buy of Ben"
    # a toggle's name says what it marks, not whether it is marked: aria-pressed says that
    assert form.button("down", 2)["aria-label"] == "Carla: contract down"
    assert form.button("down", 2)["aria-pressed"] == "false"
    assert form.button("Buy", 2)["aria-label"] == "Buy: Carla"
    assert all(b["name"] == "seat" and "type" not in b for b in form.buttons)
    for button in form.buttons:
        assert button["hx-post"] == button.get("formaction", f"{table.url}/buys")
        assert (button["hx-target"], button["hx-swap"]) == ("#buys", "outerHTML")
        assert button["hx-sync"] == "this:drop"  # a double tap: it would record once anyway


def test_the_view_link_shows_no_form_and_no_button(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    _, view = game_links(app)
    form = buys_form(app.test_client().get(f"/g/1/{view}").get_data(as_text=True))
    assert form.forms == [] and form.hidden == [] and form.buttons == []


def test_each_button_posts_without_javascript_and_comes_back_to_the_round(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    for label, seat in (("Buy", 1), ("−", 1), ("Buy", 2), ("down", 3)):
        form = buys_form(table.page())
        response = press(table, form, form.button(label, seat))
        assert response.status_code == 303, text(response.get_data(as_text=True))
        assert response.headers["Location"] == table.url
    assert count(app, Buy) == 1
    page = table.page()
    assert "Down: Dan." in text(page)
    form = buys_form(page)
    undown = form.button("down", 3)
    assert undown["aria-pressed"] == "true" and undown["formaction"].endswith("?down=0")
    assert press(table, form, undown).status_code == 303
    assert "Down: Dan." not in text(table.page())


def test_the_same_tap_retried_after_a_lost_answer_records_once(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    form = buys_form(table.page())  # the page the phone still shows: its answer was lost
    for button in (form.button("Buy", 1), form.button("Buy", 1)):
        assert press(table, form, button, htmx=True).status_code == 200
    assert count(app, Buy) == 1
    for _ in range(2):
        assert press(table, form, form.button("down", 2), htmx=True).status_code == 200
    assert "Down: Carla." in text(table.page())


def test_another_tap_with_the_same_action_id_after_a_lost_answer_records(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    table.buy("Ben")
    form = buys_form(table.page())  # one action id for every button of the page
    assert press(table, form, form.button("Buy", 2), htmx=True).status_code == 200
    # Each answer is lost: the page still holds the same action id and version.
    for label, seat in (("Buy", 3), ("−", 1), ("down", 0)):
        response = press(table, form, form.button(label, seat), htmx=True)
        assert response.status_code == 200, text(response.get_data(as_text=True))
    assert count(app, Buy) == 2  # Ben's taken back; Carla's and Dan's recorded
    assert "Down: Anna." in text(table.page())
    assert press(table, form, form.button("Buy", 2), htmx=True).status_code == 200  # a retry
    assert count(app, Buy) == 2


def test_a_stale_version_is_refused_at_the_players_row(app: Flask, table: Table) -> None:
    table.start(PLAYERS)
    form = buys_form(table.page())
    table.buy("Ben")  # another phone
    refused = press(table, form, form.button("Buy", 1), htmx=True)
    assert refused.status_code == 409
    body = refused.get_data(as_text=True)
    assert "Meanwhile Ben" in text(body.split('id="buy-row-1"')[1].split("</li>")[0])
    assert "data-refusal" not in body.split('id="buy-row-1"')[0]
    assert count(app, Buy) == 1


def test_a_longest_action_id_still_fits_and_still_matches_its_retry(
    app: Flask, table: Table
) -> None:
    table.start(PLAYERS)
    for _ in range(2):
        assert table.buy("Ben", action_id="x" * 64).status_code == 303
    assert table.buy("Carla", action_id="x" * 64).status_code == 303
    assert count(app, Buy) == 2
