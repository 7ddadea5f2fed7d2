#!/bin/sh
# The container's start: migrate the database (backing it up first into the data volume when
# a migration is due and it holds data), then serve. Any other command is a `scorekeeper`
# command, e.g. `docker compose run --rm app backup /data/backups/today.pgdump`.
set -eu

if [ "$#" -eq 0 ] || [ "$1" = "serve" ]; then
    if [ "$#" -gt 0 ]; then
        shift
    fi
    scorekeeper migrate
    exec scorekeeper serve --no-migrate "$@"
fi
exec scorekeeper "$@"
