"""Live tables as load, in real time: each phone (6, or as asked) a keep-alive connection that
polls every 2 s, one phone per table changing something every 15 s. asyncio, so hundreds of
tables (thousands of connections) fit in one process; every request's time is kept, and how
late the client itself sent it, so a client that cannot keep up is seen rather than blamed on
the server.
"""

from __future__ import annotations

import asyncio
import gzip
import html
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

POLL_EVERY, CHANGE_EVERY, PHONES = 2.0, 15.0, 6
POLLER = re.compile(rb'id="poller"[^>]*hx-get="([^"]+)"', re.S)
CSRF = re.compile(rb'"X-CSRFToken": "([^"]+)"')
HX = {"HX-Request": "true"}


@dataclass
class Samples:
    """Every request's seconds, the errors, and how far behind schedule the client fell."""

    seconds: list[float] = field(default_factory=list)
    errors: int = 0
    late: list[float] = field(default_factory=list)
    measuring: bool = False

    def add(self, seconds: float, ok: bool, late: float) -> None:
        if self.measuring:
            self.seconds.append(seconds)
            self.errors += not ok
            self.late.append(late)

    def p99_ms(self) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000 if ordered else 0


class Connection:
    """One phone's keep-alive HTTP/1.1 connection, with its one cookie."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port, self.cookie = host, port, b""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def send(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, bytes, float]:
        """One request; its status, its (decompressed) body, and its seconds."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += ["Accept-Encoding: gzip", f"Content-Length: {len(body)}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        head = "\r\n".join(lines).encode() + (b"\r\nCookie: " + self.cookie if self.cookie else b"")
        started = time.perf_counter()
        self.writer.write(head + b"\r\n\r\n" + body)
        status, answer = await self._read()
        return status, answer, time.perf_counter() - started

    async def _read(self) -> tuple[int, bytes]:
        assert self.reader is not None
        status = int((await self.reader.readline()).split()[1])
        headers: dict[bytes, bytes] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
            if name.lower() == b"set-cookie":
                self.cookie = value.strip().split(b";", 1)[0]
        if headers.get(b"transfer-encoding") == b"chunked":
            body = b""
            while size := int((await self.reader.readline()).strip(), 16):
                body += (await self.reader.readexactly(size + 2))[:-2]  # each chunk ends CRLF
            await self.reader.readline()
        else:
            body = await self.reader.readexactly(int(headers.get(b"content-length", b"0")))
        if headers.get(b"content-encoding") == b"gzip":
            body = gzip.decompress(body)
        return status, body


@dataclass
class Table:
    """One live table's phones and what they share: the page, and the changes made so far."""

    page: str
    phones: list[Connection]
    changes: int = 0
    pollers: list[str] = field(default_factory=list)
    csrf: str = ""


Act = Callable[[float], Awaitable[None]]


async def tick(period: float, act: Act, samples: Samples, phone: Connection) -> None:
    """Call act every period seconds from a random phase, passing how late the call starts.

    A failed request counts as an error and its connection is opened anew.
    """
    loop = asyncio.get_running_loop()
    due = loop.time() + random.uniform(0, period)
    while True:
        await asyncio.sleep(max(0.0, due - loop.time()))
        try:
            await act(loop.time() - due)
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
            samples.add(0.0, False, 0.0)
            phone.writer = None
        due += period


def poller_of(body: bytes) -> str | None:
    """The poller URL an answer carries, if any."""
    found = POLLER.search(body)
    return html.unescape(found.group(1).decode()) if found else None


Acts = list[tuple[int, float, Act]]  # (phone, period, act)


