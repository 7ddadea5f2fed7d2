"""The bare stack the bench measures against: Flask + Flask-SQLAlchemy and nothing of ours.

Three pages: a static page, a one-row insert answering a fragment, a 56-cell table read from
the database. Its SQLite gets the app's durability (WAL, synchronous FULL), so a write
compares the work of the apps, not two journal modes.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, render_template_string, request
from flask_sqlalchemy import SQLAlchemy
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
ITEM = '<li id="item-{{ item.id }}">{{ item.text }}</li>'


class Item(db.Model):  # type: ignore[name-defined,misc]
    """One inserted row."""

    id: Mapped[int] = mapped_column(primary_key=True)
    text: Mapped[str] = mapped_column(String(40))


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
        """Insert one row and answer it as a fragment."""
        item = Item(text=request.form.get("text", "item")[:40])
        db.session.add(item)
        db.session.commit()
        return render_template_string(ITEM, item=item)

    @app.get("/table")
    def table() -> str:
        """The 56 cells read from the database as a table."""
        cells = db.session.scalars(select(Cell).order_by(Cell.row, Cell.column)).all()
        rows = [cells[r * COLUMNS : (r + 1) * COLUMNS] for r in range(ROWS)]
        return render_template_string(TABLE, rows=rows)

    return app
