"""The `scorekeeper` command's options: each one's default from its SCOREKEEPER_* variable,
and `--help` naming both (the value it would take now, from the environment or built in)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..config import PREFIX, SETTINGS, environment
from ..version import __version__
from . import servers

DEFAULT_PORT = 8000  # 5000 is taken by the system (AirPlay) on many Macs


def port() -> int:
    """The port to serve on or ask: SCOREKEEPER_PORT, else 8000."""
    return int(environment("PORT") or DEFAULT_PORT)


def said(what: str, name: str, default: object) -> str:
    """An option's help: what it sets, its variable, the value it takes when not given."""
    return f"{what} (${PREFIX}{name}; default: {default})".replace("%", "%%")  # argparse formats


def positive(text: str) -> int:
    """A whole number of at least 1."""
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a number of at least 1")
    return number


def _serve(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser(
        "serve",
        help="migrate the database and serve the app",
        description="Migrate the database and serve the app. Its data: "
        f"${PREFIX}DATA_DIR (default: instance/ in a checkout, else the user's data folder: "
        f"$XDG_DATA_HOME/scorekeeper or ~/.local/share/scorekeeper); its database: "
        f"${PREFIX}DATABASE_URL (default: SQLite in the data folder).",
    )
    serve.add_argument("--lan", action="store_true", help="serve phones on the local network")
    host = environment("HOST")
    where = host or "127.0.0.1, or this machine's LAN address with --lan"
    serve.add_argument("--host", default=host, help=said("address to listen on", "HOST", where))
    serve.add_argument("--port", type=int, default=port(), help=said("port", "PORT", port()))
    server = environment("SERVER")
    serve.add_argument(
        "--server",
        choices=servers.SERVERS,
        default=server,
        help=said("WSGI server", "SERVER", server or servers.default_server()),
    )
    workers = environment("WORKERS")
    serve.add_argument(
        "--workers",
        type=int,
        default=workers,
        help=said("processes", "WORKERS", workers or "one per core (gunicorn), 1 (waitress)"),
    )
    threads = environment("THREADS") or servers.THREADS
    serve.add_argument(
        "--threads", type=int, default=threads, help=said("threads per process", "THREADS", threads)
    )
    serve.add_argument(
        "--no-migrate", action="store_true", help="skip the migration (another process ran it)"
    )


def _copies(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    backup = commands.add_parser(
        "backup",
        help="write the whole instance (every table, game and link) to FILE",
        description="Write the whole instance to FILE, readable by its owner alone; without "
        "FILE, to a new file named for the moment in the backup folder "
        f"(${PREFIX}BACKUP_DIR; default: <data dir>/backups).",
    )
    backup.add_argument("file", type=Path, nargs="?", help="a new file (default: a new name)")
    backup.add_argument(
        "--keep",
        type=positive,
        metavar="N",
        help="then delete all but the newest N backups this option made (not with FILE)",
    )
    restore = commands.add_parser("restore", help="restore FILE into an empty instance")
    restore.add_argument("file", type=Path)
    move = commands.add_parser(
        "move-to",
        help="copy the whole instance into an empty PostgreSQL database",
        description="Copy every table, game, link and rule set into the empty PostgreSQL "
        "database at URL, then serve it with SCOREKEEPER_DATABASE_URL=URL.",
    )
    move.add_argument("url", metavar="URL", help="postgresql://user:password@host:5432/name")


def parser() -> argparse.ArgumentParser:
    """The commands and their options."""
    top = argparse.ArgumentParser(
        prog="scorekeeper",
        epilog="Every setting is also an environment variable: "
        + ", ".join(PREFIX + setting.name for setting in SETTINGS)
        + " (README.md, Settings).",
    )
    top.add_argument("--version", action="version", version=f"scorekeeper {__version__}")
    commands = top.add_subparsers(dest="command", required=True)
    _serve(commands)
    commands.add_parser("migrate", help="back the database up if a migration is due, migrate")
    _copies(commands)
    health = commands.add_parser("health", help="ask a running server's /healthz (exit 1: not ok)")
    url = f"http://127.0.0.1:{port()}/healthz"
    health.add_argument(
        "--url", default=url, help=f"its address (default: {url}, by ${PREFIX}PORT)"
    )
    return top
