"""The JSON API, version 1: rule sets, games and their rounds, and the rules engine's checks."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from ..games import actions, round_end
from ..games.history import changes
from ..games.may_i import rule_on_call
from ..games.state import game_state, load_game
from ..i18n import translate
from ..models import Game
from ..rules.laydown import BOOK, RUN, check_contract
from ..rules.messages import N_, msg
from ..rules.presets import PRESETS
from ..rules.table import table_setup
from . import conflicts, openapi, problems, sharing
from .access import open_game
from .answers import change_json, game_json, ruleset_json, ruling_json
from .hands import check_meld, points_of, read_hands, read_tapped
from .parse import read_body
from .problems import Problem

bp = Blueprint("api", __name__, url_prefix="/api")
problems.register(bp)
conflicts.register(bp)
sharing.register(bp)


@bp.before_request
def require_json() -> None:
    """Take a change only as JSON: a cross-site form cannot send it without a CORS preflight."""
    if request.method not in ("GET", "HEAD", "OPTIONS") and not request.is_json:
        raise Problem(415, msg(N_("Send the request body as application/json.")))


def game_answer(game_id: int, status: int = 200, **extra: Any) -> tuple[Response, int]:
    """The game's state as it now stands, with any extra fields."""
    return jsonify({**game_json(game_state(load_game(game_id))), **extra}), status


def changed(game: Game, before: int) -> int:
    """201 when the action recorded something, 200 when a repeated action_id recorded nothing."""
    return 201 if game.version != before else 200


@bp.get("/openapi.json")
def openapi_show() -> Response:
    """Describe the API as an OpenAPI 3.1 document."""
    return jsonify(openapi.document())


@bp.get("/v1/rulesets")
def rulesets_index() -> Response:
    """List the preset rule sets, each in full."""
    return jsonify([ruleset_json(rules) for rules in PRESETS.values()])


@bp.get("/v1/rulesets/<key>")
def rulesets_show(key: str) -> Response:
    """Show one preset rule set."""
    if key not in PRESETS:
        raise Problem(404, msg(N_("There is no rule set %(key)s."), key=key))
    return jsonify(ruleset_json(PRESETS[key]))


@bp.post("/v1/games")
def games_create() -> tuple[Response, int, dict[str, str]]:
    """Start a game: rule set, players in seat order, first dealer (null: cut at random)."""
    body = read_body()
    rules = body.ruleset()
    names = body.names("players")
    first_dealer = body.seat("first_dealer", max(len(names), 1), None, null=True)
    decks = body.integer("decks", None, null=True)
    body.finish()
    game = actions.create_game(rules, names, first_dealer, decks)
    links = {"edit_token": game.edit_token, "view_token": game.view_token}
    response, status = game_answer(game.id, 201, links=links)
    return response, status, {"Location": url_for(".games_show", game_id=game.id)}


@bp.get("/v1/games/<int:game_id>")
def games_show(game_id: int) -> tuple[Response, int]:
    """Show a game: table, rules, the round now, rounds played, totals and standings."""
    return jsonify(game_json(game_state(open_game(game_id, change=False)))), 200


@bp.post("/v1/games/<int:game_id>/buys")
def buys_create(game_id: int) -> tuple[Response, int]:
    """Record a "May I?" buy, unless the rules refuse it."""
    game = open_game(game_id, change=True)
    body = read_body()
    seat, action_id = body.seat("seat", len(game.seats)), body.action_id()
    version = body.version()
    body.finish()
    before = game.version
    actions.record_buy(game, seat, action_id, version)
    answer, _status = game_answer(game_id)  # reloads the game, so `changed` costs no query
    return answer, changed(game, before)


@bp.post("/v1/games/<int:game_id>/buys/remove")
def buys_remove(game_id: int) -> tuple[Response, int]:
    """Take back a player's last buy this round (a mis-tap)."""
    game = open_game(game_id, change=True)
    body = read_body()
    seat, action_id = body.seat("seat", len(game.seats)), body.action_id()
    version = body.version()
    body.finish()
    actions.remove_buy(game, seat, action_id, version)
    return game_answer(game_id)


