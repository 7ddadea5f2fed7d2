"""At home on every phone: every page state at 390×844 and 320×640, in light and dark, at 200 %
text; the app installs and shows its last state offline; the table display on a tablet."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Phone
from tests.browser.test_full_game import PLAYERS, buy, start_game

pytestmark = pytest.mark.browser

VIEWPORTS = [{"width": 390, "height": 844}, {"width": 320, "height": 640}]
TABLET = {"width": 1180, "height": 820}
SMALLEST_TARGET = 44  # px, WCAG 2.5.5 and the platforms' own guidelines
CONTROLS = (
    "button:visible, a.button:visible, select:visible, summary:visible, .brand, "
    "input:not([type=hidden]):not([type=checkbox]):not([type=radio]):visible, "
    ".rule-set-list a, .game-list a, .edit-link:visible, label.chip:visible"
)
AXE = Axe()


def _api(page: Page, method: str, path: str, token: str, body: dict[str, object]) -> None:
    """Call the JSON API with the game's edit link, as a script at the table would."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    answer = page.request.fetch(path, method=method, headers=headers, data=body)
    assert answer.ok, answer.text()


def _page_states(page: Page) -> Iterator[tuple[str, str]]:
    """Play to each state a phone meets and name its URL: home, forms, round, sheet, the end."""
    yield "home-empty", "/"
    yield "new-game", "/games/new"
    start_game(page)
    buy(page, "Ben", "2 buys left (1/3)")
    game_url = page.url
    game_id, token = re.findall(r"/g/(\d+)/([^/?]+)", game_url)[0]
    yield "round-screen", game_url
    yield "end-of-round-form", f"{game_url}/rounds/1"
    yield "rules-card", f"{game_url}/rules"
    yield "share", f"{game_url}/share"
    yield "display", f"{game_url}/display"
    hands = {"1": {"points": 25}, "2": {"points": 40}, "3": {"points": 55}}
    _api(page, "PUT", f"/api/v1/games/{game_id}/rounds/1", token, {"went_out": 0, "hands": hands})
    yield "sheet", f"{game_url}/sheet"
    yield "home-with-games", "/"
    for number in range(2, 8):
        body = {
            "went_out": number % 4,
            "hands": {str(s): {"points": 10 * (s + 1)} for s in range(4) if s != number % 4},
        }
        _api(page, "PUT", f"/api/v1/games/{game_id}/rounds/{number}", token, body)
    yield "finished-game", game_url
    yield "not-found", "/g/999999/nothing"


WIDER_THAN_SCREEN = """() => [...document.querySelectorAll("body *")]
  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
  .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
  .slice(0, 8)"""


def _no_sideways_scroll(page: Page, name: str) -> None:
    """At 200 % text the page is no wider than the screen."""
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    width = page.evaluate("document.documentElement.scrollWidth")
    screen = page.evaluate("window.innerWidth")
    wider = page.evaluate(WIDER_THAN_SCREEN)
    page.evaluate("document.documentElement.style.fontSize = ''")
    assert width <= screen, f"{name}: {width} px wide on a {screen} px screen at 200 %: {wider}"


def _targets_are_big_enough(page: Page) -> None:
    """Every control a finger taps is at least 44 × 44 px."""
    small = []
    for control in page.locator(CONTROLS).all():
        box = control.bounding_box()
        if (
            box
            and box["width"]
            and (box["width"] < SMALLEST_TARGET - 0.5 or box["height"] < SMALLEST_TARGET - 0.5)
        ):
            small.append(f"{control.evaluate('e => e.outerHTML.slice(0, 90)')} {box}")
    assert not small, "controls under 44 px:\n" + "\n".join(small)


