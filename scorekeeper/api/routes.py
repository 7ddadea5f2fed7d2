"""The JSON API, version 1: rule sets, games and their rounds, and the rules engine's checks."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from ..games import actions, round_end
from ..games.history import changes
from ..games.may_i import rule_on_call
from ..games.opening import open_for_change, open_for_read, reread
from ..i18n import translate_text
from ..models import LARGEST_INTEGER
from ..rules.game_state import GameState
from ..rules.messages import N_, msg
from ..rules.presets import PRESETS
from . import (
    conflicts,
    house_rules,
    openapi,
    problems,
    seat_hands,
    seats,
    sharing,
    table_files,
    table_people,
    tables,
)
from .access import game_access
from .answer_base import answer
from .answers import (
    Change,
    GameCreated,
    GameWithWarnings,
    MeldCheck,
    RuleSetEntry,
    Ruling,
    RunOut,
    Tally,
)
from .check_requests import MeldCheckRequest, TallyRequest
from .fields import MAX_NUMBER, PresetKey
from .game_answers import Game
from .hands import check_melds, round_end_of, tally, warnings_at_hands
from .openapi import documented
from .problems import Problem
from .reading import read, read_json
from .requests import Action, Call, DownMark, NewGame, RoundResult, RunOutReport, SeatChange

bp = Blueprint("api", __name__, url_prefix="/api")
# Before any route: a rule's converters are looked up when the rule is added.
bp.record_once(lambda state: state.app.url_map.converters.setdefault("preset", PresetKey))
GAME = f"/v1/games/<int(max={LARGEST_INTEGER}):game_id>"
problems.register(bp)
conflicts.register(bp)
sharing.register(bp, GAME)
seats.register(bp, GAME)
seat_hands.register(bp, GAME)
house_rules.register(bp)
tables.register(bp)
table_people.register(bp)
table_files.register(bp, GAME)


@bp.before_request
def require_json() -> None:
    """Take a change only as JSON: a cross-site form cannot send it without a CORS preflight.

    A DELETE carries no body, and no form can send one across sites.
    """
    if request.method not in ("GET", "HEAD", "OPTIONS", "DELETE") and not request.is_json:
        raise Problem(415, msg(N_("Send the request body as application/json.")))


def changed(state: GameState, before: GameState) -> int:
    """201 when the action changed something, 200 when a repeated action_id changed nothing."""
    return 201 if state.facts.version != before.facts.version else 200


@bp.get("/openapi.json")
@documented({200: None})
def openapi_show() -> Response:
    """Describe the API as an OpenAPI 3.1 document."""
    return jsonify(openapi.document(current_app))


@bp.get("/v1/rulesets")
@documented({200: list[RuleSetEntry]})
def rulesets_index() -> tuple[Response, int]:
    """List the preset rule sets, each in full."""
    entries = [RuleSetEntry.of(rules).model_dump(mode="json") for rules in PRESETS.values()]
    return jsonify(entries), 200


@bp.get("/v1/rulesets/<preset:key>")
@documented({200: RuleSetEntry}, errors=(404,))
def rulesets_show(key: str) -> tuple[Response, int]:
    """Show one preset rule set."""
    if key not in PRESETS:
        raise Problem(404, msg(N_("There is no rule set %(key)s."), key=key))
    return answer(RuleSetEntry.of(PRESETS[key]))


@bp.post("/v1/games")
@documented({201: GameCreated}, NewGame, errors=(409,))
def games_create() -> tuple[Response, int, dict[str, str]]:
    """Start a game: rule set, players in seat order, first dealer (null: cut at random)."""
    new = read(NewGame)
    rules = house_rules.chosen(new.ruleset, new.ruleset_token)
    game = actions.create_game(rules, new.players, new.first_dealer, new.decks)
    links = {"edit_token": game.edit_token, "view_token": game.view_token}
    state = reread(game.id)
    created = GameCreated(**Game.fields_of(state), links=links)
    created.seat_links = seats.links_of(state)  # the creator holds the edit link
    response, status = answer(created, 201)
    return response, status, {"Location": url_for(".games_show", game_id=game.id)}


@bp.get(GAME)
@documented({200: Game})
def games_show(game_id: int) -> tuple[Response, int]:
    """Show a game: table, rules, the round now, rounds played, totals and standings."""
    access = game_access(game_id, change=False)
    state = open_for_read(game_id, access)
    return answer(seats.with_links(Game.of(state), state, access))


@bp.post(f"{GAME}/buys")
@documented({201: Game, 200: Game}, SeatChange)
def buys_create(game_id: int) -> tuple[Response, int]:
    """Add a "May I?" buy (200 when the action_id was already used)."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    buy = read(SeatChange, players=state.players)
    after = actions.add_buy(state, buy.seat, buy.action_id, buy.version)
    return answer(Game.of(after), changed(after, state))


