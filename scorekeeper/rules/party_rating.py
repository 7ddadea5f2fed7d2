"""The family rating: OpenSkill's Plackett-Luce model over placements (docs/RULES.md 12).

The only module that imports openskill. A rating is replayed from every finished game's
placements in the order the games finished, ties as equal ranks, so it is derived, never
stored; it is shown after 5 games only, when it has settled enough to say something.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from openskill.models import PlackettLuce, PlackettLuceRating

SHOWN_AFTER = 5  # games a person has finished before their rating is shown


class Placed(Protocol):
    """A finished game's people and places by seat: an evening's TableGame, or any game."""

    @property
    def people(self) -> tuple[str, ...]: ...

    @property
    def places(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Rating:
    """One person's rating: mu and sigma, games played, and the number shown (mu − 3σ)."""

    person: str
    mu: float
    sigma: float
    games: int

    @property
    def shown(self) -> float | None:
        """The one number shown beside won/played, after 5 games; None before."""
        return round(self.mu - 3 * self.sigma, 1) if self.games >= SHOWN_AFTER else None


def ratings(games: Iterable[Placed]) -> dict[str, Rating]:
    """Replay every finished game's placements, in finishing order, ties as equal ranks."""
    model = PlackettLuce()
    current: dict[str, PlackettLuceRating] = {}
    played = Counter[str]()
    for game in games:
        teams = [[current.get(person) or model.rating()] for person in game.people]
        rated = model.rate(teams, ranks=[float(place) for place in game.places])
        for person, (rating,) in zip(game.people, rated, strict=True):
            current[person] = rating
            played[person] += 1
    return {
        person: Rating(person, rating.mu, rating.sigma, played[person])
        for person, rating in current.items()
    }


def expected_places(people: Sequence[str], known: dict[str, Rating]) -> tuple[int, ...]:
    """Each player's expected place before a game, from the ratings so far (new players start
    equal); players the model cannot tell apart share a place."""
    model = PlackettLuce()
    teams = [[_model_rating(model, known.get(person))] for person in people]
    return tuple(rank for rank, _ in model.predict_rank(teams))


def _model_rating(model: PlackettLuce, rating: Rating | None) -> PlackettLuceRating:
    """A stored rating as the model's, or a newcomer's."""
    if rating is None:
        return model.rating()
    return model.rating(mu=rating.mu, sigma=rating.sigma)
