"""The `scorekeeper` command: serve the app, migrate, back up and restore the whole instance."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import TextIO

import segno
from flask import Flask

from . import __version__, create_app, servers, upgrades
from .config import BadSetting, MissingExtra, environment
from .database_copies import BackupError
from .instance_backup import backup, restore
from .lan import lan_address, served_hosts
from .rate_limits import in_one_process
from .security import refused_public_host

DEFAULT_PORT = 8000  # 5000 is taken by the system (AirPlay) on many Macs
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def announce(url: str, lan: bool, out: TextIO = sys.stdout) -> None:
    """Print where the app answers, with a QR code for phones when serving the LAN."""
    print(f"Scorekeeper is serving at {url}", file=out)
    if lan:
        print("Scan this with a phone on the same network:", file=out)
        segno.make(url, error="m").terminal(out=out, compact=True)


def _port() -> int:
    return int(environment("PORT") or DEFAULT_PORT)


def parser() -> argparse.ArgumentParser:
    """The commands and their options; each option's default from its SCOREKEEPER_* variable."""
    top = argparse.ArgumentParser(prog="scorekeeper")
    top.add_argument("--version", action="version", version=f"scorekeeper {__version__}")
    commands = top.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="migrate the database and serve the app")
    serve.add_argument("--lan", action="store_true", help="serve phones on the local network")
    serve.add_argument("--host", default=environment("HOST"), help="address to listen on")
    serve.add_argument("--port", type=int, default=_port())
    serve.add_argument("--server", choices=servers.SERVERS, default=environment("SERVER"))
    serve.add_argument("--workers", type=int, default=environment("WORKERS"), help="processes")
    serve.add_argument(
        "--threads", type=int, default=environment("THREADS") or servers.THREADS, help="per process"
    )
    serve.add_argument(
        "--no-migrate", action="store_true", help="skip the migration (another process ran it)"
    )
    commands.add_parser("migrate", help="back the database up if a migration is due, migrate")
    for name, what in (("backup", "write the whole instance to"), ("restore", "restore from")):
        command = commands.add_parser(name, help=f"{what} FILE (every table, game and link)")
        command.add_argument("file", type=Path)
    health = commands.add_parser("health", help="ask a running server's /healthz (exit 1: not ok)")
    health.add_argument("--url", default=f"http://127.0.0.1:{_port()}/healthz")
    return top


def run_serve(args: argparse.Namespace) -> int:
    """Migrate unless told not to, then serve with gunicorn's workers or waitress."""
    host = args.host or (lan_address() if args.lan else "127.0.0.1")
    hosts = served_hosts(host)
    app = create_app(served_on=hosts)  # in this process first: the secret key is made once
    if refused := refused_public_host(app.config):
        print(
            f"SCOREKEEPER_TRUSTED_HOSTS leaves out {refused}, the host of SCOREKEEPER_PUBLIC_URL:"
            " every request for it will be answered 400 (Bad Request: untrusted host)",
            file=sys.stderr,
        )
    if not args.no_migrate:
        migrated(app)
    server = args.server or servers.default_server()
    if server not in servers.SERVERS:
        print(f"SCOREKEEPER_SERVER is one of {', '.join(servers.SERVERS)}", file=sys.stderr)
        return 2
    workers = args.workers or (servers.cores() if server == "gunicorn" else 1)
    if server == "waitress" and workers > 1:
        print("waitress serves one process: use --server gunicorn for more", file=sys.stderr)
        return 2
    if workers > 1 and in_one_process(app.config):
        print("memory:// counts the rate limits in one process: serving one", file=sys.stderr)
        workers = 1
    shown = f"[{host}]" if ":" in host else host
    announce(f"http://{shown}:{args.port}/", args.lan)
    sys.stdout.flush()
    make = (lambda: app) if server == "waitress" else (lambda: create_app(served_on=hosts))
    servers.serve(make, host, args.port, args.threads, workers, server)
    return 0


def migrated(app: Flask) -> None:
    """Run the migrate step, saying where the backup before it went."""
    saved = upgrades.migrate(app)
    if saved is not None:
        print(f"Backed the database up to {saved} before migrating it", file=sys.stderr)


def run_health(url: str) -> int:
    """Print a server's health answer; 0 when it is ok."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            print(answer.read().decode())
            return 0
    except urllib.error.HTTPError as answer:
        print(answer.read().decode())
    except OSError as error:
        print(json.dumps({"status": "unreachable", "error": str(error)}))
    return 1


def main(argv: list[str] | None = None) -> int:
    """Run one command of `scorekeeper`."""
    try:
        args = parser().parse_args(argv)
    except BadSetting as error:
        print(f"scorekeeper: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT, stream=sys.stderr)
    try:
        if args.command == "serve":
            return run_serve(args)
        if args.command == "health":
            return run_health(args.url)
        app = create_app()
        if args.command == "migrate":
            migrated(app)
        elif args.command == "backup":
            print(f"Backed the instance up to {backup(app, args.file)}")
        else:
            print(f"Restored {restore(app, args.file)} from {args.file}")
    except (MissingExtra, BadSetting, BackupError) as error:
        print(f"scorekeeper: {error}", file=sys.stderr)
        return 1 if isinstance(error, BackupError) else 2
    return 0
