"""Reading what a form posts beyond its visible fields: hidden tokens, versions, seats, targets.

Each reader refuses a value no column or rule can take with 422 naming the field, before
anything is read or written, so hostile input never reaches the database as a 500.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import unquote

from flask import request
from flask_babel import gettext
from werkzeug.exceptions import UnprocessableEntity

from ..models import LARGEST_INTEGER

TOKEN = re.compile(r"[A-Za-z0-9_.:-]{1,64}\Z")  # the pages' action_id (anchored for WTForms)
LOCAL_PATH = re.compile(r"/[!-\[\]-~]*")  # "/" then visible ASCII but the backslash
DIGITS = re.compile(r"-?[0-9]{1,10}")  # ASCII only: "²".isdigit() and "١".isdigit() are true


class BadField(UnprocessableEntity):
    """A posted value this form cannot take; the error page names the field."""

    def __init__(self, field: str) -> None:
        said = gettext("The form field “%(field)s” holds a value it cannot take.", field=field)
        super().__init__(said)
        self.field = field


def posted_int(field: str, low: int = 0, high: int = LARGEST_INTEGER) -> int | None:
    """A whole number from the form, None when not sent; 422 when it is no number in range."""
    raw = request.form.get(field, "").strip()
    if not raw:
        return None
    if not DIGITS.fullmatch(raw) or not low <= int(raw) <= high:
        raise BadField(field)
    return int(raw)


def posted_version() -> int | None:
    """The game version the phone saw when it showed the form."""
    return posted_int("version")


def posted_action_id() -> str | None:
    """The form's one-time token against double taps; 422 when it is not one of ours."""
    raw = request.form.get("action_id", "")
    if not raw:
        return None
    if not TOKEN.fullmatch(raw):
        raise BadField("action_id")
    return raw


def tap_id(endpoint: str, seat: int) -> str | None:
    """The form's action id for one of its buttons: the id, the endpoint and the seat together.

    The buys region is one form with one action id and a button per player and endpoint. A
    retry of the same tap sends the same three, so it records once; a different tap after a
    lost answer (another player, or take-back) sends the same id with another endpoint or
    seat, so it is no duplicate and records. Hashed when longer than the column takes.
    """
    action_id = posted_action_id()
    if action_id is None:
        return None
    tap = f"{action_id}:{endpoint}:{seat}"
    return tap if len(tap) <= 64 else hashlib.sha256(tap.encode()).hexdigest()


def page_from(field: str = "before") -> int | None:
    """Where a page of a list starts (the query's "before"): an id in the columns' range.

    None (the newest first) when not given, no whole number, or past the range; an id
    below 1 starts after the oldest: no more to show.
    """
    raw = request.args.get(field, "")
    if not DIGITS.fullmatch(raw) or int(raw) > LARGEST_INTEGER:
        return None
    return max(int(raw), 0)


def ascii_index(raw: str, below: int) -> int | None:
    """A list index written in ASCII digits, below `below`; None for anything else."""
    if not raw.isascii() or not raw.isdecimal() or int(raw) >= below:
        return None
    return int(raw)


def local_target(default: str, field: str = "next") -> str:
    """The page a form asked to go back to, if it is a path on this site; else `default`.

    Browsers drop tabs and line breaks from URLs and read a backslash as a slash, so
    "/\\tevil" or "/\\\\evil" would leave the site: only plain visible ASCII is taken, and it
    must stay so when percent-decoded ("/%09/evil"), as some servers and proxies decode it.
    """
    target = request.form.get(field, "")
    return target if _is_local(target) and _is_local(unquote(target)) else default


def _is_local(target: str) -> bool:
    """A path on this site in visible ASCII: no "//host", no backslash, no hidden characters."""
    return bool(LOCAL_PATH.fullmatch(target)) and not target.startswith("//")
