"""The bare stack the bench measures against: Flask + Flask-SQLAlchemy and nothing of ours.

Each request is the nearest equivalent of one of ours (bench/cost_table.py pairs them):
- `/static-page`: no database work, a 200-byte page: ours' unchanged poll, which reads one row;
- `/table`: the 56 cells of a 7-round sheet for 8 players read in one select, in a small table;
- `/page`: the same 56 cells in one select, each drawn with a form and its buttons, about as
  long as our round screen (30 KiB): ours' round screen and score sheet, each one select;
- `/items` (a form, answering a fragment) and `/api/items` (JSON, answering JSON): one row
  inserted with its history row, two statements in one transaction: ours' buy, its take-back,
  a round's end.
Its SQLite gets the app's durability (WAL, synchronous FULL), so a write compares the work of
the apps, not two journal modes.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_sqlalchemy import SQLAlchemy
from jinja2 import DictLoader
from sqlalchemy import String, event, select
from sqlalchemy.orm import Mapped, mapped_column

db = SQLAlchemy()
ROWS, COLUMNS = 7, 8  # a 7-round sheet for 8 players: 56 cells
STATIC_PAGE = (
    "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Static</title></head>"
    "<body><main><h1>A static page</h1><p>Nothing here is read from a database.</p></main>"
    "</body></html>"
)
TABLE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Table</title></head>
<body><table>{% for row in rows %}<tr>
{% for cell in row %}<td>{{ cell.value }}</td>{% endfor %}</tr>
{% endfor %}</table></body></html>"""
ITEM = '<li id="item-{{ item["id"] }}">{{ item["text"] }}</li>'
# Each cell a form with a counter and two buttons, as the round screen draws each player's buys.
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page</title>
<link rel="stylesheet" href="/static/app.css"></head><body><main><h1>Round 7</h1>
{% for row in rows %}<section class="row" id="row-{{ loop.index }}">
{% for cell in row %}<form class="cell" method="post" action="/items" hx-post="/items"
 hx-target="#cell-{{ cell.id }}" hx-swap="outerHTML"><input type="hidden" name="text"
 value="cell {{ cell.id }}"><output id="cell-{{ cell.id }}" class="count">{{ cell.value }}</output>
<button type="submit" name="add" value="{{ cell.column }}" class="button add">Add one</button>
<button type="submit" name="remove" value="{{ cell.column }}" class="button remove">Take one
 back</button><small class="note">row {{ cell.row }}, column {{ cell.column }}</small></form>
{% endfor %}</section>
{% endfor %}</main></body></html>"""


class Item(db.Model):  # type: ignore[name-defined,misc]
    """One inserted row."""

    id: Mapped[int] = mapped_column(primary_key=True)
    text: Mapped[str] = mapped_column(String(40))


class Change(db.Model):  # type: ignore[name-defined,misc]
    """The history row written with each item, as ours writes one with each change."""

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int]
    kind: Mapped[str] = mapped_column(String(20))


class Cell(db.Model):  # type: ignore[name-defined,misc]
    """One cell of the table page."""

    id: Mapped[int] = mapped_column(primary_key=True)
    row: Mapped[int]
    column: Mapped[int]
    value: Mapped[int]


def _sqlite_durable(dbapi_connection: Any, _record: Any) -> None:
    """The same SQLite settings as the app: WAL, synchronous FULL."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def create_app(database_url: str) -> Flask:
    """The bare app on a database; makes its tables and the 56 cells on first start."""
    app = Flask(__name__)
    # Loaded by name, so each is compiled once, as our templates are (a string is compiled again
    # at every render_template_string).
    app.jinja_loader = DictLoader({"item.html": ITEM, "table.html": TABLE, "page.html": PAGE})
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url
    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _sqlite_durable)
        db.create_all()
        if db.session.scalar(select(Cell.id).limit(1)) is None:
            cells = [
                Cell(row=r, column=c, value=r * c) for r in range(ROWS) for c in range(COLUMNS)
            ]
            db.session.add_all(cells)
            db.session.commit()

    @app.get("/static-page")
    def static_page() -> str:
        """A page with no database work."""
        return STATIC_PAGE

    @app.post("/items")
    def insert() -> str:
        """Insert one row and its history row, and answer it as a fragment."""
        return render_template("item.html", item=_added(request.form.get("text", "item")))

    @app.post("/api/items")
    def insert_json() -> ResponseReturnValue:
        """Insert one row and its history row, and answer it as JSON."""
        return jsonify(_added(str((request.get_json(silent=True) or {}).get("text", "item")))), 201

    @app.get("/table")
    def table() -> str:
        """The 56 cells read from the database as a table."""
        return render_template("table.html", rows=_rows())

    @app.get("/page")
    def page() -> str:
        """The 56 cells read from the database, each drawn as a form: a round screen's size."""
        return render_template("page.html", rows=_rows())

    return app


def _added(text: str) -> dict[str, Any]:
    """One row and its history row, in one transaction: two statements (what it answers is
    taken before the commit, which would expire it and read it back)."""
    item = Item(text=text[:40])
    db.session.add(item)
    db.session.flush()
    db.session.add(Change(item_id=item.id, kind="added"))
    added = {"id": item.id, "text": item.text}
    db.session.commit()
    return added


def _rows() -> list[list[Cell]]:
    """The 56 cells in one select, by row."""
    cells = db.session.scalars(select(Cell).order_by(Cell.row, Cell.column)).all()
    return [list(cells[r * COLUMNS : (r + 1) * COLUMNS]) for r in range(ROWS)]
