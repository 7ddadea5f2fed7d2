"""Schemathesis against /api/openapi.json on each database: no 5xx, no answer off the document."""

from __future__ import annotations

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from schemathesis import Case, GenerationMode
from schemathesis.config import SchemathesisConfig

from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.models import Game
from scorekeeper.rules.presets import MAY_I
from tests.figures import FIGURES

pytestmark = pytest.mark.storage

EXAMPLES = 80  # per operation and mode: about 2,000 requests per database, a minute of CPU
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "negative_data_rejection",
)
FUZZ = "schemathesis against /api/openapi.json"  # its figures: requests and 5xx per database


def load(app: Flask, game_id: int) -> schemathesis.BaseSchema:
    """The app's own document, served in-process, with the game's id in every URL."""
    config = SchemathesisConfig.from_dict(
        {
            "parameters": {"game_id": game_id},
            "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECKS}},
        }
    )
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=config)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_answers_every_generated_request_as_documented(
    app: Flask, database_url: str, mode: GenerationMode
) -> None:
    with app.app_context():
        game_id = actions.create_game(MAY_I, ["Anna", "Ben", "Carla", "Dev"], 0).id
    backend = database_url.split(":", 1)[0]
    operations = [result.ok() for result in load(app, game_id).get_all_operations()]
    for operation in operations:
        if mode == GenerationMode.NEGATIVE and not list(operation.body):
            continue  # only a body can be sent off the document: the game's id is given

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
        def answers_as_documented(case: Case) -> None:
            with app.app_context():
                token = db.session.get(Game, game_id).edit_token  # a fuzzed call may replace it
                db.session.remove()
            # identity: the WSGI transport hands the body over as sent, and does not gunzip it
            headers = {"Authorization": f"Bearer {token}", "Accept-Encoding": "identity"}
            response = case.call(headers=headers)
            FIGURES[f"{FUZZ}:{backend} requests"] += 1
            FIGURES[f"{FUZZ}:{backend} 5xx"] += response.status_code >= 500
            case.validate_response(response)

        answers_as_documented()
    sent, failed = FIGURES[f"{FUZZ}:{backend} requests"], FIGURES[f"{FUZZ}:{backend} 5xx"]
    assert sent >= EXAMPLES and failed == 0
