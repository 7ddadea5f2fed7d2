"""The table's switch for the family rating (off by default)."""

from __future__ import annotations

from flask import Blueprint, g, request, url_for
from werkzeug.wrappers import Response

from ..tables.rating import switch
from .posted import BadField
from .rendering import go_to
from .table_door import TABLE, protect_table, require_table_edit

bp = Blueprint("party_rating", __name__, url_prefix=TABLE)
protect_table(bp)


@bp.post("/rating")
def update(table_id: int) -> Response:
    """Turn the table's rating on or off, and go back to the table."""
    require_table_edit()
    wanted = request.form.get("rating", "")
    if wanted not in ("on", "off"):
        raise BadField("rating")
    switch(g.table, wanted == "on")
    return go_to(url_for("tables.show", table_id=g.table.id))