@bp.post(f"{GAME}/buys/remove")
@documented({200: Game}, SeatChange)
def buys_remove(game_id: int) -> tuple[Response, int]:
    """Take back a player's last buy this round (a mis-tap)."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    mistap = read(SeatChange, players=state.players)
    return answer(Game.of(actions.remove_buy(state, mistap.seat, mistap.action_id, mistap.version)))


@bp.post(f"{GAME}/down")
@documented({201: Game, 200: Game}, DownMark)
def down_create(game_id: int) -> tuple[Response, int]:
    """Mark that a player's contract is down this round, or take the mark back."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    mark = read(DownMark, players=state.players)
    after = actions.mark_down(state, mark.seat, mark.down, mark.action_id)
    return answer(Game.of(after), changed(after, state))


@bp.post(f"{GAME}/arbiter")
@documented({200: Ruling, 201: Ruling}, Call)
def arbiter_rule(game_id: int) -> tuple[Response, int]:
    """Say who gets a discard and why; with "add_buy", add the buy when it is one."""
    body = read_json()
    # Only the edit link may add the buy; "record" is the field's deprecated old name.
    adding = body.get("add_buy") is True or body.get("record") is True
    access = game_access(game_id, change=adding)
    state = open_for_change(game_id, access) if adding else open_for_read(game_id, access)
    call = read(Call, players=state.players)
    ruling = rule_on_call(
        state, call.discarder, call.callers, call.turn_player_draws, call.bought_above
    )
    winner = ruling.winner if call.adds_buy and ruling.is_buy else None
    if winner is None:
        return answer(Ruling.of(ruling, None), 200)
    after = actions.add_buy(state, winner, call.action_id, call.version, call.bought_above)
    return answer(Ruling.of(ruling, Game.of(after)), 201)


@bp.post(f"{GAME}/run-outs")
@documented({201: RunOut, 200: RunOut}, RunOutReport)
def run_outs_create(game_id: int) -> tuple[Response, int]:
    """Say that the stock ran out, and what the table does now."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    report = read(RunOutReport)  # its version is taken but `seen` settles two taps for one
    outcome, after = actions.add_run_out(state, report.seen, report.action_id)
    run_out = RunOut(
        number=outcome.number,
        ends_round=outcome.ends_round,
        instruction=translate_text(outcome.instruction),
        game=Game.of(after),
    )
    return answer(run_out, changed(after, state))


@bp.put(f"{GAME}/rounds/<int(max={MAX_NUMBER}):number>")
@documented({200: GameWithWarnings}, RoundResult)
def rounds_update(game_id: int, number: int) -> tuple[Response, int]:
    """Save or correct how a round ended: who went out (null: the stock) and every hand.

    Its warnings come in `warnings`; with `confirm_warnings` false a round that has any is
    not saved but answered with 422, each warning under its hand.
    """
    state = open_for_change(game_id, game_access(game_id, change=True))
    result = read(RoundResult, players=state.players)
    end = round_end_of(result, state, number)
    try:
        saved = round_end.save_result(
            state, number, end, result.action_id, result.version, result.confirm_warnings
        )
    except round_end.Unconfirmed as unconfirmed:
        raise Problem(422, errors=warnings_at_hands(unconfirmed.warnings)) from unconfirmed
    said = [translate_text(warning.message) for warning in saved.warnings]
    # A repeated action id changed nothing: the game as it stands is `state`, read with the lock.
    after = saved.state or state
    return answer(GameWithWarnings(**Game.fields_of(after), warnings=said))


@bp.post(f"{GAME}/undo")
@documented({200: Game}, Action)
def undo_create(game_id: int) -> tuple[Response, int]:
    """Undo the newest change that is not yet undone."""
    state = open_for_change(game_id, game_access(game_id, change=True))
    undo = read(Action)
    undone = actions.undo_last(state, undo.action_id, undo.version)
    # A repeated action id changed nothing: the game as it stands is `state`, read with the lock.
    return answer(Game.of(state if undone is None else undone.state))


@bp.get(f"{GAME}/history")
@documented({200: list[Change]})
def history_index(game_id: int) -> tuple[Response, int]:
    """List the game's changes, newest first, each as the table reads it."""
    state = open_for_read(game_id, game_access(game_id, change=False))
    names, regular = state.names, len(state.rules.rounds)
    return jsonify(
        [
            Change.of(change, names, regular).model_dump(mode="json")
            for change in changes(state.facts)
        ]
    ), 200


@bp.post("/v1/tally")
@documented({200: Tally}, TallyRequest)
def tally_create() -> tuple[Response, int]:
    """Count the penalty points of a hand: KC 7H JK is 32."""
    return answer(Tally(points=tally(read(TallyRequest))))


@bp.post("/v1/melds/check")
@documented({200: MeldCheck}, MeldCheckRequest)
def melds_check() -> tuple[Response, int]:
    """Check a laydown against a round's contract, or one book or run."""
    verdict = check_melds(read(MeldCheckRequest))
    reason = None if verdict.reason is None else translate_text(verdict.reason)
    return answer(MeldCheck(ok=verdict.ok, reason=reason, kind=verdict.kind, meld=verdict.meld))
