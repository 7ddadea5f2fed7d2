"""Steps the trust and tap tests share: the end-of-round form, and a phone that loses requests."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.conftest import Phone
from tests.browser.test_full_game import start_game


def open_round_form(page: Page) -> None:
    """From the round screen to the end-of-round form."""
    page.get_by_role("link", name="End of round: enter the hands").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"End of round \d"))


def went_out(page: Page, name: str) -> None:
    """Choose who went out."""
    page.get_by_role("group", name="Who went out?").get_by_label(name, exact=True).check()


def expect_first_round(page: Page, scores: list[str]) -> None:
    """Open the score sheet and check the first round's row, seat by seat."""
    page.get_by_role("link", name="Score sheet").click()
    expect(page.locator("tbody tr").first.locator(".score")).to_have_text(scores)


def lossy_game(open_phone: Callable[..., Phone], round_form: bool = False) -> Phone:
    """A new phone at a new game whose cut-off requests pass, as the test cuts some; with
    `round_form`, on the end-of-round form with Anna out."""
    phone = open_phone()
    phone.allow_lost_requests()
    start_game(phone.page)
    if round_form:
        open_round_form(phone.page)
        went_out(phone.page, "Anna")
    return phone
