"""Extension singletons, bound to the app in create_app."""

from flask_babel import Babel
from flask_htmx import HTMX
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for every model."""


# Objects stay loaded after a commit: a change's answer is drawn from the facts it just
# wrote, without reading the game again (each request has its own session).
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
csrf = CSRFProtect()
htmx = HTMX()
babel = Babel()