@bp.post("/v1/games/<int:game_id>/arbiter")
def arbiter_rule(game_id: int) -> tuple[Response, int]:
    """Say who gets a discard and why; with "record", record the buy when it is one."""
    body = read_body()
    record = body.boolean("record")
    game = open_game(game_id, change=record)  # only the edit link may record the buy
    discarder = body.seat("discarder", len(game.seats))
    callers = body.seats("callers", len(game.seats))
    draws = body.boolean("turn_player_draws")
    action_id, version = body.action_id(), body.version()
    body.finish()
    ruling = rule_on_call(game_state(game), discarder, callers, draws)
    winner = ruling.winner if record and ruling.is_buy else None
    if winner is not None:
        actions.record_buy(game, winner, action_id, version)
    state = None if winner is None else game_json(game_state(load_game(game_id)))
    answer = {**ruling_json(ruling), "recorded": winner is not None, "game": state}
    return jsonify(answer), 200 if winner is None else 201


@bp.post("/v1/games/<int:game_id>/run-outs")
def run_outs_create(game_id: int) -> tuple[Response, int]:
    """Record that the stock ran out, and say what the table does now."""
    game = open_game(game_id, change=True)
    body = read_body()
    seen, action_id = body.integer("seen", None, null=True), body.action_id()
    body.version()  # taken like every change's; `seen` is what settles two taps for one run-out
    body.finish()
    before = game.version
    outcome = actions.record_run_out(game, seen, action_id)
    state = game_json(game_state(load_game(game_id)))
    answer = {
        "number": outcome.number,
        "ends_round": outcome.ends_round,
        "instruction": translate(outcome.instruction),
        "game": state,
    }
    return jsonify(answer), changed(game, before)


@bp.put("/v1/games/<int:game_id>/rounds/<int:number>")
def rounds_update(game_id: int, number: int) -> tuple[Response, int]:
    """Record or correct how a round ended: who went out (null: the stock) and every hand."""
    game = open_game(game_id, change=True)
    state = game_state(game)
    body = read_body()
    went_out = body.seat("went_out", state.players, null=True)
    hands = read_hands(body, state, number, went_out)
    cut = body.seat("cut_bonus_seat", state.players, None, null=True)
    action_id, version = body.action_id(), body.version()
    body.finish()
    warnings = round_end.record_result(game, number, went_out, hands, cut, action_id, version)
    return game_answer(game_id, warnings=[translate(warning) for warning in warnings])


@bp.post("/v1/games/<int:game_id>/undo")
def undo_create(game_id: int) -> tuple[Response, int]:
    """Undo the newest change that is not yet undone."""
    game = open_game(game_id, change=True)
    body = read_body()
    action_id, version = body.action_id(), body.version()
    body.finish()
    actions.undo_last(game, action_id, version)
    return game_answer(game_id)


@bp.get("/v1/games/<int:game_id>/history")
def history_index(game_id: int) -> Response:
    """List the game's changes, newest first, each as the table reads it."""
    game = open_game(game_id, change=False)
    names = tuple(seat.player.name for seat in game.seats)
    return jsonify([change_json(change, names) for change in changes(game)])


@bp.post("/v1/tally")
def tally_create() -> Response:
    """Count the penalty points of a hand: KC 7H JK is 32."""
    body = read_body()
    rules = body.ruleset(default="may-i")
    players = body.integer("players", 4)
    decks = body.integer("decks", None, null=True)
    tapped, field = read_tapped(body, ("cards", "counts"))
    body.finish()
    setup = table_setup(rules, players, 1, 0, decks)
    assert tapped is not None and not isinstance(tapped, int)
    return jsonify({"points": points_of(tapped, rules, setup, field)})


@bp.post("/v1/melds/check")
def melds_check() -> Response:
    """Check a laydown against a round's contract, or one book or run."""
    body = read_body()
    rules = body.ruleset(default="may-i")
    if body.has("meld"):
        cards, kind = body.cards("meld", body.value("meld")), body.choice("kind", (BOOK, RUN))
        number = body.integer("round", None, null=True)
        body.finish()
        verdict = check_meld(rules, kind, cards, number)
    else:
        melds = body.items("melds")
        laydown = [body.cards(f"melds.{i}", meld) for i, meld in enumerate(melds)]
        number = body.integer("round")
        body.finish()
        verdict = check_contract(laydown, rules, number)
    reason = None if verdict.reason is None else translate(verdict.reason)
    return jsonify({"ok": verdict.ok, "reason": reason, "kind": verdict.kind, "meld": verdict.meld})
