"""Browser fixtures: the app on a live server, Debian's Chromium, a phone-sized page."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect, sync_playwright

from tests.conftest import serving
from tests.databases import close, make_app

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
# Generous waits: CI shares two cores with the app server and Chromium; a wait only ends early.
WAIT_MS = 15_000
expect.set_options(timeout=WAIT_MS)
ARTIFACTS = Path(__file__).parent.parent / "artifacts"
# Chromium reports a CSP refusal as a console message only sometimes; the event always fires.
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
});
"""

EXPECTED_REFUSAL = re.compile(r"Failed to load resource: .* status of 422\b")
ANSWER_DELAY = 0.6  # seconds every answer of a slow server waits, as on a slow phone network


def slowed(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """The app, with every answer but a static file's sent ANSWER_DELAY after it was made."""

    def slow(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        answer = app(environ, start_response)
        if not environ["PATH_INFO"].startswith("/static/"):
            time.sleep(ANSWER_DELAY)
        return answer

    return slow


def served(database_url: str, tmp_path: Path, slow: bool) -> Iterator[str]:
    """The app with CSRF on, on an empty migrated database, served on a free local port."""
    app = make_app(database_url, str(tmp_path), WTF_CSRF_ENABLED=True)
    if slow:
        app.wsgi_app = slowed(app.wsgi_app)  # type: ignore[method-assign]
    with serving(app) as url:
        yield url
    close(app)


@pytest.fixture
def live_server(database_url: str, tmp_path: Path) -> Iterator[str]:
    """The app with CSRF on, on an empty migrated database, served on a free local port."""
    yield from served(database_url, tmp_path, slow=False)


@pytest.fixture
def slow_server(database_url: str, tmp_path: Path) -> Iterator[str]:
    """The live server with every answer (but static files) 600 ms late."""
    yield from served(database_url, tmp_path, slow=True)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium driven by Playwright; skipped (or failed in CI) when it is missing."""
    if not CHROMIUM.exists():
        reason = f"Chromium not found at {CHROMIUM}; browser tests skipped"
        if os.environ.get("SCOREKEEPER_REQUIRE_BROWSER"):
            pytest.fail(reason)
        pytest.skip(reason)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Phone:
    """A phone at the table: its own browser context (cookies, session), phone-sized.

    It collects console errors, CSP violations and uncaught exceptions; the test fails on any,
    except a refusal the test provokes on purpose and names with `allow`.
    """

    def __init__(self, browser: Browser, base_url: str, locale: str = "en-US") -> None:
        # The locale sets the Accept-Language header, which picks the app's language.
        self.context = browser.new_context(viewport=PHONE, locale=locale, base_url=base_url)
        self.context.set_default_timeout(WAIT_MS)
        self.context.add_init_script(REPORT_CSP_VIOLATIONS)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self._allowed = [EXPECTED_REFUSAL]
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def allow(self, status: int) -> None:
        """Let the answers with this status pass: Chromium and htmx both log them as errors."""
        self._allowed += [
            re.compile(rf"Failed to load resource: .* status of {status}\b"),
            re.compile(rf"Response Status Error Code {status} from "),
        ]

    def allow_lost_requests(self) -> None:
        """Let requests the test cuts off pass: Chromium and htmx both log them as errors."""
        self._allowed += [re.compile(r"Failed to load resource: net::ERR_"), re.compile("htmx:")]

    def back_online(self) -> None:
        """Bring the phone back online, and wait until its page knows the network is back."""
        self.context.set_offline(False)
        self.page.wait_for_function("navigator.onLine")

    def _on_console(self, message: ConsoleMessage) -> None:
        # A 422 is the app's answer to a refused form (STYLE.md), not a fault of the page.
        if message.type == "error" and not any(p.match(message.text) for p in self._allowed):
            self.errors.append(f"{message.text} ({message.location.get('url', '')})")

    def close(self) -> list[str]:
        """Close the context and return what went wrong on it."""
        self.context.close()
        return self.errors


def _fail_on(errors: list[str]) -> None:
    """Fail the test with every console error its phones collected."""
    if errors:
        pytest.fail("Console errors or CSP violations:\n" + "\n".join(errors), pytrace=False)


@pytest.fixture
def page(browser: Browser, live_server: str) -> Iterator[Page]:
    """A fresh phone-sized page on the live server; any console error or CSP violation fails."""
    phone = Phone(browser, live_server)
    yield phone.page
    _fail_on(phone.close())


def _phones(browser: Browser, base_url: str) -> Iterator[Callable[..., Phone]]:
    """Opens phones on one server; fails the test with what went wrong on any of them."""
    phones: list[Phone] = []

    def opener(locale: str = "en-US") -> Phone:
        phones.append(Phone(browser, base_url, locale))
        return phones[-1]

    yield opener
    _fail_on([error for phone in phones for error in phone.close()])


@pytest.fixture
def open_phone(browser: Browser, live_server: str) -> Iterator[Callable[..., Phone]]:
    """Open more phones at the same table, each with its own cookies; checked like `page`.

    `open_phone(locale="de-DE")` opens one whose browser asks for another language.
    """
    yield from _phones(browser, live_server)


@pytest.fixture
def open_slow_phone(browser: Browser, slow_server: str) -> Iterator[Callable[..., Phone]]:
    """Open phones at a table whose server answers 600 ms late, as on a slow network."""
    yield from _phones(browser, slow_server)


@pytest.fixture
def artifacts() -> Path:
    """The git-ignored folder for screenshots."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
