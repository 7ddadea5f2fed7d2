"""A game as the API answers it, declared once: built from the engine's objects and documented
from these; a conflict's answer carries it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from flask import Response, current_app, request
from pydantic import Field
from pydantic_core import to_json
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..games import rematch, seat_links
from ..games.game_links import GameAccess
from ..games.opening import as_it_stands
from ..games.pending_hands import PendingHand as Entered
from ..games.refusals import Conflict as Stale
from ..i18n import translate_text
from ..models import LARGEST_INTEGER, iso
from ..rules.deal import describe_contract
from ..rules.game_facts import RoundFacts
from ..rules.game_state import CurrentRound, GameState
from ..rules.messages import N_, Message, msg
from ..rules.round_end import entered_points
from ..rules.ruleset import RuleSet
from .base import WHOLE_REQUEST, Answer, Count, Errors, Said, Score, Timestamp, With, answer_problem
from .base import Problem as Refusal

Data = dict[str, Any]  # an answer's fields as plain values


class RoundContract(Answer):
    books: Count
    runs: Count
    book_length: Count
    run_length: Count


class SeatBuys(Answer):
    seat: Count
    bought: Count
    left: Count | None


class CurrentRoundAnswer(Answer):
    """The round being played: contract, deal, decks, who deals, leads and cuts, buys, stock."""

    number: Count
    is_tiebreaker: bool
    seats: list[Count]
    contract: RoundContract
    contract_text: str
    deal: Count
    final_discard: bool
    decks: Count
    jokers: Count
    total_cards: Count
    dealer: Count
    first_player: Count
    cutter: Count | None
    buy_cap: Count | None
    buys: list[SeatBuys]
    last_buyer: Count | None
    down: list[Count] = Field(
        description="Whose contract is down this round, in the order laid down."
    )
    run_outs: Count
    ended_by_stock: bool
    stock_instruction: Said | None  # what the table does after the last run-out, all round long
    warnings: list[Said]


def current_round(current: CurrentRound) -> Data:
    """The round now as its answer has it: the round's own facts, then its deal's."""
    setup = current.setup
    contract = setup.contract
    return {
        "number": current.number,
        "is_tiebreaker": current.is_tiebreaker,
        "seats": list(current.seats),
        "contract": {
            "books": contract.books,
            "runs": contract.runs,
            "book_length": contract.book_length,
            "run_length": contract.run_length,
        },
        "contract_text": " + ".join(translate_text(part) for part in describe_contract(contract)),
        "deal": setup.deal,
        "final_discard": setup.final_discard,
        "decks": setup.decks,
        "jokers": setup.jokers,
        "total_cards": setup.total_cards,
        "dealer": current.dealer,
        "first_player": current.first_player,
        "cutter": current.cutter,
        "buy_cap": setup.buy_cap,
        "buys": [
            {"seat": seat, "bought": current.buys[seat], "left": current.buys_left[seat]}
            for seat in current.seats
        ],
        "last_buyer": current.last_buyer,
        "down": list(current.down),
        "run_outs": current.run_outs,
        "ended_by_stock": current.ended_by_stock,
        "stock_instruction": _said(current.instruction),
        "warnings": [translate_text(warning) for warning in setup.warnings],
    }


class HandAnswer(Answer):
    seat: Count
    went_out: bool
    points: Count
    cards: dict[str, Count] | None


class PlayedRound(Answer):
    """One played round: each seat's score, who went out, and each hand as entered."""

    number: Count
    is_tiebreaker: bool
    seats: list[Count]
    scores: list[Score | None]
    went_out: Count | None
    ended_by_stock: bool
    cut_bonus_seat: Count | None
    dealer: Count
    hands: list[HandAnswer]


def played_round(record: RoundFacts, scores: list[int | None], went_out: int | None) -> Data:
    """A round as stored, with its scores."""
    return {
        "number": record.number,
        "is_tiebreaker": record.tiebreak_seats is not None,
        "seats": [result.seat for result in record.results],
        "scores": scores,
        "went_out": went_out,
        "ended_by_stock": record.ended_by_stock,
        "cut_bonus_seat": record.cut_bonus_seat,
        "dealer": record.dealer,
        "hands": [
            {"seat": r.seat, "went_out": r.went_out, "points": r.points, "cards": r.cards}
            for r in record.results
        ],
    }


