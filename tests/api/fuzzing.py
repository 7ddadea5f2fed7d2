"""Schemathesis against /api/openapi.json, in-process: the document with a game's links, and
the fuzzing phase that test_fuzz.py (requests on the document, sequences) and
test_fuzz_off_document.py (requests off it) run on each database, split so two workers share
the suite's longest tests.
"""

from __future__ import annotations

import itertools
import os
import re
from typing import Any

import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from schemathesis import Case, GenerationMode
from schemathesis.config import SchemathesisConfig

from scorekeeper.extensions import db
from scorekeeper.games import actions, seat_links
from scorekeeper.models import Game, HouseRules
from scorekeeper.rules.presets import MAY_I
from tests.figures import FIGURES

# Per operation and mode: about 1,000 requests per database, half a minute of CPU, most of it
# schemathesis drawing the requests (profiled: 124 of 165 s). A deeper run sets the variable.
EXAMPLES = int(os.environ.get("SCOREKEEPER_FUZZ_EXAMPLES", "30"))
# A backup is the document's largest body: drawing one takes a quarter of a second of CPU
# (profiled: 18 of the 48 s a database's two modes took went to it), and
# tests/attacks/test_backups.py sends 60 hostile backups per database besides. So it draws a
# third as many (10 at the default).
FEWER = {"POST /api/v1/tables/restore": max(1, EXAMPLES // 3)}
SCENARIOS = 40  # stateful sequences per database
# A change the document allows can still be refused by the rules in the game's state (a
# fourth buy, a buy taken back that was never made, a round not reached, a rule set whose
# counts do not fit each other, a name of no visible letter, as rules/player_names.py reads
# names at a table): 422 with the rule's reason. Schemathesis' "schema-valid request
# rejected" cannot know the state, so for these operations 422 is an answer too.
RULES_DECIDE = (
    r"^/api/v1/(games$|games/\{game_id\}/|tally|melds/check|rulesets/(validate|saved)"
    r"|tables)"
)
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
FUZZ = "schemathesis against /api/openapi.json"  # its figures: requests and 5xx per database
SEAT = re.compile(r"/api/v1/games/\d+/seat(/|$)")  # a seat's own endpoints
SAVED = re.compile(r"/api/v1/rulesets/saved/(\d+)")


def load(app: Flask, game_id: int) -> schemathesis.BaseSchema:
    """The app's own document, served in-process, with the game's id in every URL and the link
    a table would send as the schema's own auth (so the auth checks know it is a real one)."""
    config = SchemathesisConfig.from_dict(
        {
            "parameters": {"game_id": game_id},
            "operations": [
                {
                    "include-path-regex": RULES_DECIDE,
                    "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}},
                }
            ],
        }
    )
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=config)

    @schema.auth(refresh_interval=None)
    class Link:
        """The game's edit link as it is now (a fuzzed call may have replaced it), or a saved
        set's own link for a set's URL."""

        def get(self, case: Case, _ctx: Any) -> str:
            return token_for(app, case, game_id)

        def set(self, case: Case, token: str, _ctx: Any) -> None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}

    return schema


def token_for(app: Flask, case: Case, game_id: int) -> str:
    """The link the request's URL names: a saved set's own, a seat's own for a seat's URL,
    else the game's edit link, or every third time its view link (its reads answer less, its
    changes 403)."""
    with app.app_context():
        game = db.session.get_one(Game, game_id)
        token = game.view_token if next(TURNS) % 3 == 2 else game.edit_token
        if SEAT.search(case.formatted_path):
            token = seat_links.links_of(game_id).get(0, token)
        found = SAVED.search(case.formatted_path)
        saved = db.session.get(HouseRules, int(found[1])) if found and len(found[1]) < 10 else None
        db.session.remove()
    return saved.token if saved is not None else token


TURNS = itertools.count()  # which link the next request sends


# identity: the WSGI transport hands the body over as sent, and does not gunzip it
IDENTITY = {"Accept-Encoding": "identity"}


def start_game(app: Flask) -> int:
    """A game of May I? for the fuzzer to play in; its id."""
    with app.app_context():
        return actions.create_game(MAY_I, ["Anna", "Ben", "Carla", "Dev"], 0).id


def fuzz(app: Flask, database_url: str, mode: GenerationMode) -> None:
    """Every operation's generated requests in this mode: no 5xx, every answer as documented."""
    game_id, backend = start_game(app), database_url.split(":", 1)[0]
    operations = [result.ok() for result in load(app, game_id).get_all_operations()]
    for operation in operations:
        if mode == GenerationMode.NEGATIVE and not list(operation.body):
            continue  # only a body can be sent off the document: the game's id is given

        examples = FEWER.get(f"{operation.method.upper()} {operation.path}", EXAMPLES)

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
        def answers_as_documented(case: Case) -> None:
            response = case.call(headers=IDENTITY)
            FIGURES[f"{FUZZ}:{backend} requests"] += 1
            FIGURES[f"{FUZZ}:{backend} 5xx"] += response.status_code >= 500
            case.validate_response(response)

        answers_as_documented()
    assert (
        FIGURES[f"{FUZZ}:{backend} requests"] >= EXAMPLES and FIGURES[f"{FUZZ}:{backend} 5xx"] == 0
    )
