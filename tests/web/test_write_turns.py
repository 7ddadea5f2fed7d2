"""A process's writers take turns in the order they came (write_turns.py): SQLite's for the
whole database, PostgreSQL's for each game."""

from __future__ import annotations

import threading
import time

import pytest
from flask import Flask
from sqlalchemy import event, update

from scorekeeper.database import lock_game_row, lock_writes
from scorekeeper.extensions import db
from scorekeeper.games import actions
from scorekeeper.models import Game
from scorekeeper.rules.presets import MAY_I
from scorekeeper.write_turns import GameTurns, Turns

WRITERS = 8


def has_drawn(turns: Turns, tickets: int) -> None:
    """Wait until `tickets` were drawn, so the next writer comes after (a sleep is not enough
    on a loaded machine: a started thread may not run for longer)."""
    deadline = time.monotonic() + 10
    while turns.drawn < tickets:
        assert time.monotonic() < deadline, "a writer never drew its ticket"
        time.sleep(0.001)


def app_turns(app: Flask) -> Turns:
    """The Turns the app's SQLite engine hands out (held by its "begin" listener)."""
    with app.app_context():
        listeners = list(db.engine.dispatch.begin)
    return next(
        arg
        for listener in listeners
        for arg in getattr(listener, "args", ())
        if isinstance(arg, Turns)
    )


def in_order(turns: Turns, holds: float = 0.0) -> list[int]:
    """Start WRITERS writers one after another; the order in which their turns came."""
    first = turns.wait(1)
    assert first is not None
    came: list[int] = []
    threads = []
    for number in range(WRITERS):

        def writer(number: int = number) -> None:
            ticket = turns.wait(5)
            assert ticket is not None
            came.append(number)
            time.sleep(holds)
            turns.end(ticket)

        threads.append(threading.Thread(target=writer))
        threads[-1].start()
        has_drawn(turns, number + 2)  # the first holder's ticket and this writer's
    turns.end(first)
    for thread in threads:
        thread.join(10)
    return came


def test_writers_take_turns_in_the_order_they_came() -> None:
    assert in_order(Turns(), holds=0.002) == list(range(WRITERS))


def test_a_writer_that_stops_waiting_gives_up_its_place() -> None:
    turns = Turns()
    holder = turns.wait(1)
    assert holder is not None and turns.wait(0.01) is None
    after: list[int | None] = []
    waiter = threading.Thread(target=lambda: after.append(turns.wait(5)))
    waiter.start()
    time.sleep(0.02)
    turns.end(holder)
    waiter.join(5)
    assert after != [None] and after, "the writer after a gone one waited in vain"


def test_no_turn_is_lost_when_it_comes_as_the_wait_runs_out() -> None:
    turns, holding, errors = Turns(), [0], []
    lock = threading.Lock()

    def writer() -> None:
        for _ in range(200):
            ticket = turns.wait(0.0005)
            if ticket is None:
                continue
            with lock:
                holding[0] += 1
                if holding[0] > 1:
                    errors.append("two writers held the turn")
            with lock:
                holding[0] -= 1
            turns.end(ticket)

    threads = [threading.Thread(target=writer) for _ in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors and not any(thread.is_alive() for thread in threads)
    assert turns.wait(1) is not None, "a turn was lost: the next writer waits for nobody"


def begin_and_end(app: Flask, how: str) -> None:
    """Take SQLite's write lock through the app, then commit, roll back or raise."""
    with app.app_context():
        lock_writes()
        if how == "commit":
            db.session.commit()
        elif how == "rollback":
            db.session.rollback()
        else:
            raise RuntimeError("the holder failed")


@pytest.mark.parametrize("how", ["commit", "rollback", "raise"])
def test_a_holder_passes_the_turn_however_it_ends(app: Flask, how: str) -> None:
    if how == "raise":
        with pytest.raises(RuntimeError):
            begin_and_end(app, how)
    else:
        begin_and_end(app, how)
    started = time.monotonic()
    begin_and_end(app, "commit")  # a second writer waits for nobody
    assert time.monotonic() - started < 1


def test_writers_through_the_app_take_turns_in_order(app: Flask) -> None:
    order: list[int] = []
    turns = app_turns(app)
    with app.app_context():
        lock_writes()  # the first holds while the others come

        def writer(number: int) -> None:
            with app.app_context():
                lock_writes()
                order.append(number)
                db.session.commit()

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
        first = turns.drawn
        for number, thread in enumerate(threads, start=1):
            thread.start()
            has_drawn(turns, first + number)
        db.session.commit()
    for thread in threads:
        thread.join(10)
    assert order == list(range(WRITERS))


@pytest.mark.storage
def test_lock_writes_takes_a_turn_on_sqlite_alone(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[float] = []
    wait = Turns.wait
    monkeypatch.setattr(Turns, "wait", lambda self, s: asked.append(s) or wait(self, s))
    with app.app_context():
        lock_writes()
        db.session.commit()
        sqlite = db.engine.dialect.name == "sqlite"
    assert bool(asked) == sqlite


def test_a_game_s_turns_are_dropped_once_no_writer_holds_or_waits_for_one() -> None:
    turns = GameTurns()
    holder = turns.wait(1, 1)
    assert holder is not None and turns.wait(1, 0.01) is None  # gone: its place skipped
    came: list[int | None] = []
    waiter = threading.Thread(target=lambda: came.append(turns.wait(1, 5)))
    waiter.start()
    time.sleep(0.02)
    turns.end(1, holder)
    waiter.join(5)
    assert came and came[0] is not None
    turns.end(1, came[0])
    assert turns.games() == 0


def test_writers_of_another_game_do_not_wait_for_a_game_s_turn() -> None:
    turns = GameTurns()
    assert turns.wait(1, 1) is not None
    assert turns.wait(2, 0.01) is not None, "a writer of game 2 waited for game 1's holder"


@pytest.mark.storage
def test_writers_of_one_game_are_served_in_the_order_they_asked_the_database(app: Flask) -> None:
    with app.app_context():
        game_id = actions.create_game(MAY_I, ["Anna", "Ben", "Carla", "Dan"], 0).id
        engine = db.engine
    asked, served, mutex, mine = [0], [], threading.Lock(), threading.local()

    def ask(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.endswith("FOR UPDATE") or statement == "BEGIN IMMEDIATE":
            with mutex:  # numbered as the lock is asked for, in the order the asks are sent
                mine.asked, asked[0] = asked[0], asked[0] + 1

    start = threading.Barrier(WRITERS)

    def writer() -> None:
        start.wait()
        for _ in range(25):
            with app.app_context():
                lock_game_row(game_id)
                served.append(mine.asked)
                bump = update(Game).where(Game.id == game_id).values(version=Game.version + 1)
                db.session.execute(bump)  # each change makes a new version of the game's row
                db.session.commit()

    event.listen(engine, "before_cursor_execute", ask)
    try:
        threads = [threading.Thread(target=writer) for _ in range(WRITERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        event.remove(engine, "before_cursor_execute", ask)
    # PostgreSQL's row lock alone let a later asker overtake up to 35 earlier ones here.
    assert served == sorted(served) and len(served) == 25 * WRITERS
