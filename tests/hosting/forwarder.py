"""A TCP forwarder on a free loopback port that a test can cut: a database outage without
touching the database server (the run's PostgreSQL is shared)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress


class Forwarder:
    """Passes connections on to `target` until cut; while cut, it drops every connection it
    carries and closes each new one at once, as a server that went away, or (stalled) holds
    each new one without a word, as a machine that no longer answers."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.is_cut = self.stalled = False
        self.carried: set[socket.socket] = set()
        self.held: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, name="forwarder", daemon=True).start()

    def _accept(self) -> None:
        """Take each connection; join it to the target, unless cut."""
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self.lock:
                if self.is_cut and self.stalled:
                    self.held.append(client)
                    continue
                if self.is_cut:
                    client.close()
                    continue
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self.lock:
                self.carried.update((client, server))
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        """Copy one direction until either side closes; then close both."""
        with suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        self._drop(source, sink)

    def _drop(self, *ends: socket.socket) -> None:
        with self.lock:
            for end in ends:
                self.carried.discard(end)
                with suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()

    def cut(self, stalled: bool = False) -> None:
        """The outage: every carried connection dropped, every new one closed (or held)."""
        with self.lock:
            self.is_cut, self.stalled = True, stalled
            carried = list(self.carried)
        self._drop(*carried)

    def restore(self) -> None:
        """The database is back: new connections reach it again, held ones are let go."""
        with self.lock:
            self.is_cut, held, self.held = False, self.held, []
        for client in held:
            client.close()

    def close(self) -> None:
        """Stop listening and drop what is carried."""
        self.cut()
        self.listener.close()


@contextmanager
def forwarding(host: str, port: int) -> Iterator[Forwarder]:
    """A forwarder to host:port for the length of the block."""
    forwarder = Forwarder((host, port))
    try:
        yield forwarder
    finally:
        forwarder.close()
