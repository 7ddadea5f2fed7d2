"""Security headers, secure cookies behind HTTPS, the public address, and log redaction."""

import logging
import re
from typing import Any

from flask import Flask, Response, current_app, request, url_for
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

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
# URLs that carry a capability link's token after the id: a game's, a table's, a rule set's.
LINK_PREFIXES = ("/g/", "/t/", "/house-rules/")
# A page or answer reached through a capability link is the link's secret: no cache keeps it.
# The home page too: it lists this browser's links; /house-rules/ its rule sets' links.
PRIVATE_PREFIXES = (*LINK_PREFIXES, "/api/", "/games/")


def add_security_headers(response: Response) -> Response:
    """Send a strict CSP (no inline script or style) and never leak URLs in Referer."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
    if request.path == "/" or request.path.startswith(PRIVATE_PREFIXES):  # home lists links
        response.headers["Cache-Control"] = "no-store"
    return response


class SessionOverHttps(SecureCookieSessionInterface):
    """The session cookie gets Secure whenever the request came over HTTPS (or config says)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


def public_url(endpoint: str, **values: Any) -> str:
    """An absolute link to share: SCOREKEEPER_PUBLIC_URL when set, never a client's Host header.

    Without it the request's host is used; set TRUSTED_HOSTS (SCOREKEEPER_TRUSTED_HOSTS) so
    Flask refuses any other Host, or a crafted Host would make the QR code point elsewhere.
    """
    base = current_app.config.get("PUBLIC_URL")
    if base:
        return str(base).rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, _external=True, **values)


def init_app(app: Flask) -> None:
    """Register the security headers and keep link tokens out of the request and error logs."""
    app.after_request(add_security_headers)
    app.session_interface = SessionOverHttps()
    app.jinja_env.globals.update(public_url=public_url)
    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops:
        # Behind that many proxies, trust their X-Forwarded-For/-Proto/-Host/-Prefix only.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_prefix=hops
        )
    for logger in (logging.getLogger("werkzeug"), logging.getLogger("gunicorn.access"), app.logger):
        if not any(isinstance(f, RedactLinks) for f in logger.filters):
            logger.addFilter(RedactLinks())


# A link in LINK_PREFIXES: the token follows the id.
_LINK_KINDS = "|".join(re.escape(prefix.strip("/")) for prefix in LINK_PREFIXES)
LINK_IN_PATH = re.compile(rf"(/(?:{_LINK_KINDS})/\d+/)[A-Za-z0-9_-]+")


def redact_links(text: str) -> str:
    """Hide the secret part of game, table and rule set links: logs never hold a working link."""
    return LINK_IN_PATH.sub(r"\1…", text)


class RedactLinks(logging.Filter):
    """A log filter that redacts capability links from every message it passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact_links(record.getMessage())
        record.args = ()
        if record.exc_info and not record.exc_text:
            # A traceback may quote the URL too; handlers print exc_text when it is set.
            record.exc_text = redact_links(logging.Formatter().formatException(record.exc_info))
        return True
