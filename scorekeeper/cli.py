"""The `scorekeeper` console script: `scorekeeper serve [--lan] [--host H] [--port P]`."""

from __future__ import annotations

import argparse
import os
import socket
import struct
import sys
from typing import TextIO

import segno
import waitress
from flask_migrate import upgrade

from . import create_app

SIOCGIFADDR = 0x8915  # Linux ioctl: an interface's IPv4 address
DEFAULT_PORT = 8000  # 5000 is taken by the system (AirPlay) on many Macs
THREADS = 8  # waitress worker threads: phones wait on the per-game lock, not on each other


def interface_address(name: str) -> str | None:
    """The IPv4 address of one network interface, asked of the kernel (no packet is sent)."""
    try:
        import fcntl  # not on Windows, where the route probe in lan_address answers instead
    except ImportError:
        return None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            packed = fcntl.ioctl(
                probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode())
            )
        except OSError:
            return None
    return socket.inet_ntoa(packed[20:24])


def routed_address() -> str | None:
    """The address the system would send from to a LAN peer (a UDP connect sends no packet)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if address.startswith(("127.", "0.")) else address


def lan_address() -> str:
    """This machine's address on the local network, for phones at the table to reach."""
    names = socket.if_nameindex() if hasattr(socket, "if_nameindex") else []
    for _index, name in names:
        address = interface_address(name)
        if address and not address.startswith("127."):
            return address
    return routed_address() or "127.0.0.1"


def announce(url: str, lan: bool, out: TextIO = sys.stdout) -> None:
    """Print where the app answers, with a QR code for phones when serving the LAN."""
    print(f"Scorekeeper is serving at {url}", file=out)
    if lan:
        print("Scan this with a phone on the same network:", file=out)
        segno.make(url, error="m").terminal(out=out, compact=True)


def main(argv: list[str] | None = None) -> int:
    """Migrate the database, then serve the app with waitress (on the LAN address with --lan)."""
    parser = argparse.ArgumentParser(prog="scorekeeper")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="migrate the database and serve the app")
    serve.add_argument("--lan", action="store_true", help="serve phones on the local network")
    serve.add_argument("--host", default=os.environ.get("HOST"), help="address to listen on")
    serve.add_argument("--port", type=int, default=int(os.environ.get("PORT") or DEFAULT_PORT))
    serve.add_argument("--threads", type=int, default=THREADS, help="worker threads")
    serve.add_argument(
        "--no-migrate", action="store_true", help="skip the migration (another process ran it)"
    )
    args = parser.parse_args(argv)
    app = create_app()
    if not args.no_migrate:
        with app.app_context():
            upgrade()
    host = args.host or (lan_address() if args.lan else "127.0.0.1")
    announce(f"http://{host}:{args.port}/", args.lan)
    sys.stdout.flush()
    # waitress: a production WSGI server in pure Python, threaded, on Linux, macOS and Windows.
    waitress.serve(app, host=host, port=args.port, threads=args.threads, ident="scorekeeper")
    return 0
