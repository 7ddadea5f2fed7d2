"""The `scorekeeper` console script: `scorekeeper serve [--lan]`."""

from __future__ import annotations

import argparse
import fcntl
import socket
import struct
import sys
from typing import TextIO

import segno
from flask_migrate import upgrade
from werkzeug.serving import run_simple

from . import create_app

SIOCGIFADDR = 0x8915  # Linux ioctl: an interface's IPv4 address


def interface_address(name: str) -> str | None:
    """The IPv4 address of one network interface, asked of the kernel (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            packed = fcntl.ioctl(
                probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode())
            )
        except OSError:
            return None
    return socket.inet_ntoa(packed[20:24])


def lan_address() -> str:
    """This machine's address on the local network, for phones at the table to reach."""
    for _index, name in socket.if_nameindex():
        address = interface_address(name)
        if address and not address.startswith("127."):
            return address
    return "127.0.0.1"


def announce(url: str, lan: bool, out: TextIO = sys.stdout) -> None:
    """Print where the app answers, with a QR code for phones when serving the LAN."""
    print(f"Scorekeeper is serving at {url}", file=out)
    if lan:
        print("Scan this with a phone on the same network:", file=out)
        segno.make(url, error="m").terminal(out=out, compact=True)


def main(argv: list[str] | None = None) -> int:
    """Migrate the database, then serve the app (on the LAN address with --lan)."""
    parser = argparse.ArgumentParser(prog="scorekeeper")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="migrate the database and serve the app")
    serve.add_argument("--lan", action="store_true", help="serve phones on the local network")
    serve.add_argument("--host", default=None, help="address to listen on")
    serve.add_argument("--port", type=int, default=5000)
    args = parser.parse_args(argv)
    app = create_app()
    with app.app_context():
        upgrade()
    host = args.host or (lan_address() if args.lan else "127.0.0.1")
    announce(f"http://{host}:{args.port}/", args.lan)
    run_simple(host, args.port, app, threaded=True)
    return 0
