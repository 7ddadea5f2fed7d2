"""Schemathesis against /api/openapi.json on each database, every check on: requests on the
document (the fuzzing phase's positive mode) and sequences that follow what one answer names
into the next request (the stateful phase). No 5xx, and the server accepts and answers exactly
what the document says. Requests off the document: test_fuzz_off_document.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis import Case, GenerationMode

from tests.api.fuzzing import FUZZ, IDENTITY, SCENARIOS, fuzz, load, start_game
from tests.figures import FIGURES

pytestmark = pytest.mark.storage


def test_the_api_answers_every_request_on_the_document_as_documented(
    app: Flask, database_url: str
) -> None:
    fuzz(app, database_url, GenerationMode.POSITIVE)


def test_sequences_of_calls_answer_as_documented(app: Flask, database_url: str) -> None:
    game_id, backend = start_game(app), database_url.split(":", 1)[0]
    machine: Any = load(app, game_id).as_state_machine()

    class Table(machine):  # type: ignore[misc,valid-type]
        """A phone calling the API in sequences, with the links it was given."""

        def get_call_kwargs(self, case: Case) -> dict[str, Any]:
            FIGURES[f"{FUZZ}:{backend} stateful requests"] += 1
            return {"headers": IDENTITY}

    Table.run(
        settings=settings(
            max_examples=SCENARIOS,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            stateful_step_count=6,
        )
    )
    assert FIGURES[f"{FUZZ}:{backend} stateful requests"] >= SCENARIOS
