"""Schemathesis' requests off /api/openapi.json on each database (the fuzzing phase's negative
mode: bodies the document does not allow): each refused at 4xx as documented, never a 5xx.
A file of its own so that it runs beside test_fuzz.py on another worker.
"""

from __future__ import annotations

import pytest
from flask import Flask
from schemathesis import GenerationMode

from tests.api.fuzzing import fuzz

pytestmark = pytest.mark.storage


def test_the_api_refuses_every_request_off_the_document_as_documented(
    app: Flask, database_url: str
) -> None:
    fuzz(app, database_url, GenerationMode.NEGATIVE)
