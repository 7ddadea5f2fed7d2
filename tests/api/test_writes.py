"""A change to the round being played answers, and keeps, the game a fresh read shows, and
writes the same history rows as ever: whether it starts from a kept state or from the facts.
A saved round's end, an undo of each kind of change and a replaced link answer and keep the
facts and state a fresh read makes: each is written in plain statements, nothing read back."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Text, cast, insert, select

from scorekeeper.api.answers import Game
from scorekeeper.extensions import db
from scorekeeper.games.facts import read_game
from scorekeeper.games.state import game_state
from scorekeeper.kept import EXTENSION, state_at
from scorekeeper.models import Change, RoundResult
from scorekeeper.rules.game_state import GameState

from .conftest import Api, assert_problem, buys_of

pytestmark = pytest.mark.storage

KEPT = EXTENSION  # the app's one cache (kept.py): its kept states among the rest


def round_changes(number: int, version: int) -> list[tuple[str, dict[str, Any], int]]:
    """Every kind of round change in round `number` of a game at `version`: (path, body, the
    answer's status), starting in a round where nothing happened yet."""
    return [
        ("/down", {"seat": 3, "action_id": f"d{number}"}, 201),  # the round's first fact
        ("/buys", {"seat": 1}, 201),
        ("/buys", {"seat": 2, "action_id": f"b{number}"}, 201),
        ("/buys", {"seat": 2, "action_id": f"b{number}"}, 200),  # a retry records nothing
        ("/buys/remove", {"seat": 1, "version": version + 2}, 200),  # before another's buy
        ("/run-outs", {"seen": 0, "action_id": f"r{number}"}, 201),
        ("/down", {"seat": 3, "down": False}, 201),
        ("/down", {"seat": 3, "down": False}, 200),  # taken back already: nothing to change
    ]


def fresh(api: Api) -> Any:
    """The game as a read of its facts shows it (the API's read keeps no state), but for the
    seat links, which only a read (or the start) through the edit link answers."""
    return {**api.state(), "seat_links": None}


def play_round(api: Api, app: Flask, number: int, forget: bool) -> None:
    """Every round change, each answer compared with a fresh read of the game."""
    for path, body, status in round_changes(number, api.version()):
        if forget:  # as on a server process that did not see the game's last version
            app.extensions.pop(KEPT, None)
        answer = api.ok("post", f"{api.url}{path}", body, status=status)
        game = answer.get("game", answer)
        assert game == fresh(api), path
        # What it kept, advanced from the state before (rules.game_state's `before`), is the
        # state the facts read afresh make.
        answered, read = saved_and_read(app, api)
        assert answered == read, path


@pytest.mark.parametrize("forget", [False, True], ids=["kept", "read"])
def test_each_round_change_answers_what_a_fresh_read_shows(
    app: Flask, api: Api, forget: bool
) -> None:
    api.start(ruleset="unlimited-buys")
    play_round(api, app, 1, forget)
    state = fresh(api)
    assert state["current_round"]["buys"][2]["bought"] == 1
    assert state["current_round"]["down"] == [] and state["current_round"]["run_outs"] == 1
    api.end_round(1, "Anna", {"Ben": 5, "Carla": 5, "Dev": 5})
    play_round(api, app, 2, forget)  # round 2: a round after a played one


def test_a_tiebreaker_round_row_names_the_tied_players(app: Flask, api: Api) -> None:
    api.start(players=["Anna", "Ben", "Carla"], ruleset="unlimited-buys")
    for number in range(1, 7):
        out, other = ("Anna", "Carla") if number % 2 else ("Carla", "Anna")
        api.end_round(number, out, {other: 10, "Ben": 50})
    api.end_round(7, "Ben", {"Anna": 5, "Carla": 5})
    response = api.call("post", f"{api.url}/buys", {"seat": 2})
    answer = response.json
    assert response.status_code == 201 and answer == fresh(api)
    assert answer["standings"]["explanation"]  # the tie, said: answered as the model says
    assert_answered_as_modelled(app, api, response)
    assert answer["current_round"]["seats"] == [0, 2]
    final = api.end_round(8, "Carla", {"Anna": "JK 5S"}).json
    assert final["finished"] is True and final["rounds"][-1]["is_tiebreaker"] is True


def test_round_changes_write_the_history_rows_undo_reads(app: Flask, api: Api) -> None:
    api.start(ruleset="unlimited-buys")
    for path, body, _status in round_changes(1, 1):
        api.call("post", f"{api.url}{path}", body)
    with app.app_context():
        rows = db.session.execute(
            select(
                Change.kind,
                Change.action_id,
                Change.round_number,
                Change.seat,
                Change.before,
                Change.after,
                Change.version,
                Change.before.is_(None),
                Change.after.is_(None),
                Change.undone_at,
            ).order_by(Change.id)
        ).all()
    buys = [row.after["buy_id"] for row in rows if row.kind == "buy"]
    assert [tuple(row[:4]) for row in rows] == [
        ("create", None, None, None),
        ("down", "d1", 1, 3),
        ("buy", None, 1, 1),
        ("buy", "b1", 1, 2),
        ("buy_removed", None, 1, 1),
        ("run_out", "r1", 1, None),
        ("down_removed", None, 1, 3),
    ]
    assert [(row.before, row.after) for row in rows[1:]] == [
        ({"down": []}, {"down": [3]}),
        (None, {"buy_id": buys[0]}),
        (None, {"buy_id": buys[1]}),
        (None, None),
        ({"run_outs": 0}, {"run_outs": 1}),
        ({"down": [3]}, {"down": []}),
    ]
    # Facts not given are SQL NULL, as the ORM wrote them; every change bumped the version.
    assert [tuple(row[7:9]) for row in rows[2:5]] == [(True, False), (True, False), (True, True)]
    assert [row.version for row in rows] == list(range(1, 8)) == [*range(1, 7), api.version()]
    assert all(row.undone_at is None for row in rows)
    for _ in range(3):  # each undone from its row, newest first
        api.ok("post", f"{api.url}/undo", {})
    current = fresh(api)["current_round"]
    assert [seat["bought"] for seat in current["buys"]] == [0, 1, 1, 0]
    assert (current["down"], current["run_outs"]) == ([3], 0)


def as_read(state: GameState) -> GameState:
    """A state with its time of change as a read answers it: SQLite keeps no time zone."""
    when = state.facts.updated_at
    facts = replace(state.facts, updated_at=when.replace(tzinfo=UTC) if not when.tzinfo else when)
    return replace(state, facts=facts)


def saved_and_read(app: Flask, api: Api) -> tuple[GameState, GameState]:
    """The state the last change (a save, an undo, a new link) answered and kept, and the one a
    fresh read of the facts makes."""
    with app.app_context():
        facts = read_game(api.game_id)
        db.session.remove()
        assert facts is not None
        answered = state_at(api.game_id, facts.version)
    assert answered is not None, "the change kept no state at the version it wrote"
    return as_read(answered), as_read(game_state(facts))


def assert_saved_as_read(app: Flask, api: Api, response: Any) -> None:
    """The save was accepted, and its facts and state are those a fresh read makes."""
    assert response.status_code == 200, response.get_data(as_text=True)
    answered, read = saved_and_read(app, api)
    assert answered.facts == read.facts
    assert answered == read


def test_each_saved_round_answers_the_facts_and_state_a_fresh_read_makes(
    app: Flask, api: Api
) -> None:
    api.start(players=["Anna", "Ben", "Carla"])
    api.buy("Ben")
    called = api.with_link(api.seat_link("Carla"), "post", f"{api.url}/seat/calls", {})
    assert called.status_code == 201  # an open call of the round: its end dismisses it
    assert_saved_as_read(app, api, api.end_round(1, "Anna", {"Ben": 10, "Carla": "KC JK"}))
    assert saved_and_read(app, api)[1].facts.calls == ()
    hand = {"round": 2, "cards": "KC KD JK", "action_id": "h2"}
    assert api.with_link(api.seat_link("Ben"), "put", f"{api.url}/seat/hand", hand).status_code
    api.with_link(api.seat_link("Anna"), "put", f"{api.url}/seat/hand", {"round": 2, "points": 9})
    # Ben's entry saved as sent, Anna's changed: both cleared, round 3's facts untouched.
    saved = api.end_round(2, "Carla", {"Ben": "KC KD JK", "Anna": 12})
    assert_saved_as_read(app, api, saved)
    assert saved_and_read(app, api)[1].facts.entered == ()
    for number in range(3, 7):
        out, other = ("Anna", "Carla") if number % 2 else ("Carla", "Anna")
        assert_saved_as_read(app, api, api.end_round(number, out, {other: 10, "Ben": 50}))
    # A correction of round 1: every running total after it moves.
    assert_saved_as_read(app, api, api.end_round(1, "Anna", {"Ben": 10, "Carla": 15}))
    assert_saved_as_read(app, api, api.end_round(7, "Ben", {"Anna": 8, "Carla": 5}))
    assert saved_and_read(app, api)[1].current.is_tiebreaker  # type: ignore[union-attr]
    # The tiebreaker's new row names the tied players; then a stock ending.
    tied = api.end_round(8, "Carla", {"Anna": "JK 5S"})
    assert_saved_as_read(app, api, tied)
    assert saved_and_read(app, api)[1].finished


def play_to_a_tiebreaker(api: Api) -> None:
    """Three players through round 7, Anna and Carla tied after it, and the tiebreaker played."""
    api.start(players=["Anna", "Ben", "Carla"])
    for number in range(1, 7):
        out, other = ("Anna", "Carla") if number % 2 else ("Carla", "Anna")
        api.end_round(number, out, {other: 10, "Ben": 50})
    api.end_round(7, "Ben", {"Anna": 5, "Carla": 5})
    api.end_round(8, "Carla", {"Anna": "JK 5S"})  # the tiebreaker


def test_a_correction_the_later_rounds_refuse_is_rolled_back(app: Flask, api: Api) -> None:
    play_to_a_tiebreaker(api)
    before = api.state()
    # Round 7 corrected so that Anna and Carla are no longer tied: round 8 has no place.
    refused = assert_problem(api.end_round(7, "Ben", {"Anna": 5, "Carla": 6}), 422)
    assert "No tiebreaker round is needed" in str(refused), refused
    assert api.state() == before


def undo_as_read(app: Flask, api: Api, kind: str, forget: bool) -> Any:
    """Undo the newest change, which is of `kind`: its answer and the state it keeps are what a
    fresh read makes, that change is marked undone, and the undo's own entry names it."""
    if forget:  # as on a server process that did not see the game's last version
        app.extensions.pop(KEPT, None)
    answer = api.ok("post", f"{api.url}/undo", {"action_id": f"u{api.version()}"})
    assert answer == fresh(api), kind
    answered, read = saved_and_read(app, api)
    assert answered.facts == read.facts, kind
    assert answered == read, kind
    with app.app_context():
        undo = db.session.scalars(select(Change).order_by(Change.id.desc()).limit(1)).one()
        assert (undo.kind, undo.after) == ("undo", None)
        undone = db.session.get_one(Change, undo.before["change_id"])
        assert (undo.round_number, undo.seat) == (undone.round_number, undone.seat)
        assert undo.action_id == f"u{undo.version - 1}" and undo.undone_at is None
        assert undone.kind == kind and undone.undone_at is not None
    return answer


@pytest.mark.parametrize("forget", [False, True], ids=["kept", "read"])
def test_each_undo_answers_and_keeps_the_facts_and_state_a_fresh_read_makes(
    app: Flask, api: Api, forget: bool
) -> None:
    api.start(players=["Anna", "Ben", "Carla"], ruleset="unlimited-buys")
    api.buy("Ben")
    assert buys_of(undo_as_read(app, api, "buy", forget)) == [0, 0, 0]
    api.buy("Ben")
    api.ok("post", f"{api.url}/buys/remove", {"seat": 1})
    # The take-back undone puts a new buy row back; undoing the buy then takes that one off.
    assert buys_of(undo_as_read(app, api, "buy_removed", forget)) == [0, 1, 0]
    assert buys_of(undo_as_read(app, api, "buy", forget)) == [0, 0, 0]
    api.ok("post", f"{api.url}/run-outs", {"seen": 0}, status=201)
    assert undo_as_read(app, api, "run_out", forget)["current_round"]["run_outs"] == 0
    api.ok("post", f"{api.url}/down", {"seat": 2}, status=201)
    assert undo_as_read(app, api, "down", forget)["current_round"]["down"] == []
    api.ok("post", f"{api.url}/down", {"seat": 2}, status=201)
    api.ok("post", f"{api.url}/down", {"seat": 2, "down": False}, status=201)
    assert undo_as_read(app, api, "down_removed", forget)["current_round"]["down"] == [2]
    api.end_round(1, "Anna", {"Ben": 10, "Carla": "KC JK"})
    reopened = undo_as_read(app, api, "result", forget)[
        "current_round"
    ]  # a round's first end: open again
    assert (reopened["number"], reopened["down"]) == (1, [2])
    api.end_round(1, "Anna", {"Ben": 10, "Carla": "KC JK"})
    api.end_round(2, "Carla", {"Anna": 5, "Ben": "KC KD"})
    saved = api.state()["rounds"][0]
    api.end_round(1, "Ben", {"Anna": 30, "Carla": 15})  # a correction
    assert undo_as_read(app, api, "result", forget)["current_round"]["number"] == 3
    assert api.state()["rounds"][0] == saved  # the round's end as first saved
    assert undo_as_read(app, api, "result", forget)["current_round"]["number"] == 2


def test_a_replaced_link_answers_and_keeps_the_state_a_fresh_read_makes(
    app: Flask, api: Api
) -> None:
    api.start(players=["Anna", "Ben", "Carla"])
    old = api.links["edit_token"]
    links = api.ok("post", f"{api.url}/links/edit", {})
    assert links["edit"] != old
    api.links["edit_token"] = links["edit"]
    answered, read = saved_and_read(app, api)
    assert answered == read and read.facts.edit_token == links["edit"]
    assert read.facts.view_token == links["view"]
    with app.app_context():
        entry = db.session.scalars(select(Change).order_by(Change.id.desc()).limit(1)).one()
    assert (entry.kind, entry.round_number, entry.before, entry.after) == (
        "rotate_link",
        None,
        None,
        {"role": "edit"},
    )


def test_a_round_end_and_its_undo_write_the_history_rows_the_orm_wrote(
    app: Flask, api: Api
) -> None:
    api.start(players=["Anna", "Ben", "Carla"])
    api.end_round(1, "Anna", {"Ben": 10, "Carla": "KC JK"})
    api.ok("post", f"{api.url}/undo", {})
    with app.app_context():
        rows = db.session.execute(
            select(
                Change.kind,
                Change.seat.is_(None),
                Change.before.is_(None),
                cast(Change.before, Text),
                Change.after.is_(None),
                cast(Change.after, Text),
            ).order_by(Change.id)
        ).all()
        hands = db.session.execute(select(cast(RoundResult.cards, Text))).all()
    # A round's first end has no `before`: the JSON text null, as the ORM wrote a None given.
    end = (
        '{"ended_by_stock": false, "cut_bonus_seat": null, "results": ['
        '{"seat": 0, "went_out": true, "points": 0, "cards": null}, '
        '{"seat": 1, "went_out": false, "points": 10, "cards": null}, '
        '{"seat": 2, "went_out": false, "points": 25, "cards": {"K": 1, "JK": 1}}]}'
    )
    assert [tuple(row) for row in rows[1:]] == [
        ("result", True, False, "null", False, end),
        ("undo", True, False, '{"change_id": 2}', True, None),
    ]
    assert hands == []  # the round open again


def test_an_undo_the_rules_refuse_is_rolled_back(app: Flask, api: Api) -> None:
    play_to_a_tiebreaker(api)
    before, version = api.state(), api.version()
    # A history entry (as a restored file could hold one) whose `before` puts back a round 7
    # that ties nobody: the tiebreaker after it has no place, so the rules refuse the undo.
    untied = {"ended_by_stock": False, "cut_bonus_seat": None, "results": [
        {"seat": 0, "went_out": False, "points": 5, "cards": None},
        {"seat": 1, "went_out": True, "points": 0, "cards": None},
        {"seat": 2, "went_out": False, "points": 6, "cards": None},
    ]}  # fmt: skip
    with app.app_context():
        entry = {"game_id": api.game_id, "kind": "result", "round_number": 7, "version": version}
        db.session.execute(insert(Change), [entry | {"before": untied, "after": None}])
        db.session.commit()
    refused = assert_problem(api.call("post", f"{api.url}/undo", {}), 422)
    assert "No tiebreaker round is needed" in str(refused), refused
    assert api.state() == before and api.version() == version
    with app.app_context():
        newest = db.session.scalars(select(Change).order_by(Change.id.desc()).limit(1)).one()
    assert (newest.kind, newest.undone_at) == ("result", None)  # not marked, no undo entry


def test_a_buy_derives_only_the_round_being_played(app: Flask, api: Api) -> None:
    api.start(ruleset="unlimited-buys")
    api.end_round(1, "Anna", {"Ben": 5, "Carla": 5, "Dev": 5})
    ended, _read = saved_and_read(app, api)
    api.ok("post", f"{api.url}/buys", {"seat": 1}, status=201)
    answered, read = saved_and_read(app, api)
    assert answered == read and answered.current.buys[1] == 1  # type: ignore[union-attr]
    # The played rounds were not scored again: the buy's state holds the very same scores.
    assert answered.outcomes is ended.outcomes and answered.standings is ended.standings
    api.end_round(2, "Ben", {"Anna": 5, "Carla": 5, "Dev": 5})
    answered, read = saved_and_read(app, api)
    assert answered == read and len(answered.outcomes) == 2


def assert_answered_as_modelled(app: Flask, api: Api, response: Any) -> None:
    """A change's answer (api.answers.answer_game: plain values, not validated) is, byte for
    byte, what `Game` validates and serialises from the state the change kept."""
    with app.test_request_context():
        facts = read_game(api.game_id)
        db.session.remove()
        assert facts is not None
        kept = state_at(api.game_id, facts.version)
        assert kept is not None
        modelled = Game.of(kept).model_dump_json()
    assert response.get_data(as_text=True) == modelled


def test_each_change_answers_the_game_as_its_model_says(app: Flask, api: Api) -> None:
    api.start(ruleset="unlimited-buys")
    api.end_round(1, "Anna", {"Ben": 5, "Carla": "KC JK", "Dev": 5})
    for path, body, status in round_changes(2, api.version()):
        response = api.call("post", f"{api.url}{path}", body)
        assert response.status_code == status, path
        if path != "/run-outs":  # a run-out answers what it was, the game within
            assert_answered_as_modelled(app, api, response)
    assert_answered_as_modelled(app, api, api.call("post", f"{api.url}/undo", {}))
