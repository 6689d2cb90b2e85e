"""``bjexact play`` in a real terminal: tmux types the keys and reads the screen, as a person would.

Skipped when tmux is not installed. Each test runs its own tmux server on a private socket.
"""

from __future__ import annotations

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

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t", "-S", "-200")

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
        term = Terminal(tmp_path / f"tmux-{len(opened)}", [sys.executable, "-m", "bjexact", "play", *args])
        opened.append(term)
        return term

    yield start
    for term in opened:
        term.close()


def test_a_person_plays_two_hands_and_quits(terminal):
    term = terminal("--seed", "3")
    term.wait_for(r"Stake \(1-100, q to quit\):$")
    term.type("lots")                                   # not a number: asked again
    term.wait_for(r"'lots' is not a whole number of chips; try again\.")
    term.type("500")                                    # more than the balance: asked again
    term.wait_for(r"you have only 100 chips; try again\.")
    term.type("10")
    screen = term.wait_for(r"Hit or stand\? \[h/s, q to quit\]:$")
    assert "You: 4 A  (soft 15)" in screen and "Dealer: 8 ?" in screen
    assert re.search(r"Dealer with 8 up, if you stand now: 17 \d+\.\d\d%", screen)
    assert re.search(r"stand  -0\.51450  = -\d+/\d+\n", screen)
    assert re.search(r"hit    -0\.03547  = -\d+/\d+   <- best", screen)
    term.type("s")                                      # not the best move: the game says so
    term.wait_for(r"Stake \(1-90, Enter = 10, q to quit\):$")
    screen = term.screen()
    assert "Standing was not the best move: to hit was worth +0.47902 more per chip" in screen
    assert "You lose 10 (the dealer's 21 beats your 15). Balance: 90." in screen
    term.type("")                                       # Enter: the same stake again
    screen = term.wait_for(r"Hit or stand\? \[h/s, q to quit\]:", count=2)
    assert "You: 7 6  (13)" in screen and "The dealer checks the hole card: no blackjack." in screen
    term.type("s")
    term.wait_for(r"Stake \(1-80, Enter = 10, q to quit\):$")
    assert "You lose 10 (the dealer's 20 beats your 13). Balance: 80." in term.screen()
    term.type("q")
    screen = term.wait_for(r"Final balance: 80 chips \(-20 over 2 hands\)\.")
    assert "Traceback" not in screen


def test_ctrl_c_leaves_cleanly_with_the_balance(terminal):
    term = terminal("--seed", "3", "--hints", "off")
    term.wait_for(r"Stake \(1-100, q to quit\):$")
    term.type("10")
    term.wait_for(r"Hit or stand\? \[h/s, q to quit\]:$")
    term.keys("C-c")
    screen = term.wait_for(r"Final balance: 90 chips \(-10 over 1 hand\)\.")
    assert "the stake of 10 is lost" in screen and "Leaving the table (interrupted)." in screen
    assert "Traceback" not in screen


def test_end_of_input_leaves_cleanly(terminal):
    term = terminal("--seed", "3", "--hints", "off", "--chips", "40")
    term.wait_for(r"Stake \(1-40, q to quit\):$")
    term.keys("C-d")
    screen = term.wait_for(r"Final balance: 40 chips \(\+0 over 0 hands\)\.")
    assert "Leaving the table (end of input)." in screen and "Traceback" not in screen
