"""Static files under content-hashed URLs, cached for a year; text answers gzip-compressed."""

from __future__ import annotations

import gzip
import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request
from werkzeug.wrappers import Response

YEAR = 365 * 24 * 3600
COMPRESSIBLE = (
    "text/",
    "application/javascript",
    "application/json",
    "application/problem+json",
    "application/manifest+json",
    "image/svg+xml",
)
SMALLEST = 500  # below this gzip's header and the CPU cost more than they save
LEVEL = 6


# Not game data: a static file's hash per version of the file (a few dozen files).
@lru_cache(maxsize=256)
def _file_hash(path: str, _mtime_ns: int) -> str:
    """The first 12 hex digits of a file's SHA-256 (keyed by mtime, so an edit rehashes)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def static_hash(filename: str) -> str | None:
    """The content hash of a static file, or None when there is no such file.

    os.path and os.stat, not pathlib: every page asks for six of these (base.html's files), and
    pathlib's parsing of the path was half a static URL's function calls (issue 19,
    `bench/request_costs.py --requests 20`: the score sheet 8.2k -> 7.9k calls a request).
    """
    path = os.path.join(current_app.static_folder or "static", filename)
    try:
        return _file_hash(path, os.stat(path).st_mtime_ns)
    except OSError:
        return None


def _hashed_static_urls(endpoint: str, values: dict[str, Any]) -> None:
    """Give every static URL its file's content hash: a changed file gets a new URL."""
    if endpoint != "static" or "v" in values or "filename" not in values:
        return
    if digest := static_hash(values["filename"]):
        values["v"] = digest


def _cache_forever(response: Response) -> Response:
    """A static file asked for by its current hash never changes: cache it for a year."""
    filename = (request.view_args or {}).get("filename")
    if request.endpoint != "static" or response.status_code != 200 or not filename:
        return response
    if request.args.get("v") and request.args["v"] == static_hash(filename):
        response.cache_control.no_cache = None
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
    return response


# Flask-Compress gzips a static file again on every request, streamed without a length: 2.77 ms
# of CPU a request for htmx instead of 0.71 here (issue 34, measured with the test client).
# Not game data: a static file gzipped per version (a few dozen files, 100 KB or so each).
@lru_cache(maxsize=128)
def _compressed_file(path: str, _mtime_ns: int) -> bytes:
    """A static file gzipped once per version, not on every request."""
    return gzip.compress(Path(path).read_bytes(), LEVEL, mtime=0)


def _body(response: Response) -> bytes | None:
    """The compressed body, or None when this answer is not worth compressing."""
    if response.direct_passthrough:
        filename = (request.view_args or {}).get("filename")
        if request.endpoint != "static" or not filename:
            return None
        path = Path(current_app.static_folder or "static") / filename
        return _compressed_file(str(path), path.stat().st_mtime_ns)
    if response.is_streamed:
        return None
    data = response.get_data()
    return gzip.compress(data, LEVEL, mtime=0) if len(data) >= SMALLEST else None


def _compress(response: Response) -> Response:
    """Gzip text answers for browsers that accept it (84 KB of first load become about 23)."""
    mimetype = response.mimetype or ""
    if (
        response.status_code != 200
        or request.method == "HEAD"
        or "Content-Encoding" in response.headers
        or not mimetype.startswith(COMPRESSIBLE)
        or (response.content_length is not None and response.content_length < SMALLEST)
    ):
        return response
    response.vary.add("Accept-Encoding")
    if "gzip" not in request.headers.get("Accept-Encoding", ""):
        return response
    body = _body(response)
    if body is None:
        return response
    if response.direct_passthrough:
        response.close()  # the file it would have streamed
        response.direct_passthrough = False
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(f"{etag}-gzip", weak)
    return response


def init_app(app: Flask) -> None:
    """Hash static URLs, cache hashed files for a year, compress text answers."""
    app.url_defaults(_hashed_static_urls)
    app.after_request(_compress)  # after_request runs in reverse: this one sees the final body
    app.after_request(_cache_forever)
