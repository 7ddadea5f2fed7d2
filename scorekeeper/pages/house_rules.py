"""The house-rule editor: a table's own rule sets, made from a preset, a saved set or a game."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, abort, flash, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from .. import house_rules
from ..i18n import translate, translate_text
from ..models import HouseRules
from ..rules.bounds import MAX_DECK_RULES, MAX_ROUNDS, MIN_ROUNDS
from ..rules.errors import RuleError, RuleSetInvalid
from ..rules.presets import HOUSE_KEY, MAY_I, PRESETS
from ..rules.rules_card import rules_card, summary
from ..rules.ruleset import RuleSet
from ..rules.ruleset_json import ruleset_from_dict, ruleset_from_json, ruleset_to_dict
from ..rules.sheet_words import set_name
from .remembered_rule_sets import remember, rules_by_key, saved_here
from .rendering import go_to, respond
from .ruleset_form import (
    apply,
    clipped,
    decode,
    encode,
    flatten,
    read_form,
)

bp = Blueprint("house_rules", __name__, url_prefix="/house-rules")
EDITOR, EDITOR_FRAGMENT = "house_rules/edit.html", "house_rules/_editor.html"
FILE_LIMIT = 64_000  # a rule set is about 2 kB; anything far larger is no rule set
SET = "/<int:ruleset_id>/<token>"  # a set opens by its id and secret token, as a game does


@dataclass
class Draft:
    """The editor's form as typed: its data, the rule set when valid, each field's problems."""

    data: dict[str, Any]
    rules: RuleSet | None = None
    errors: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, data: dict[str, Any]) -> Draft:
        """Check the data with the rules engine; the problems translated, by field."""
        data = {**data, "key": HOUSE_KEY}
        try:
            return cls(data, ruleset_from_dict(data))
        except RuleSetInvalid as error:
            errors = {
                path: [translate(m) for m in messages] for path, messages in error.errors.items()
            }
            return cls(data, None, errors)

    @classmethod
    def from_rules(cls, rules: RuleSet, name: str | None = None) -> Draft:
        """A draft of a rule set, named for the table's language."""
        return cls.of({**ruleset_to_dict(rules), "name": name or translate_text(set_name(rules))})


def _editor(draft: Draft, saved: HouseRules | None = None, status: int = 200) -> Response:
    """The editor page, or its form and card for htmx."""
    return respond(
        EDITOR,
        EDITOR_FRAGMENT,
        status,
        draft=draft,
        values=flatten(draft.data),
        saved=saved,
        sections=rules_card(draft.rules) if draft.rules else [],
        card_summary=summary(draft.rules) if draft.rules else None,
        limits={"min_rounds": MIN_ROUNDS, "max_rounds": MAX_ROUNDS, "max_decks": MAX_DECK_RULES},
    )


def _index(status: int = 200, import_errors: list[str] | None = None) -> Response:
    """The list of saved sets, with where to start a new one and the import form."""
    page = "house_rules/index.html"
    return respond(
        page,
        page,
        status,
        saved=saved_here(),
        presets=PRESETS.values(),
        import_errors=import_errors or [],
    )


@bp.get("/")
def index() -> Response:
    """List the saved house rule sets."""
    return _index()


@bp.get("/new")
def new() -> Response:
    """Open the editor on a preset, a saved set, or rules packed into a link (a game's)."""
    if "rules" in request.args:
        return _editor(Draft.of(clipped(decode(request.args["rules"]))))
    rules = rules_by_key(request.args.get("from", MAY_I.key))
    if rules is None:
        abort(404)
    # Named apart from what it starts from: saved as it is, New game lists two sets, not twins.
    started_from = translate_text(set_name(rules))
    return _editor(Draft.from_rules(rules, gettext("Copy of %(name)s", name=started_from)))


@bp.post("/check")
def check() -> Response:
    """Check the form as typed (and add, remove or move a round or deck rule)."""
    data = apply(read_form(request.form), request.form.get("op", ""))
    saved_id, token = request.form.get("saved", ""), request.form.get("saved_token", "")
    saved = house_rules.get(int(saved_id), token) if re.fullmatch("[0-9]{1,10}", saved_id) else None
    return _editor(Draft.of(data), saved)


@bp.post("/")
def create() -> Response:
    """Save the editor's rule set under its name."""
    draft = Draft.of(read_form(request.form))
    if draft.rules is None:
        return _editor(draft, status=422)
    return _listed(house_rules.create(draft.rules.name, draft.rules))


