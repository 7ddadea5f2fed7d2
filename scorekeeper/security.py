"""Security headers sent with every response."""

import logging
import re

from flask import Flask, Response

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


def add_security_headers(response: Response) -> Response:
    """Send a strict CSP (no inline script or style) and never leak URLs in Referer."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def init_app(app: Flask) -> None:
    """Register the security headers and keep link tokens out of the request log."""
    app.after_request(add_security_headers)
    for name in ("werkzeug", "gunicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactLinks) for f in logger.filters):
            logger.addFilter(RedactLinks())


LINK_IN_PATH = re.compile(r"(/g/\d+/)[A-Za-z0-9_-]+")


def redact_links(text: str) -> str:
    """Hide the secret part of game links, so logs never hold a working link."""
    return LINK_IN_PATH.sub(r"\1…", text)


class RedactLinks(logging.Filter):
    """A log filter that redacts game links from every message it passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact_links(record.getMessage())
        record.args = ()
        return True
