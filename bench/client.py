"""An HTTP client for the bench that behaves like htmx on a phone: keep-alive, cookies, CSRF,
the poller, out-of-band regions and the game-changed event."""

from __future__ import annotations

import gzip
import html
import http.client
import json
import re
import time
from dataclasses import dataclass, field
from typing import Protocol

POLLER = re.compile(r'id="poller"[^>]*hx-get="([^"]+)"', re.S)
# A region that fetches itself again on the game-changed event (the app before this bench).
EVENT_REGION = re.compile(r'hx-get="([^"]+)"\s+hx-trigger="game-changed from:body"', re.S)
CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"')
HX = {"HX-Request": "true"}


@dataclass
class Answer:
    """What one request got back, and how long it took."""

    status: int
    headers: dict[str, str]
    body: str
    wire_bytes: int
    seconds: float


@dataclass
class Client:
    """One keep-alive connection to one server, with a cookie jar of one cookie."""

    port: int
    cookie: str = ""
    requests: int = 0
    connection: http.client.HTTPConnection = field(init=False)

    def __post_init__(self) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def send(
        self, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None
    ) -> Answer:
        """Send one request and read the whole answer."""
        sent = {"Accept-Encoding": "gzip", **(headers or {})}
        if self.cookie:
            sent["Cookie"] = self.cookie
        started = time.perf_counter()
        self.connection.request(method, path, body=body, headers=sent)
        response = self.connection.getresponse()
        raw = response.read()
        seconds = time.perf_counter() - started
        self.requests += 1
        answer_headers = {k.title(): v for k, v in response.getheaders()}
        if cookie := answer_headers.get("Set-Cookie"):
            self.cookie = cookie.split(";", 1)[0]
        data = gzip.decompress(raw) if answer_headers.get("Content-Encoding") == "gzip" else raw
        return Answer(
            response.status, answer_headers, data.decode(errors="replace"), len(raw), seconds
        )

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        """GET a path."""
        return self.send("GET", path, headers=headers)

    def post_form(self, path: str, form: dict[str, str], headers: dict[str, str]) -> Answer:
        """POST a urlencoded form."""
        body = "&".join(f"{k}={v}" for k, v in form.items())
        sent = {**headers, "Content-Type": "application/x-www-form-urlencoded"}
        return self.send("POST", path, body=body, headers=sent)

    def post_json(self, path: str, data: object, token: str | None = None) -> Answer:
        """POST a JSON body, with a bearer token when given."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.send("POST", path, body=json.dumps(data), headers=headers)

    def put_json(self, path: str, data: object, token: str) -> Answer:
        """PUT a JSON body with a bearer token."""
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        return self.send("PUT", path, body=json.dumps(data), headers=headers)


class JsonSender(Protocol):
    """What plays the bench's game through the API: Client, or bench/request_costs.py's
    client in-process."""

    def post_json(self, path: str, data: object, token: str | None = None) -> Answer: ...

    def put_json(self, path: str, data: object, token: str) -> Answer: ...


@dataclass
class Phone:
    """A phone showing a game's round screen: polls, taps Buy, follows what htmx would."""

    client: Client
    page: str  # the round screen's path
    poller: str = ""
    regions: list[str] = field(default_factory=list)
    csrf: str = ""

    def open(self) -> Answer:
        """Load the round screen, as a first visit does."""
        answer = self.client.get(self.page)
        self.poller = _poller(answer.body) or self.poller
        self.regions = [html.unescape(u) for u in EVENT_REGION.findall(answer.body)]
        self.csrf = CSRF.findall(answer.body)[0]
        return answer

    def follow(self, answer: Answer) -> None:
        """Do what htmx does with an answer: a new poller, the event's fetches, a reload."""
        if new := _poller(answer.body):
            self.poller = new
        if answer.headers.get("Hx-Refresh") == "true":
            self.open()
        if "game-changed" in answer.headers.get("Hx-Trigger", ""):
            for region in self.regions:
                self.client.get(region, headers=HX)

    def poll(self) -> Answer:
        """One 2-second poll, and whatever it sets off."""
        answer = self.client.get(self.poller, headers=HX)
        self.follow(answer)
        return answer

    def tap(self, action: str, seat: int) -> Answer:
        """Tap Buy (or take a buy back) for a seat, as htmx posts the form."""
        headers = {**HX, "X-CSRFToken": self.csrf}
        answer = self.client.post_form(f"{self.page}/{action}", {"seat": str(seat)}, headers)
        assert answer.status == 200, (answer.status, answer.body[:300])
        self.follow(answer)
        return answer


def unchanged(answer: Answer) -> bool:
    """A poll's "nothing changed": empty (a 204 before the empty 200 that keeps the connection)."""
    return answer.status in (200, 204) and not answer.body


def _poller(body: str) -> str | None:
    """The poller URL an answer carries, if any."""
    found = POLLER.search(body)
    return html.unescape(found.group(1)) if found else None
