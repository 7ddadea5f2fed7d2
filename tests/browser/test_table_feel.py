"""At a real table, at real speed (issue 35.5, 35.7, 35.10): typing fast into the house-rule editor
and taking back a mis-tapped card, on a 390×844 phone and at 320 px with 200 % text, every answer
600 ms late; the tiebreak's reason at the top of the screen and five seats' links on about two
screens, on a 390×844 phone."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.conftest import Phone
from tests.browser.helpers import open_round_form, went_out
from tests.browser.test_full_game import hand, rank_button, start_game
from tests.browser.test_seats import seat_url
from tests.browser.test_taps import slow_server_phone

pytestmark = pytest.mark.browser

SIZES = {
    "390x844": ({"width": 390, "height": 844}, ""),
    "320x640-200%": ({"width": 320, "height": 640}, "200%"),
}
# Text scaled as the phone's settings scale it: set on every page the phone opens.
TEXT_SIZE = """
document.addEventListener("DOMContentLoaded", () => {
  document.documentElement.style.fontSize = %r;
});
"""


@pytest.fixture(params=list(SIZES))
def slow_phone(
    request: pytest.FixtureRequest, browser: Browser, database_url: str, tmp_path: Path
) -> Iterator[Phone]:
    """A phone of each size on a server whose every POST answer arrives 600 ms late."""
    viewport, text_size = SIZES[request.param]
    with slow_server_phone(browser, database_url, tmp_path) as phone:
        phone.page.set_viewport_size(viewport)
        if text_size:
            phone.page.add_init_script(TEXT_SIZE % text_size)
        yield phone


def picked(pad: Locator) -> list[str]:
    """The cards a hand shows as picked, one per copy, in their order."""
    return [text.strip() for text in pad.locator("[data-picked] button").all_inner_texts()]


def take_back_a_mis_tapped_card(page: Page, pad: Locator, seat: int) -> None:
    """K, Q, K tapped (one K too many): the picked K tapped goes, once; the sum follows. Then
    offline, the Q taken back: the sum waits for the network and follows once it is back."""
    pad.get_by_text("Tap the cards", exact=True).click()
    for code in ("K", "Q", "K"):
        rank_button(pad, code).click()
    tally = pad.get_by_test_id(f"tally-{seat}")
    expect(tally).to_have_text("30")
    assert picked(pad) == ["K", "K", "Q"]
    pad.get_by_role("button", name="Take back one K").first.click()
    expect(rank_button(pad, "K", "1")).to_be_visible()
    expect(tally).to_have_text("20")
    assert picked(pad) == ["K", "Q"]
    expect(pad.locator("details.card-taps")).to_have_attribute("open", "")

    page.context.set_offline(True)
    pad.get_by_role("button", name="Take back one Q").click()
    expect(rank_button(pad, "Q")).to_have_accessible_name("Q")  # no longer tapped
    assert picked(pad) == ["K"]
    expect(pad.get_by_text("their sum is shown when the phone is back online")).to_be_visible()
    page.context.set_offline(False)
    page.wait_for_function("navigator.onLine")
    expect(tally).to_have_text("10")
    expect(pad.locator("details.card-taps")).to_have_attribute("open", "")


def test_a_mis_tapped_card_is_taken_back_on_the_round_form(slow_phone: Phone) -> None:
    slow_phone.allow_lost_requests()
    page = slow_phone.page
    start_game(page)
    open_round_form(page)
    went_out(page, "Anna")
    take_back_a_mis_tapped_card(page, hand(page, "Carla"), 2)
    for name in ("Ben", "Dan"):
        hand(page, name).get_by_label("Points").fill("5")
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 2 of 7")
    page.get_by_role("link", name="Score sheet").click()
    expect(page.locator("tbody tr").first.locator(".score")).to_have_text(["0", "5", "10", "5"])


def test_a_mis_tapped_card_is_taken_back_on_the_seats_pad(slow_phone: Phone) -> None:
    slow_phone.allow_lost_requests()
    page = slow_phone.page
    start_game(page)
    page.goto(f"{page.url}/share")
    page.goto(seat_url(page, 1))
    pad = page.get_by_test_id("own-hand")
    take_back_a_mis_tapped_card(page, pad, 1)
    pad.get_by_test_id("send-hand").click()
    expect(page.get_by_test_id("hand-status")).to_contain_text(
        "Your hand is with the scorekeeper: 10 points."
    )


def type_fast(page: Page, field: Locator, text: str) -> None:
    """Tap a field and type at once, as a thumb does: nothing waits for an answer."""
    field.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(text, delay=40)


def test_what_is_typed_fast_into_the_editor_is_exactly_what_is_saved(slow_phone: Phone) -> None:
    page = slow_phone.page
    page.goto("/house-rules/new?from=may-i")
    editor = page.locator("#editor")
    name = editor.get_by_label("Name of these house rules", exact=True)
    dealt = [page.locator(f"#round-{n}").get_by_label("Cards dealt") for n in (1, 7)]
    per_game = editor.get_by_label("Buys per player per game", exact=True)
    type_fast(page, name, "Friday rules")
    type_fast(page, dealt[0], "13")
    type_fast(page, per_game, "5")
    type_fast(page, dealt[1], "2")  # too few for round 7's three runs
    # Every answer is in after two of them (1.2 s): every field keeps what was typed, and the
    # check after the pause has put in its message.
    page.wait_for_timeout(1_500)
    typed = {"Friday rules": name, "13": dealt[0], "5": per_game, "2": dealt[1]}
    assert {text: field.input_value() for text, field in typed.items()} == {t: t for t in typed}
    expect(page.locator("#round-7").get_by_role("alert")).to_contain_text("cannot make a contract")
    expect(dealt[1]).to_be_focused()
    expect(dealt[1]).to_have_attribute("aria-invalid", "true")
    type_fast(page, dealt[1], "11")
    expect(page.locator("#round-7").get_by_role("alert")).to_have_count(0)
    expect(dealt[1]).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#house-card")).to_contain_text("Friday rules")
    # A round added: typing while its redraw is on its way is kept in the new editor.
    editor.get_by_role("button", name="Add a round").click()
    type_fast(page, dealt[0], "12")
    expect(page.locator("#round-8")).to_be_visible()
    expect(dealt[0]).to_have_value("12")
    page.get_by_role("button", name="Save these house rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("House rules")
    page.get_by_role("link", name="Edit").first.click()
    expect(name).to_have_value("Friday rules")
    expect(dealt[0]).to_have_value("12")
    expect(dealt[1]).to_have_value("11")
    expect(per_game).to_have_value("5")
    expect(page.locator("#round-8")).to_be_visible()


LONG_NAMES = ["Bartholomeus", "Concepción", "Marie-Claire", "Oma", "Jo"]
# Bartholomeus and Concepción tie on 45, out twice each: a tiebreaker round, Concepción out.
TIED_TO_THE_END: list[tuple[int, dict[int, int]]] = [
    (0, {1: 20, 2: 30, 3: 40, 4: 50}),
    (1, {0: 10, 2: 30, 3: 40, 4: 50}),
    (0, {1: 5, 2: 30, 3: 40, 4: 50}),
    (1, {0: 15, 2: 30, 3: 40, 4: 50}),
    (2, {0: 10, 1: 10, 3: 40, 4: 50}),
    (3, {0: 5, 1: 5, 2: 30, 4: 50}),
    (4, {0: 5, 1: 5, 2: 30, 3: 40}),
    (1, {0: 25}),
]


def tied_game(page: Page) -> tuple[str, Callable[[int], None]]:
    """A five-player game with long names, its edit link's round screen, and how to save its
    round n through the API."""
    body = {"ruleset": "may-i", "players": LONG_NAMES, "first_dealer": 0}
    game = page.request.post("/api/v1/games", data=body).json()
    bearer = {"Authorization": f"Bearer {game['links']['edit_token']}"}

    def save(number: int) -> None:
        out, hands = TIED_TO_THE_END[number - 1]
        result = {"went_out": out, "hands": {str(s): {"points": p} for s, p in hands.items()}}
        url = f"/api/v1/games/{game['id']}/rounds/{number}"
        answer = page.request.put(url, data=result, headers=bearer)
        assert answer.ok, answer.text()

    return f"/g/{game['id']}/{game['links']['edit_token']}", save


def test_the_tiebreaks_reason_shows_at_the_top_of_its_round_and_the_finished_game(
    page: Page, artifacts: Path
) -> None:
    url, save = tied_game(page)
    for number in range(1, 8):
        save(number)
    page.goto(url)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Tiebreaker round")
    reason = page.locator("#round-header").get_by_test_id("tiebreak-reason")
    expect(reason).to_have_text(
        [
            "Bartholomeus and Concepción tied on 45.",
            "Bartholomeus went out in 2 rounds.",
            "Concepción went out in 2 rounds.",
            "Still tied: Bartholomeus and Concepción play a tiebreaker round.",
            "Contract: 2 runs.",
            "Deal 10 cards each.",
        ]
    )
    for sentence in reason.all():
        expect(sentence).to_be_in_viewport(ratio=1)
    save(8)
    page.goto(url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Concepción wins!")
    reason = page.locator("#standings .explanation")
    expect(reason).to_have_text(
        [
            "Bartholomeus and Concepción tied on 45.",
            "Bartholomeus went out in 2 rounds.",
            "Concepción went out in 2 rounds.",
            "Concepción went out in the tiebreaker round and wins.",
        ]
    )
    page.screenshot(path=str(artifacts / "tiebreak-390x844.png"))
    for sentence in reason.all():
        expect(sentence).to_be_in_viewport(ratio=1)


def test_the_share_page_for_five_players_fits_about_two_screens(page: Page) -> None:
    url, _save = tied_game(page)
    page.goto(f"{url}/share")
    expect(page.locator("#seat-links details.share-link")).to_have_count(5)
    expect(page.locator("#edit-link .qr svg")).to_be_hidden()  # not for anyone across the table
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2 * 844, f"the share page is {height / 844:.1f} screens tall"
    concepcion = page.locator("#seat-1-link")
    expect(concepcion.locator(".qr svg")).to_be_hidden()
    concepcion.get_by_text("Concepción", exact=True).click()  # a tap unfolds it, no script
    expect(concepcion.locator(".qr svg")).to_be_visible()
    expect(concepcion.get_by_role("button", name="Copy link")).to_be_visible()
    expect(page.locator("#seat-0-link .qr svg")).to_be_hidden()
