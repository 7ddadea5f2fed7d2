"""What every API answer shares: closed JSON objects, sent with their status."""

from __future__ import annotations

from typing import Annotated

from flask import Response, jsonify
from pydantic import BaseModel, ConfigDict, Field

Count = Annotated[int, Field(ge=0)]
Score = int  # below 0 with the Liverpool cut bonus
Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]


class Answer(BaseModel):
    """A JSON object with exactly these fields, every one of them always sent."""

    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)


def answer(model: BaseModel, status: int = 200) -> tuple[Response, int]:
    """A model as the JSON answer, with its status."""
    return jsonify(model.model_dump(mode="json")), status
