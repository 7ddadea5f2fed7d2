"""The `scorekeeper` command: serve the app, migrate, back up, restore and move the instance."""

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
from sqlalchemy import make_url

from .. import create_app
from ..config import BadSetting, MissingExtra
from ..extensions import db
from ..rate_limits import in_one_process
from ..security import refused_public_host
from . import command_options, servers, upgrades
from .database_copies import BackupError
from .instance_backup import NIGHTLY, backup, keep_newest, restore, stamped
from .instance_move import move_to
from .lan import lan_address, served_hosts

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def announce(url: str, lan: bool, out: TextIO = sys.stdout) -> None:
    """Print where the app answers, with a QR code for phones when serving the LAN."""
    print(f"Scorekeeper is serving at {url}", file=out)
    if lan:
        print("Scan this with a phone on the same network:", file=out)
        segno.make(url, error="m").terminal(out=out, compact=True)


def data_lines(app: Flask) -> list[str]:
    """Where the instance keeps its data: the folder, the database and the backups."""
    with app.app_context():
        url = db.engine.url
    database = url.database if url.get_backend_name() == "sqlite" else url.render_as_string()
    return [
        f"Its data: {app.instance_path}",
        f"  database: {database}",
        f"  backups:  {app.config['BACKUP_DIR']}",
    ]


def run_serve(args: argparse.Namespace) -> int:
    """Migrate unless told not to, then serve with gunicorn's workers or waitress."""
    host = args.host or (lan_address() if args.lan else "127.0.0.1")
    hosts = served_hosts(host)
    # In this process first: the secret key is made once.
    app = create_app(served_on=hosts, threads=args.threads)
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
    print("\n".join(data_lines(app)))
    sys.stdout.flush()

    def make() -> Flask:  # each gunicorn worker its own app, after the fork
        return app if server == "waitress" else create_app(served_on=hosts, threads=args.threads)

    servers.serve(make, host, args.port, args.threads, workers, server)
    return 0


def migrated(app: Flask) -> None:
    """Run the migrate step, saying where the backup before it went."""
    saved = upgrades.migrate(app)
    if saved is not None:
        print(f"Backed the database up to {saved} before migrating it", file=sys.stderr)


def run_backup(app: Flask, file: Path | None, keep: int | None) -> None:
    """Back the instance up to FILE, or to a new name in BACKUP_DIR keeping the newest N."""
    if file is not None and keep is not None:
        raise BackupError("--keep keeps the backups it names itself: give no FILE with it.")
    saved = backup(app, file or stamped(app, NIGHTLY))
    print(f"Backed the instance up to {saved}")
    for old in keep_newest(saved.parent, keep) if keep else ():
        print(f"Deleted the older backup {old}")


def url_shown(url: str) -> str:
    """A database URL without its password."""
    return make_url(url).render_as_string(hide_password=True)


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
        args = command_options.parser().parse_args(argv)
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
            run_backup(app, args.file, args.keep)
        elif args.command == "move-to":
            print(f"Moved {move_to(app, args.url)} into {url_shown(args.url)}")
        else:
            print(f"Restored {restore(app, args.file)} from {args.file}")
    except (MissingExtra, BadSetting, BackupError) as error:
        print(f"scorekeeper: {error}", file=sys.stderr)
        return 1 if isinstance(error, BackupError) else 2
    return 0
