"""The table's switch for the family rating (off by default)."""

from __future__ import annotations

from flask import Blueprint, request, url_for
from werkzeug.wrappers import Response

from ..tables.rating import switch
from .posted import BadField
from .rendering import go_to
from .table_door import TABLES, current_table

bp = Blueprint("party_rating", __name__)  # under the table's door


@bp.post("/rating")
def update(table_id: int) -> Response:
    """Turn the table's rating on or off, and go back to the table."""
    TABLES.require_edit()
    wanted = request.form.get("rating", "")
    if wanted not in ("on", "off"):
        raise BadField("rating")
    switch(current_table(), wanted == "on")
    return go_to(url_for("table.show", table_id=current_table().id))
