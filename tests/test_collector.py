"""The cycle collector is paused during a solve and left as it was found."""

from __future__ import annotations

import gc
import threading

from bjexact.collector import collector_paused, without_cycle_collection
from bjexact.player.game import GameRules, solve_game


def test_a_pause_ends_with_the_outermost_block_and_restores_the_collector():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer solve still runs
    assert gc.isenabled()


def test_a_collector_the_caller_disabled_stays_disabled():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_concurrent_solves_share_one_pause():
    inside, release = threading.Event(), threading.Event()

    @without_cycle_collection
    def slow() -> None:
        inside.set()
        release.wait(10)

    worker = threading.Thread(target=slow)
    worker.start()
    inside.wait(10)
    with collector_paused():
        pass
    assert not gc.isenabled()  # the thread's solve has not ended
    release.set()
    worker.join()
    assert gc.isenabled()


def test_a_solve_pauses_the_collector_and_gives_it_back(monkeypatch):
    from bjexact.player import game

    seen = []
    deals = game.two_card_hands

    def watched(*args):
        seen.append(gc.isenabled())
        return deals(*args)

    monkeypatch.setattr(game, "two_card_hands", watched)  # called once per up-card, inside the solve
    solution = solve_game(GameRules(decks="inf", split_hands=1), progress=False)
    assert solution.ev and len(seen) == 10 and not any(seen)
    assert gc.isenabled()
