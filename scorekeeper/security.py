"""Security headers, secure cookies behind HTTPS, trusted hosts, the public address, and log
redaction."""

import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request, url_for
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.sansio.utils import host_is_trusted

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


# The app uses none of these; a script that got in could not use them either.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "camera",
        "microphone",
        "geolocation",
        "payment",
        "usb",
        "serial",
        "bluetooth",
        "midi",
        "interest-cohort",
    )
)
# URLs that carry a capability link's token after the id: a game's, a seat's, a table's, a
# person's at an evening ("my seat tonight"), relatives' of an evening, a rule set's.
LINK_PREFIXES = ("/g/", "/s/", "/t/", "/p/", "/w/", "/house-rules/")
# A page or answer reached through a capability link is the link's secret: no cache keeps it.
# The home page too: it lists this browser's links; /house-rules/ its rule sets' links.
PRIVATE_PREFIXES = (*LINK_PREFIXES, "/api/", "/games/")


# Every answer's, unless its view set one itself.
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("Referrer-Policy", "no-referrer"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Permissions-Policy", PERMISSIONS_POLICY),
)
_SECURITY_NAMES = tuple((name.lower(), name, value) for name, value in SECURITY_HEADERS)


def add_security_headers(response: Response) -> Response:
    """Send a strict CSP (no inline script or style) and never leak URLs in Referer.

    The headers a view set are read in one pass: Werkzeug's setdefault, one a header, looks for
    a missing one by raising and catching a KeyError; the same headers cost 179 k instructions
    a response so, 85 k this way (callgrind, the function alone), the API buy 1.7 % less.
    """
    present = {name.lower() for name, _value in response.headers}
    response.headers.extend(
        [(name, value) for low, name, value in _SECURITY_NAMES if low not in present]
    )
    if request.path == "/" or request.path.startswith(PRIVATE_PREFIXES):  # home lists links
        response.headers["Cache-Control"] = "no-store"
    return response


class SessionOverHttps(SecureCookieSessionInterface):
    """The session cookie gets Secure whenever the request came over HTTPS (or config says)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def public_url(endpoint: str, **values: Any) -> str:
    """An absolute link to share: on SCOREKEEPER_PUBLIC_URL when set, else on the request's host.

    PUBLIC_URL is where the app answers, with any path prefix (`https://example.org/scores`);
    the request's host is used only once Flask has checked it against TRUSTED_HOSTS
    (trusted_hosts), so a crafted Host never reaches a link or a QR code.
    """
    base = current_app.config.get("PUBLIC_URL")
    if not base:
        return url_for(endpoint, _external=True, **values)
    path = url_for(endpoint, **values).removeprefix(request.script_root)
    return str(base).rstrip("/") + path


# Always answered: the machine itself (its browser, a container's health check).
LOCAL_HOSTS = ("localhost", "127.0.0.1")
NAME_AND_PORT = re.compile(r"(\[[^\]]*\]|[^:]*)(:.*)?", re.S)


def host_name(host: str) -> str:
    """A host as compared: DNS names know no case, and `localhost.` (the absolute form, its
    final dot) is `localhost`; the port kept."""
    match = NAME_AND_PORT.fullmatch(host)
    assert match is not None  # either part may be empty
    return match[1].lower().removesuffix(".") + (match[2] or "")


class HostNames:
    """WSGI middleware: the Host header as host_name has it, before Flask checks it against
    TRUSTED_HOSTS and builds links with it (`LOCALHOST`, `localhost.` are localhost)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if host := environ.get("HTTP_HOST"):
            environ["HTTP_HOST"] = host_name(host)
        return self.inner(environ, start_response)


def trusted_hosts(config: Mapping[str, Any], served_on: Sequence[str]) -> list[str] | None:
    """The Host names the app answers: TRUSTED_HOSTS as set, else those it is served on.

    None (any Host) only when PUBLIC_URL is set and TRUSTED_HOSTS is not: then no link is
    built from the Host header. Any other Host is answered 400 (error_pages.untrusted_host).
    """
    given = config.get("TRUSTED_HOSTS")
    if not given and config.get("PUBLIC_URL"):
        return None
    return list(dict.fromkeys(map(host_name, [*(given or served_on), *LOCAL_HOSTS])))


def refused_public_host(config: Mapping[str, Any]) -> str | None:
    """PUBLIC_URL's host when TRUSTED_HOSTS leaves it out: every request for it answers 400."""
    trusted, public = config.get("TRUSTED_HOSTS"), config.get("PUBLIC_URL")
    host = host_name(urlsplit(str(public)).hostname or "") if public else ""
    return host if trusted and host and not host_is_trusted(host, trusted) else None


def init_app(app: Flask, served_on: Sequence[str] = ()) -> None:
    """Register the security headers, answer only trusted hosts, keep link tokens out of logs."""
    app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config, served_on)
    app.after_request(add_security_headers)
    app.session_interface = SessionOverHttps()
    app.jinja_env.globals.update(public_url=public_url)
    app.wsgi_app = HostNames(app.wsgi_app)  # type: ignore[method-assign]
    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops:
        # Behind that many proxies, trust their X-Forwarded-For/-Proto/-Host/-Prefix only.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_prefix=hops
        )
    redact_loggers(app.logger)


# Every logger that writes a request's path: the app's (Flask's own 500 line), the access log,
# the servers' (gunicorn's error log quotes the request it failed on, its access log when an
# operator turns it on; waitress's; Werkzeug's).
PATH_LOGGERS = ("scorekeeper.access", "gunicorn.error", "gunicorn.access", "waitress", "werkzeug")


def redact_loggers(*more: logging.Logger) -> None:
    """Put the redaction on every logger that may quote a request's path (once each)."""
    for logger in (*map(logging.getLogger, PATH_LOGGERS), *more):
        if not any(isinstance(f, RedactLinks) for f in logger.filters):
            logger.addFilter(RedactLinks())


# A link in LINK_PREFIXES: the token follows the id, however many slashes a typed link has.
_LINK_KINDS = "|".join(re.escape(prefix.strip("/")) for prefix in LINK_PREFIXES)
LINK_IN_PATH = re.compile(rf"(/+(?:{_LINK_KINDS})/+\d+/+)[A-Za-z0-9_-]+")
# Anything after a path's slash or a query's = that could be a token (32 characters of the
# token alphabet, percent-encoded or not), wherever it stands: a link typed in another shape,
# a token in a query. Words and hyphens (`round-end`) are a route's, kept.
TOKEN_LIKE = re.compile(r"(?<=[/=&?;])(?:[A-Za-z0-9_-]|%[0-9A-Fa-f]{2}){20,}")
WORDS = re.compile(r"[a-z]+(?:-[a-z]+)*")


def _token_like(match: re.Match[str]) -> str:
    return match[0] if WORDS.fullmatch(match[0]) else "…"


def redact_links(text: str) -> str:
    """Hide the secret part of game, seat, table and rule set links, and anything in a path or
    query that could be a token: logs never hold a working link."""
    return TOKEN_LIKE.sub(_token_like, LINK_IN_PATH.sub(r"\1…", text))


class RedactLinks(logging.Filter):
    """A log filter that redacts capability links from every message it passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact_links(record.getMessage())
        record.args = ()
        if record.exc_info and not record.exc_text:
            # A traceback may quote the URL too; handlers print exc_text when it is set.
            record.exc_text = redact_links(logging.Formatter().formatException(record.exc_info))
        return True
