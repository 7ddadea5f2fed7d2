"""Security headers sent with every response."""

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
    """Register the security headers."""
    app.after_request(add_security_headers)