def _axe_clean(page: Page, scheme: str) -> None:
    """axe-core finds no violation in this colour scheme."""
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    results = AXE.run(page)
    found = [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
    ]
    assert not found, f"axe in {scheme}:\n" + "\n".join(found)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_every_page_state_fits_the_phone_in_light_and_dark(
    browser: Browser, live_server: str, artifacts: Path, viewport: dict[str, int]
) -> None:
    phone = Phone(browser, live_server)
    phone.page.set_viewport_size(viewport)
    phone.allow(404)
    checked = []
    for name, url in _page_states(phone.page):
        phone.page.goto(url)
        _no_sideways_scroll(phone.page, name)
        _targets_are_big_enough(phone.page)
        for scheme in ("light", "dark"):
            _axe_clean(phone.page, scheme)
            phone.page.screenshot(
                path=str(artifacts / f"phone-{viewport['width']}-{name}-{scheme}.png"),
                full_page=True,
            )
        checked.append(name)
    assert len(checked) == 11
    assert not phone.close()


def test_the_theme_switch_overrides_the_phone(page: Page) -> None:
    page.emulate_media(color_scheme="light")
    page.goto("/")
    background = "getComputedStyle(document.documentElement).backgroundColor"
    light = page.evaluate(background)
    page.get_by_role("button", name="Dark").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert page.evaluate(background) != light
    page.get_by_role("button", name="As the phone").click()
    expect(page.locator("html")).not_to_have_attribute("data-theme", "dark")
    assert page.evaluate(background) == light


def test_the_app_installs_and_shows_the_last_state_offline(page: Page) -> None:
    page.goto("/")
    manifest = page.request.get(page.locator("link[rel=manifest]").get_attribute("href") or "")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["display"] == "standalone" and data["start_url"] == "/"
    purposes = {icon["purpose"] for icon in data["icons"]}
    assert purposes == {"any", "maskable"}
    for icon in data["icons"]:
        answer = page.request.get(icon["src"])
        assert answer.ok and answer.headers["content-type"] == "image/png", icon
        assert answer.body()[:8] == b"\x89PNG\r\n\x1a\n"
    start_game(page)
    buy(page, "Carla", "2 buys left (1/3)")
    game_url = page.url
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=10_000)
    page.reload()  # now through the service worker, which keeps this state
    expect(page.locator("#buys")).to_contain_text("2 buys left (1/3)")
    page.context.set_offline(True)
    page.reload()
    banner = page.locator("#offline-banner")
    expect(banner).to_be_visible()
    expect(banner).to_have_text(re.compile(r"^Offline — showing the state at \d{1,2}:\d{2}"))
    expect(page.locator("#buys")).to_contain_text("2 buys left (1/3)")
    assert page.url == game_url
    page.context.set_offline(False)


def test_the_table_display_follows_the_game_live_and_keeps_the_screen_awake(
    browser: Browser, live_server: str, open_phone: Callable[..., Phone], artifacts: Path
) -> None:
    scorer = open_phone()
    start_game(scorer.page)
    tablet = Phone(browser, live_server)
    tablet.page.set_viewport_size(TABLET)
    # Record the wake lock request: headless Chromium may refuse the lock itself.
    tablet.context.add_init_script(
        "window.__wakeLocks = 0; if (navigator.wakeLock) {"
        " const real = navigator.wakeLock.request.bind(navigator.wakeLock);"
        " navigator.wakeLock.request = (kind) => {"
        " window.__wakeLocks += 1; return real(kind).catch(() => null); }; }"
    )
    tablet.page.goto(scorer.page.url + "/display")
    display = tablet.page.locator("#display")
    expect(display.get_by_role("heading", level=1)).to_contain_text("Round 1 of 7")
    expect(display).to_have_attribute(
        "data-announce", re.compile(r"^Round 1: 2 books\. Anna deals, Ben plays first\.$")
    )
    assert tablet.page.evaluate("window.__wakeLocks") >= 1
    font = tablet.page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('#display h1')).fontSize)"
    )
    assert font >= 36, "the contract is read from across the table"
    buy(scorer.page, "Dan", "2 buys left (1/3)")
    expect(display.locator("li", has_text="Dan")).to_contain_text("2 buys left")
    tablet.page.screenshot(path=str(artifacts / "table-display-1180.png"))
    assert PLAYERS[0] in display.inner_text()
    assert not tablet.close()