@bp.get(f"{SET}/edit")
def edit(ruleset_id: int, token: str) -> Response:
    """Open the editor on a saved set (and remember its link: it was shared with this browser)."""
    saved = house_rules.get(ruleset_id, token)
    remember(saved)
    return _editor(Draft.from_rules(house_rules.rules_of(saved), saved.name), saved)


@bp.post(SET)
def update(ruleset_id: int, token: str) -> Response:
    """Save changes to a saved set; games started with it keep their copy."""
    saved = house_rules.get(ruleset_id, token, change=True)
    draft = Draft.of(read_form(request.form))
    if draft.rules is None:
        return _editor(draft, saved, status=422)
    return _listed(house_rules.update(saved, draft.rules.name, draft.rules))


@bp.post(f"{SET}/duplicate")
def duplicate(ruleset_id: int, token: str) -> Response:
    """Save a copy of a saved set and open it in the editor."""
    saved = house_rules.get(ruleset_id, token)
    copy = house_rules.duplicate(saved, gettext("Copy of %(name)s", name=saved.name))
    remember(copy)
    return go_to(url_for(".edit", ruleset_id=copy.id, token=copy.token))


@bp.post(f"{SET}/delete")
def delete(ruleset_id: int, token: str) -> Response:
    """Delete a saved set; games started with it keep their copy."""
    house_rules.delete(house_rules.get(ruleset_id, token, change=True))
    return go_to(url_for(".index"))


@bp.get(f"{SET}/rules.json")
def export(ruleset_id: int, token: str) -> Response:
    """Download a saved set as a JSON file another table can import."""
    rules = house_rules.rules_of(house_rules.get(ruleset_id, token))
    body = json.dumps({**ruleset_to_dict(rules), "key": HOUSE_KEY}, ensure_ascii=False, indent=2)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="house-rules-{ruleset_id}.json"'
    )
    return response


@bp.post("/import")
def import_file() -> Response:
    """Save a rule set from a JSON file exported here or written by hand."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _index(422, [gettext("Choose a rule set file.")])
    raw = upload.read(FILE_LIMIT + 1)
    try:
        if len(raw) > FILE_LIMIT:
            return _index(422, [gettext("This file is too large to be a rule set.")])
        rules = ruleset_from_json(raw.decode("utf-8"))
        saved = house_rules.create(rules.name, rules)
    except (UnicodeDecodeError, RecursionError):  # not text, or nested past any rule set
        return _index(422, [gettext("This file is not a rule set.")])
    except RuleSetInvalid as error:
        return _index(
            422,
            [
                f"{path or gettext('File')}: {translate(m)}"
                for path, ms in error.errors.items()
                for m in ms
            ],
        )
    except RuleError as error:
        return _index(422, [translate(error.message)])
    return _listed(saved)


@bp.get(f"{SET}/share")
def share(ruleset_id: int, token: str) -> Response:
    """A link and QR code that carry the whole rule set, so another phone can import it."""
    saved = house_rules.get(ruleset_id, token)
    page = "house_rules/share.html"  # it builds the link with public_url, never from Host
    return respond(page, page, saved=saved, packed=encode(saved.rules_json))


@bp.get("/shared")
def shared() -> Response:
    """A shared rule set: its card, and a button to save it on this phone."""
    draft = Draft.of(_shared_data())
    page = "house_rules/shared.html"
    sections = rules_card(draft.rules) if draft.rules else []
    card = summary(draft.rules) if draft.rules else None
    status = 200 if draft.rules else 422
    return respond(
        page,
        page,
        status,
        draft=draft,
        packed=request.args.get("r", ""),
        sections=sections,
        card_summary=card,
    )


@bp.post("/shared")
def save_shared() -> Response:
    """Save a shared rule set on this phone."""
    draft = Draft.of(_shared_data(request.form.get("r", "")))
    if draft.rules is None:
        abort(422)
    return _listed(house_rules.create(draft.rules.name, draft.rules))


def _listed(saved: HouseRules) -> Response:
    """Back to the list, saying what was saved; this browser remembers the set's link."""
    remember(saved)
    flash(gettext("Saved “%(name)s”.", name=saved.name), "success")
    return go_to(url_for(".index"))


def _shared_data(packed: str | None = None) -> dict[str, Any]:
    data = decode(packed if packed is not None else request.args.get("r", ""))
    return data if isinstance(data, dict) else {}