class Scorekeeper:
    """Our live table: phones poll their game's version; the first taps Buy or takes it back."""

    async def open(self, table: Table) -> None:
        """Load the round screen on every phone, as each phone's first visit does."""
        for index, phone in enumerate(table.phones):
            _status, body, _seconds = await phone.send("GET", table.page)
            table.pollers.append(poller_of(body) or "")
            if index == 0:  # the tapping phone's session signs its CSRF token
                table.csrf = CSRF.findall(body)[0].decode()

    def acts(self, table: Table, samples: Samples) -> Acts:
        """Every phone's poll, and the first phone's change."""

        def poll(index: int) -> Act:
            async def act(late: float) -> None:
                phone, poller = table.phones[index], table.pollers[index]
                status, body, seconds = await phone.send("GET", poller, HX)
                table.pollers[index] = poller_of(body) or poller
                samples.add(seconds, status == 200, late)

            return act

        async def change(late: float) -> None:
            action = "buys" if table.changes % 2 == 0 else "buys/remove"
            table.changes += 1
            headers = {**HX, "X-CSRFToken": table.csrf}
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            path = f"{table.page}/{action}"
            status, body, seconds = await table.phones[0].send("POST", path, headers, b"seat=1")
            table.pollers[0] = poller_of(body) or table.pollers[0]
            samples.add(seconds, status == 200, late)

        phones = range(len(table.phones))
        return [(i, POLL_EVERY, poll(i)) for i in phones] + [(0, CHANGE_EVERY, change)]


class Baseline:
    """The bare stack's same table: a static page for a poll, an insert for a change, and the
    56-cell table read by every phone once after a change, as our phones fetch the regions
    (`minute`: the cost table's bare table-minute instead: a phone's first poll after a change
    reads the 56 cells drawn as forms, /page, in place of the static page)."""

    def __init__(self, minute: bool = False) -> None:
        self.minute = minute

    async def open(self, table: Table) -> None:
        """Nothing to load: every phone starts having seen no change."""
        table.pollers = ["0"] * len(table.phones)  # the number of changes each phone has seen

    def acts(self, table: Table, samples: Samples) -> Acts:
        """Every phone's poll (and read after a change), and the first phone's insert."""

        def poll(index: int) -> Act:
            async def act(late: float) -> None:
                phone, changed = table.phones[index], table.pollers[index] != str(table.changes)
                table.pollers[index] = str(table.changes)
                path = "page" if changed and self.minute else "static-page"
                status, _body, seconds = await phone.send("GET", f"{table.page}/{path}")
                if changed and not self.minute:
                    status, _body, more = await phone.send("GET", f"{table.page}/table")
                    seconds += more
                samples.add(seconds, status == 200, late)

            return act

        async def change(late: float) -> None:
            table.changes += 1
            headers = {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"}
            path = f"{table.page}/items"
            status, _body, seconds = await table.phones[0].send("POST", path, headers, b"text=a")
            samples.add(seconds, status == 200, late)

        phones = range(len(table.phones))
        return [(i, POLL_EVERY, poll(i)) for i in phones] + [(0, CHANGE_EVERY, change)]


async def run(
    kind: Scorekeeper | Baseline,
    pages: list[str],
    port: int,
    warm: float,
    seconds: float,
    phones: int = PHONES,
    measuring: Callable[[bool], None] = lambda _on: None,
) -> Samples:
    """Play one live table per page against the proxy for warm + seconds; the measured part.

    `measuring` is told when the measured part starts (True) and ends (False).
    """
    samples = Samples()
    tables = [Table(page, [Connection("127.0.0.1", port) for _ in range(phones)]) for page in pages]
    gate = asyncio.Semaphore(16)  # first loads a few at a time: they are not measured

    async def opened(table: Table) -> None:
        async with gate:
            await kind.open(table)

    await asyncio.gather(*(opened(table) for table in tables))
    tasks = [
        asyncio.create_task(tick(period, act, samples, table.phones[index]))
        for table in tables
        for index, period, act in kind.acts(table, samples)
    ]
    await asyncio.sleep(warm)
    samples.measuring = True
    measuring(True)
    await asyncio.sleep(seconds)
    samples.measuring = False
    measuring(False)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for table in tables:
        for phone in table.phones:
            if phone.writer is not None:
                phone.writer.close()
    return samples
