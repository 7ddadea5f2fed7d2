"""Putting the app on a phone's home screen: the web manifest and the service worker."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, send_from_directory, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

bp = Blueprint("install", __name__)
THEME_COLOR = "#1f6f4a"  # the felt green of the header


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Describe the app to the phone: name, icons, colours, where it starts."""
    icon = "static"
    response = jsonify(
        {
            "name": _("Scorekeeper"),
            "short_name": _("Scorekeeper"),
            "description": _("The score sheet for May I? and the Contract Rummy family."),
            "start_url": url_for("home.index"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#fbfaf6",
            "theme_color": THEME_COLOR,
            "icons": [
                {
                    "src": url_for(icon, filename="icons/icon-192.png"),
                    "sizes": "192x192",
                    "type": "image/png",
                    "purpose": "any",
                },
                {
                    "src": url_for(icon, filename="icons/icon-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "any",
                },
                {
                    "src": url_for(icon, filename="icons/maskable-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
            ],
        }
    )
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served from the root so it may look after every page."""
    response = send_from_directory(current_app.static_folder or "static", "js/sw.js")
    response.mimetype = "text/javascript"
    response.headers["Cache-Control"] = "no-cache"  # a new version reaches phones at once
    return response