def played(state: GameState) -> list[Data]:
    """Rounds played, in order: regular rounds score toward the totals, tiebreakers do not."""
    rounds = []
    for number, outcome in enumerate(state.outcomes, start=1):
        rounds.append(played_round(state.rounds[number], list(outcome.scores), outcome.went_out))
    for number in sorted(n for n in state.rounds if n > len(state.rules.rounds)):
        record = state.rounds[number]
        if record.results:
            scores: list[int | None] = [None] * state.players
            for result in record.results:
                scores[result.seat] = result.points
            went_out = next((r.seat for r in record.results if r.went_out), None)
            rounds.append(played_round(record, scores, went_out))
    return rounds


class Player(Answer):
    seat: Count
    name: str


class StandingRow(Answer):
    seat: Count
    name: str
    total: Score
    rounds_out: Count
    place: Count


class StandingsAnswer(Answer):
    """Rows best first, the winners once decided, who plays a tiebreaker, and why."""

    rows: list[StandingRow]
    winners: list[Count]
    needs_tiebreaker: list[Count]
    explanation: list[Said]


class SeatLink(Answer):
    """One seat's own link: its token opens that seat's page and endpoints, nothing else."""

    seat: Count
    name: str
    token: str


class NextGame(Answer):
    """The game Play again started after this one, and the link to it that the asking link
    leads to: an edit link's the edit link, a view link's the view link, a seat link's the link
    of its own player's seat (`seat`), never another's."""

    id: Count = Field(validation_alias="game_id")
    token: str
    seat: Count | None  # the seat the token opens; null for a game's edit or view link


class Game(Answer):
    """Everything about a game: table, rules, the round now, rounds played, totals, standings."""

    id: Annotated[int, Field(ge=1, le=LARGEST_INTEGER)]
    version: Annotated[int, Field(ge=0, le=LARGEST_INTEGER)]
    players: list[Player]
    rules: RuleSet
    first_dealer: Count
    dealer_was_cut: bool
    decks: Count | None
    finished: bool
    current_round: CurrentRoundAnswer | None
    rounds: list[PlayedRound]
    totals: list[Score]
    running_totals: list[list[Score]]
    standings: StandingsAnswer
    created_at: Timestamp
    updated_at: Timestamp
    seat_links: list[SeatLink] | None  # each seat's link, for the edit link only (else null)
    # Where the asking link leads after Play again (GET only; null before it, and in a change's
    # answer): a view client follows it to the next game without anyone sharing a link.
    next_game: NextGame | None

    @classmethod
    def of(cls, state: GameState, **more: object) -> Game:
        """The game as it stands, or an answer that adds `more` to it."""
        return cls.model_validate(game_data(state) | more)


def game_data(state: GameState) -> Data:
    """The game as `Game` answers it, in plain values already as its fields have them (its
    rule set as it is): `Game.of` validates them; a change answers them as they are
    (answer_game)."""
    facts, current = state.facts, state.current
    standing = state.standings
    return {
        "id": facts.id,
        "version": facts.version,
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(state.names)],
        "rules": state.rules,
        "first_dealer": facts.first_dealer,
        "dealer_was_cut": facts.dealer_was_cut,
        "decks": facts.decks,
        "finished": state.finished,
        "current_round": None if current is None else current_round(current),
        "rounds": played(state),
        "totals": list(state.running[-1]) if state.running else [0] * state.players,
        "running_totals": [list(totals) for totals in state.running],
        "standings": {
            "rows": [
                {
                    "seat": row.seat,
                    "name": row.name,
                    "total": row.total,
                    "rounds_out": row.rounds_out,
                    "place": row.place,
                }
                for row in standing.rows
            ],
            "winners": list(standing.winners),
            "needs_tiebreaker": list(standing.needs_tiebreaker),
            "explanation": [translate_text(line) for line in standing.explanation],
        },
        "created_at": iso(facts.created_at),
        "updated_at": iso(facts.updated_at),
        "seat_links": None,
        "next_game": None,
    }


