"""``bjexact player`` and ``bjexact matrix --player``: JSON contracts checked against the
independent reference solver, formats, files, the progress bar, and bad input."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from fractions import Fraction

import pytest
from clirun import run, run_process
from player_reference import FiniteReference, InfiniteReference, value

FRACTION = re.compile(r"^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$")
SYMBOLS = "A23456789T"
UPCARDS = "23456789TA"
SMALL_SHOE = "1,1,1,1,1,1,1,1,1,5"
STATE_KEYS = {"total", "soft", "upcard", "stand", "hit", "best"}




def exact(text: str) -> Fraction:
    """An exact "p/q" string, checked to be in lowest terms."""
    assert FRACTION.match(text), text
    if "/" in text:
        p, q = map(int, text.split("/"))
        assert math.gcd(p, q) == 1 and q > 1, text
    return Fraction(text)


def rank(symbol: str) -> int:
    return SYMBOLS.index(symbol) + 1


def representative(total: int, soft: bool) -> tuple[int, ...]:
    if soft:
        return (1, total - 11)
    if total <= 11:
        return (2, total - 2)
    return (10, total - 10) if total <= 20 else (10, 9, 2)


@pytest.mark.parametrize(
    "argv, h17, naturals, objective",
    [
        ([], False, "as21", "ev"),
        (["--h17", "--objective", "win"], True, "as21", "win"),
        (["--naturals", "peek"], False, "peek", "ev"),
    ],
)
def test_infinite_json_contract_and_values(capsys, argv, h17, naturals, objective):
    status, out, err = run(capsys, "player", "--moves", "hit-stand", "--decks", "inf", "--format", "json", *argv)
    assert status == 0 and err == ""
    doc = json.loads(out)
    assert doc["rules"] == {"decks": "inf", "h17": h17, "naturals": naturals, "shoe": None, "bj_pays": "3/2"}
    assert doc["objective"] == objective
    states = doc["states"]
    expected = {(t, False, u) for t in range(4, 22) for u in UPCARDS} | {
        (t, True, u) for t in range(12, 22) for u in UPCARDS}
    assert len(states) == len(expected) == 280
    assert {(s["total"], s["soft"], s["upcard"]) for s in states} == expected
    ref = InfiniteReference(h17, naturals, objective)
    for s in states:
        assert STATE_KEYS <= set(s) and "cards" not in s
        cards = representative(s["total"], s["soft"])
        stand, hit = ref.values(cards, rank(s["upcard"]))
        assert (exact(s["stand"]), exact(s["hit"])) == (stand, hit), s
        assert s["best"] == ref.best(cards, rank(s["upcard"]))[0]
    results = ref.game()
    game = doc["game"]
    assert [exact(game[k]) for k in ("natural", "win", "push", "loss")] == list(results)
    assert exact(game["value"]) == ref.score(results)


def test_finite_json_lists_two_card_hands(capsys):
    status, out, err = run(capsys, "player", "--moves", "hit-stand", "--shoe", SMALL_SHOE, "--format", "json",
                           "--quiet")
    assert status == 0 and err == ""
    doc = json.loads(out)
    assert doc["rules"]["shoe"] == [1] * 9 + [5] and doc["rules"]["decks"] is None
    assert doc["objective"] == "ev"
    ref = FiniteReference((1,) * 9 + (5,), False, "as21", "ev")
    seen = set()
    for s in doc["states"]:
        assert STATE_KEYS | {"cards"} == set(s)
        cards = tuple(rank(c) for c in s["cards"])
        assert len(cards) == 2 and cards == tuple(sorted(cards))
        assert (s["total"], s["soft"]) == value(cards)
        seen.add((cards, s["upcard"]))
        if cards in ((10, 10), (6, 10), (7, 10), (9, 10)) and s["upcard"] in "7T":
            stand, hit = ref.values(cards, rank(s["upcard"]))
            assert (exact(s["stand"]), exact(s["hit"])) == (stand, hit), s
            assert s["best"] == ("hit" if hit > stand else "stand")
    assert ((10, 10), "T") in seen and ((2, 2), "5") not in seen  # one 2 in the shoe
    assert len(seen) == len(doc["states"])
    # the reference's brute-force game of this shoe (test_player_finite.py pins the same constant)
    assert exact(doc["game"]["value"]) == Fraction(-4033, 288288)
    for item in doc["exceptions"]:
        assert set(item) == {"total", "soft", "upcard", "best", "hands"}
        assert item["best"] in ("hit", "stand")
        for hand in item["hands"]:
            assert value(tuple(rank(c) for c in hand)) == (item["total"], item["soft"])


def test_text_policy_tables_show_the_derived_policy(capsys):
    status, out, _ = run(capsys, "player", "--moves", "hit-stand", "--decks", "inf")
    assert status == 0
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 12 and parts[0] in ("hard", "soft"):
            rows[(parts[0], int(parts[1]))] = "".join(parts[2:])
    assert rows[("hard", 12)] == "HHSSSHHHHH"
    assert rows[("hard", 16)] == "SSSSSHHHHH"
    assert rows[("soft", 18)] == "SSSSSSSHHH"
    assert rows[("hard", 21)] == "SSSSSSSSSS"
    assert len(rows) == 28
    assert "Game value" in out


def test_the_game_paragraph_shows_only_results_that_can_happen(capsys):
    # under as21 a player natural is a 21 like any other: no share of its own, which would be 0
    _, out, _ = run(capsys, "player", "--decks", "inf", "--moves", "hit-stand")
    assert "natural 0.0000%" not in out and "results: win 42.9457%, push 9.4530%, loss 47.6013%" in out
    assert "its wins are among the wins" in out
    _, out, _ = run(capsys, "player", "--decks", "inf", "--naturals", "separate", "--moves", "hit-stand")
    assert re.search(r"results: natural 4\.\d{4}%, win", out)


@pytest.mark.parametrize("naturals", ["as21", "separate", "peek"])
def test_objective_win_plays_the_moves_of_ev_and_says_so(capsys, naturals):
    from bjexact.core.rules import Rules
    from bjexact.player.solver import solve

    rules = Rules(decks="inf", naturals=naturals)
    ev, win = solve(rules, "ev"), solve(rules, "win")
    half = Fraction(1, 2)
    for state, position in ev.positions.items():
        other = win[state]
        assert other.best == position.best
        # no decision involves a natural: the chance of winning (push = 1/2) is 1/2 + EV/2 at each
        assert Fraction(other.stand) == half + Fraction(position.stand) / 2
        assert other.hit is None or Fraction(other.hit) == half + Fraction(position.hit) / 2
    from_deal = half + Fraction(ev.game.value) / 2
    assert (Fraction(win.game.value) == from_deal) == (naturals == "as21")  # a natural pays 3/2 in ev, 1 in win
    hit_stand = ("--moves", "hit-stand", "--decks", "inf", "--naturals", naturals)
    _, out, _ = run(capsys, "player", *hit_stand, "--objective", "win")
    assert "The moves are those of --objective ev" in out
    assert ("and from the deal." in out) == (naturals == "as21")
    _, out, _ = run(capsys, "player", *hit_stand)
    assert "The moves are those of" not in out


@pytest.mark.parametrize("fmt", ["csv", "md", "latex"])
def test_other_formats_run(capsys, fmt):
    status, out, err = run(capsys, "player", "--moves", "hit-stand", "--decks", "inf", "--format", fmt)
    assert status == 0 and err == "" and len(out.splitlines()) > 20
    if fmt == "csv":
        assert "hard,hard 12,H,H,S,S,S,H,H,H,H,H" in out.splitlines()  # one table, a section column


def test_output_file_equals_stdout(tmp_path, capsys):
    target = tmp_path / "player.json"
    argv = ("player", "--moves", "hit-stand", "--decks", "inf", "--format", "json")
    assert run(capsys, *argv, "-o", str(target))[0] == 0
    _, out, _ = run(capsys, "player", "--moves", "hit-stand", "--decks", "inf", "--format", "json")
    assert target.read_text() == out
    assert [p.name for p in tmp_path.iterdir()] == ["player.json"]


def test_no_progress_bar_when_output_is_not_a_terminal():
    result = run_process("player", "--moves", "hit-stand", "--shoe", SMALL_SHOE, "--format", "json")
    assert result.returncode == 0 and result.stderr == ""
    assert json.loads(result.stdout)["game"]["value"] == "-4033/288288"


def stderr_on_a_terminal(*argv) -> str:
    """Run the command with its standard error on a pseudo-terminal; what it wrote there."""
    pty = pytest.importorskip("pty")
    import os

    master, slave = pty.openpty()
    try:
        result = subprocess.run([sys.executable, "-m", "bjexact", *argv], stdout=subprocess.PIPE,
                                stderr=slave, timeout=120)
        assert result.returncode == 0
        os.set_blocking(master, False)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except (BlockingIOError, OSError):
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks).decode(errors="replace")
    finally:
        os.close(master)
        os.close(slave)


def test_progress_bar_on_a_terminal_unless_quiet():
    shown = stderr_on_a_terminal("player", "--moves", "hit-stand", "--shoe", SMALL_SHOE, "--format", "json")
    assert "two-card hands [" in shown
    quiet = stderr_on_a_terminal("player", "--moves", "hit-stand", "--shoe", SMALL_SHOE, "--format", "json", "--quiet")
    assert quiet == ""


# --- bjexact matrix --player ---------------------------------------------------------------


def test_matrix_player_json(capsys):
    status, out, err = run(capsys, "matrix", "--player", "--decks", "inf", "--upcard", "T", "--format", "json")
    assert status == 0 and err == ""
    doc = json.loads(out)
    assert {"states", "T", "B", "R_stand", "V", "policy"} <= set(doc)
    assert doc["upcard"] == "T" and doc["objective"] == "ev"
    labels = doc["states"]
    states = [(int(label.split()[1]), label.split()[0] == "soft") for label in labels]
    assert sorted(states) == sorted({(t, False) for t in range(4, 22)} | {(t, True) for t in range(12, 22)})
    n = len(states)
    T = [[exact(x) for x in row] for row in doc["T"]]
    assert len(T) == n and all(len(row) == n for row in T)
    ref = InfiniteReference(False, "as21", "ev")
    for i, state in enumerate(states):
        cards = representative(*state)
        assert all(T[i][j] == 0 for j in range(i + 1))  # strictly upper triangular
        assert exact(doc["B"][i]) == -ref.bust_chance(cards)
        assert sum(T[i]) + ref.bust_chance(cards) == 1
        stand, hit = ref.values(cards, 10)
        assert exact(doc["R_stand"][i]) == stand
        assert exact(doc["V"][i]) == max(stand, hit)
        assert doc["policy"][i] == ("hit" if hit > stand else "stand")
        hit_again = sum((T[i][j] * exact(doc["V"][j]) for j in range(n)), exact(doc["B"][i]))
        assert hit_again == hit


@pytest.mark.parametrize("fmt", ["text", "latex"])
def test_matrix_player_other_formats(capsys, fmt):
    status, out, err = run(capsys, "matrix", "--player", "--decks", "inf", "--upcard", "T", "--format", fmt)
    assert status == 0 and err == "" and "hard 16" in out


# --- bad input -------------------------------------------------------------------------------

BAD = {
    "zero decks": ["player", "--moves", "hit-stand", "--decks", "0"],
    "decks and shoe": ["player", "--moves", "hit-stand", "--decks", "inf", "--shoe", SMALL_SHOE],
    "unknown objective": ["player", "--moves", "hit-stand", "--decks", "inf", "--objective", "lose"],
    "short shoe": ["player", "--moves", "hit-stand", "--shoe", "1,2,3"],
    "bad bj-pays": ["player", "--moves", "hit-stand", "--decks", "inf", "--naturals", "peek", "--bj-pays", "x"],
    "exhausting shoe": ["player", "--moves", "hit-stand", "--shoe", "0,0,0,0,0,0,0,0,1,2", "--quiet"],
    "unknown format": ["player", "--moves", "hit-stand", "--decks", "inf", "--format", "pdf"],
    "finite player matrix": ["matrix", "--player", "--decks", "2", "--upcard", "T"],
    "unknown up-card": ["matrix", "--player", "--decks", "inf", "--upcard", "Z"],
    "player heatmap of N R": ["matrix", "--player", "--decks", "inf", "--upcard", "T", "--heatmap", "NR", "-o", "-"],
}


@pytest.mark.parametrize("argv", list(BAD.values()), ids=list(BAD))
def test_bad_input_is_one_line_and_exit_2(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2, err
    assert out == ""
    assert len(err.splitlines()) == 1 and "error" in err and "Traceback" not in err


def test_bad_input_as_a_process():
    result = run_process("player", "--moves", "hit-stand", "--shoe", "0,0,0,0,0,0,0,0,1,2")
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "too small" in result.stderr


def test_by_total_is_by_state_as_in_chart(capsys):
    for moves in ("full", "hit-stand"):
        _, by_state, _ = run(capsys, "player", "--decks", "inf", "--moves", moves, "--quiet", "--by", "state")
        _, by_total, _ = run(capsys, "player", "--decks", "inf", "--moves", moves, "--quiet", "--by", "total")
        assert by_total == by_state and "hard" in by_state.lower()
