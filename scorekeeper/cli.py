"""The `scorekeeper` console script."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys


def main(argv: list[str] | None = None) -> int:
    """Run `scorekeeper serve`: migrate the database and serve the app."""
    parser = argparse.ArgumentParser(prog="scorekeeper")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="migrate the database and serve the app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=5000)
    args = parser.parse_args(argv)
    flask = [sys.executable, "-m", "flask", "--app", "scorekeeper"]
    env = {**os.environ}
    subprocess.run([*flask, "db", "upgrade"], check=True, env=env)
    return subprocess.call([*flask, "run", "--host", args.host, "--port", str(args.port)], env=env)