def answer_game(state: GameState, status: int = 200) -> tuple[Response, int]:
    """A change's answer, the game as it stands: its plain values serialised by pydantic as
    they are, not validated again as a `Game` first (they are ours, of its fields' kinds;
    tests/api/test_writes.py holds them to `Game.of`'s). An API buy 7.53 M -> 6.40 M
    instructions a request (bench/cost_table.py)."""
    body = to_json(game_data(state))
    return current_app.response_class(body, status=status, mimetype="application/json"), status


def _said(message: Message | None) -> str | None:
    return None if message is None else translate_text(message)


class NewLinks(Answer):
    edit_token: str
    view_token: str


class GameCreated(Game):
    """A new game, with the tokens of its edit and view links."""

    links: NewLinks


class Links(Answer):
    """Both links of a game, after one was replaced."""

    edit: str = Field(validation_alias="edit_token")
    view: str = Field(validation_alias="view_token")


class PendingHand(Answer):
    """A hand entered on a seat's phone for the round being played: pending until the
    scorekeeper saves the round (which clears it), or sent back with the scorekeeper's note."""

    seat: Count
    name: str
    round: Count = Field(validation_alias="round_number")
    went_out: bool
    points: Count | None  # what it counts (0 for going out); null: its cards no longer fit
    cards: dict[str, Count] | None  # counted per rank code, when the cards were tapped
    cut_bonus: bool
    status: Literal["pending", "sent_back"]
    note: str | None

    @classmethod
    def of(cls, state: GameState, entry: Entered) -> PendingHand:
        """An entry as the API answers it."""
        return cls.model_validate(
            With(
                entry,
                name=state.names[entry.seat],
                points=entered_points(state, entry),
                cards=dict(entry.cards) if entry.cards else None,
                status="pending" if entry.waiting else "sent_back",
            )
        )


def links_of(state: GameState) -> list[SeatLink]:
    """Each seat's link of a game, by seat, with the player's name."""
    names = state.names
    return [
        SeatLink(seat=seat, name=names[seat], token=token)
        for seat, token in seat_links.links_of(state.facts.id).items()
        if seat < len(names)
    ]


def with_links(shown: Game, state: GameState, access: GameAccess) -> Game:
    """The game's answer with where the asking link leads after Play again, and its seat
    links when the edit link asked."""
    found = rematch.next_for_link(state.facts, access.role)
    leads = None if found is None else NextGame.model_validate(found)
    if not access.can_edit:
        return shown.model_copy(update={"next_game": leads})
    return shown.model_copy(update={"seat_links": links_of(state), "next_game": leads})


class Problem(Answer):
    """What went wrong (RFC 9457), with messages per field in the request's language."""

    type: str
    title: str
    status: int
    detail: str
    errors: dict[str, list[str]] = Field(
        description='Messages per input field ("hands.2", "ruleset.rounds.0.deal").'
    )


class Conflict(Problem):
    """A change that lost a race or was built on an old version, and the game as it now stands."""

    game: Game = Field(description="The game as it now stands: check it, then send it again.")


def answer_stale(error: Stale) -> Response:
    """The same buy, round or undo changed since the client's `version`: 409 and the game now."""
    return _conflict(error.message, {error.field or WHOLE_REQUEST: [error.message]})


def answer_race(error: IntegrityError) -> Response:
    """Two clients changed the same thing at once and the database kept one: try again."""
    # Only a unique constraint means a race; any other integrity error is a bug, and a 500.
    unique = getattr(error.orig, "sqlstate", None) == "23505" or "UNIQUE" in str(error.orig)
    if not unique:
        raise error
    message = msg(N_("Someone changed this game at the same moment. Reload and try again."))
    return _conflict(message)


def _conflict(message: Message, errors: Errors | None = None) -> Response:
    """A 409 problem; on a game's URL it carries the game under "game" so the client can redo.

    The game is read once, by its version: a refused change wrote nothing, so the state its
    request opened with the lock (kept for that version) is the game now, unless another
    change came in since the rollback let go of the lock."""
    db.session.rollback()  # nothing of the refused change may show in the game sent back
    game_id = (request.view_args or {}).get("game_id")
    game = None if game_id is None else Game.of(as_it_stands(game_id))
    return answer_problem(Refusal(409, message, errors, game=game))
