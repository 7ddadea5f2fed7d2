"""The rules engine's warnings before a round is saved, and what confirms them (issue 21.6)."""

from __future__ import annotations

from scorekeeper.rules.hand_totals import hand_limits
from scorekeeper.rules.hand_warnings import (
    WarnedHand,
    acknowledged,
    acknowledgement,
    hand_warnings,
)
from scorekeeper.rules.presets import MAY_I
from scorekeeper.rules.scoring import HandResult

LIMITS = hand_limits(MAY_I, 1, 2, 4, 0)


def _hands(*points: int | None) -> list[WarnedHand]:
    """Anna, Ben, Carla with these points; None: that player went out."""
    names = ("Anna", "Ben", "Carla")
    return [
        WarnedHand(
            seat,
            names[seat],
            HandResult(went_out=True) if p is None else HandResult(points=p),
            LIMITS,
        )
        for seat, p in enumerate(points)
    ]


def test_an_ordinary_round_has_no_warning_and_needs_no_confirmation() -> None:
    warnings = hand_warnings(_hands(None, 25, 40))
    assert warnings == ()
    assert acknowledged(warnings, None) and acknowledgement(warnings) == ""


def test_a_zero_without_going_out_names_its_player_at_their_seat() -> None:
    (warning,) = hand_warnings(_hands(None, 0, 40))
    assert (warning.seat, warning.kind, warning.points) == (1, "zero", 0)
    assert str(warning.message) == "Ben: 0 points, but Ben did not go out. Check the hand."


def test_going_out_with_zero_is_no_warning() -> None:
    assert hand_warnings(_hands(None, 5, 40)) == ()


def test_an_unusually_high_hand_is_warned_about_in_seat_order_with_a_zero() -> None:
    high = LIMITS.unusual_above + 1
    warnings = hand_warnings(_hands(high, None, 0))
    assert [(w.seat, w.kind) for w in warnings] == [(0, "high"), (2, "zero")]
    assert str(warnings[0].message) == (
        f"Anna: {high} points is unusually high for one hand. Check it."
    )


def test_a_confirmation_holds_for_exactly_the_warnings_it_was_given() -> None:
    shown = hand_warnings(_hands(None, 0, 40))
    token = acknowledgement(shown)
    assert acknowledged(shown, token)
    assert not acknowledged(shown, None) and not acknowledged(shown, "")
    # another hand turns suspicious, or the warned hand changes: checked again
    assert not acknowledged(hand_warnings(_hands(None, 0, 0)), token)
    high = LIMITS.unusual_above + 1
    assert not acknowledged(hand_warnings(_hands(None, high, 40)), token)
    # a change elsewhere leaves the same warnings, which the table has confirmed
    assert acknowledged(hand_warnings(_hands(None, 0, 12)), token)
