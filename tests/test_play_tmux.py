"""``bjexact play`` in a real terminal: tmux types the keys and reads the screen, as a person would.

Skipped when tmux is not installed. Each test runs its own tmux server on a private socket.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

REPO = Path(__file__).resolve().parents[1]


class Terminal:
    """A detached tmux session running one command in a 120x50 pane."""

    def __init__(self, socket: Path, command: list[str]):
        self.socket = str(socket)
        env = dict(os.environ, PYTHONPATH=str(REPO), TERM="xterm")
        self.tmux("new-session", "-d", "-s", "t", "-x", "120", "-y", "50", "-c", str(REPO),
                  shlex.join(command), env=env)
        self.tmux("set-option", "-t", "t", "remain-on-exit", "on")

    def tmux(self, *args: str, env: dict | None = None) -> str:
        done = subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True,
                              timeout=30, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def screen(self, colours: bool = False) -> str:
        return self.tmux("capture-pane", "-p", *(["-e"] if colours else []), "-t", "t", "-S", "-200")

    def wait_for(self, pattern: str, count: int = 1, timeout: float = 60) -> str:
        """Wait until ``pattern`` (a regular expression, ``$`` at line ends) shows ``count`` times.

        The screen is returned; tmux drops the blanks at line ends, so prompts end with ``:``.
        """
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if len(re.findall(pattern, screen, re.MULTILINE)) >= count:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} did not appear; the screen:\n{screen}")
            time.sleep(0.1)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", text)
        self.tmux("send-keys", "-t", "t", "Enter")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=30)


@pytest.fixture
def terminal(tmp_path):
    opened = []

    def start(*args: str) -> Terminal:
        # the seeded deals below were chosen from one deck (play's default is 2, as every command's)
        decks = [] if "--decks" in args else ["--decks", "1"]
        term = Terminal(tmp_path / f"tmux-{len(opened)}", [sys.executable, "-m", "bjexact", "play", *decks, *args])
        opened.append(term)
        return term

    yield start
    for term in opened:
        term.close()


MOVE = r"\? \[[shdpr/]+, q to quit\]:$"


def test_a_person_splits_doubles_and_quits(terminal):
    """Seed 330 deals 8♠ 8♥ against a 2: split, double 8,3 on the first hand, stand on 8,J."""
    term = terminal("--seed", "330")
    term.wait_for(r"Stake \(1-100, q to quit\):$")
    term.type("lots")                                   # not a number: asked again
    term.wait_for(r"'lots' is not a whole number of chips; try again\.")
    term.type("10")
    screen = term.wait_for(r"Stand, hit, double or split\? \[s/h/d/p, q to quit\]:$")
    assert "You: 8♠ 8♥  (16)" in screen and "Dealer: 2♦ ?" in screen
    assert re.search(r"    split   \+0\.\d{5}  = \d+/\d+   <- best", screen)
    term.type("p")
    screen = term.wait_for(r"Stand, hit or double\? \[s/h/d, q to quit\]:$")
    assert "You split: 2 hands. Hand 1 gets 3♦." in screen
    assert "Your hands: ▶1: 8♠ 3♦  (11)  │  2: 8♥" in screen
    assert re.search(r"double  \+0\.54660  = \d+/\d+   <- best", screen)
    term.type("d")
    screen = term.wait_for(r"Stand, hit or double\? \[s/h/d, q to quit\]:", count=2)
    assert "Hand 1: double and draw K♥." in screen and "▶2: 8♥ J♥  (18)" in screen
    term.type("s")
    screen = term.wait_for(r"Stake \(1-110, Enter = 10, q to quit\):$")
    assert "Hand 1: You win 20 (21 beats 20). Balance: 120." in screen
    assert "Hand 2: You lose 10 (the dealer's 20 beats 18). Balance: 110." in screen
    assert re.search(r"\x1b\[31m3♦", term.screen(colours=True))      # red suits in colour on a terminal
    term.type("q")
    screen = term.wait_for(r"Decisions: 3, every one the best\.")
    assert "Final balance: 110 chips (+10 over 1 hand)." in screen and "Traceback" not in screen


def test_a_person_surrenders(tmp_path):
    term = Terminal(tmp_path / "tmux-no-colour", ["env", "NO_COLOR=1", sys.executable, "-m", "bjexact", "play",
                                                   "--decks", "1", "--seed", "10", "--surrender", "late"])
    try:
        term.wait_for(r"Stake \(1-100, q to quit\):$")
        term.type("10")
        screen = term.wait_for(r"Stand, hit, double or surrender\? \[s/h/d/r, q to quit\]:$")
        assert "The dealer checks the hole card: no blackjack." in screen
        assert "surrender  -0.50000  = -1/2   <- best" in screen
        term.type("r")
        screen = term.wait_for(r"Stake \(1-95, Enter = 10, q to quit\):$")
        assert "You lose 5 (surrendered, half the bet). Balance: 95." in screen
        assert "\x1b[31m" not in term.screen(colours=True)                  # NO_COLOR: plain suits
        term.keys("C-d")
        term.wait_for(r"Decisions: 1, every one the best\.")
    finally:
        term.close()


def test_a_person_insures_and_runs_out_of_chips(terminal):
    """Seed 29 deals 7♣ J♠ against an ace: insuring costs 5 of 15 chips, then 17 loses to 19."""
    term = terminal("--seed", "29", "--chips", "15")
    term.wait_for(r"Stake \(1-15, q to quit\):$")
    term.type("10")
    screen = term.wait_for(r"Insurance \(5 chips, pays 2:1 if the dealer has blackjack\)\? \[y/n, q to quit\]:$")
    assert "insure        -0.04082  = -2/49" in screen and "no insurance  +0.00000  = 0   <- best" in screen
    term.type("y")
    screen = term.wait_for(r"Stand or hit\? \[s/h, q to quit\]:$")          # no chips left to double
    assert "Insuring was not the best move: no insurance was worth +0.04082 more per chip" in screen
    assert "The dealer has no blackjack: the insurance of 5 is lost. Balance: 10." in screen
    term.type("s")
    screen = term.wait_for(r"You cannot cover the table minimum of 1 chip\.")
    screen = term.wait_for(r"Decisions: 2, 1 not the best; .* \(exact 20/49\)\.")
    assert "Final balance: 0 chips (-15 over 1 hand)." in screen and "Traceback" not in screen


@pytest.mark.parametrize("leave", ["q", "C-c", "C-d"])
def test_a_person_leaves_in_the_middle_of_a_split(terminal, tmp_path, leave):
    log = tmp_path / "session.jsonl"
    term = terminal("--seed", "330", "--log", str(log))
    term.wait_for(r"Stake \(1-100, q to quit\):$")
    term.type("10")
    term.wait_for(MOVE)
    term.type("p")
    term.wait_for(r"Stand, hit or double\? \[s/h/d, q to quit\]:$")
    if leave == "q":
        term.type("q")
    else:
        term.keys(leave)
    screen = term.wait_for(r"Final balance: 80 chips \(-20 over 1 hand\)\.")
    assert "You leave mid-hand: the 20 chips on the table are lost." in screen and "Traceback" not in screen
    term.wait_for(r"Decisions: 1, every one the best\.")
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["event"] for e in events] == ["session", "shuffle", "hand", "end"]
    assert events[2]["ended"] == "left" and events[2]["player"] == [["8♠", "3♦"], ["8♥"]]
    assert events[3]["how"] == {"q": "q", "C-c": "interrupted", "C-d": "end of input"}[leave]


def test_end_of_input_leaves_cleanly(terminal):
    term = terminal("--seed", "3", "--hints", "off", "--chips", "40")
    term.wait_for(r"Stake \(1-40, q to quit\):$")
    term.keys("C-d")
    screen = term.wait_for(r"Final balance: 40 chips \(\+0 over 0 hands\)\.")
    assert "Leaving the table (end of input)." in screen and "Traceback" not in screen
