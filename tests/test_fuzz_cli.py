"""Hostile input and broken environments: every command answers, or says what is wrong in one line.

The contract, checked on generated input: exit 0 or 1 with output, or exit 2 with exactly
one line on standard error (``bjexact...: error: ...``); never a traceback, never an
"internal error", never a hang (each case has a time limit), and no file left behind
by a failed run. Command lines run in-process where they can (fast); what needs a real
process (a closed or full standard output, a broken pipe, Ctrl-C, user code that sleeps
or exits) runs as one.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bjexact.cli import main

CASE_SECONDS = 30
# BJEXACT_FUZZ_EXAMPLES=500 for a longer, randomised search (the default keeps the suite fast and repeatable)
EXAMPLES = int(os.environ.get("BJEXACT_FUZZ_EXAMPLES", "0")) or None
FUZZ = settings(max_examples=EXAMPLES or 25, deadline=None, derandomize=EXAMPLES is None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


class CaseTimeout(BaseException):
    """A case ran over its time limit (a BaseException: the command line must not swallow it)."""


def _on_alarm(signum, frame):
    raise CaseTimeout(f"no answer within {CASE_SECONDS} s")


def run(*argv: str, stdin: str = "", seconds: float = CASE_SECONDS):
    """Run ``bjexact ARGV`` in-process with a time limit: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(argv))
            except SystemExit as exc:  # argparse: usage errors, --help
                status = exc.code
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue()


def run_process(*argv: str, seconds: float = CASE_SECONDS, **options):
    """Run ``python -m bjexact ARGV`` as a process: (status, stdout, stderr) as text."""
    done = subprocess.run([sys.executable, "-m", "bjexact", *argv], capture_output=True, text=True,
                          timeout=seconds, **options)
    return done.returncode, done.stdout, done.stderr


def assert_clean(status, out: str, err: str, *, output_expected: bool = True) -> None:
    """Exit 0/1 with output, or exit 2 with one line on standard error; no traceback, no internal error."""
    assert "Traceback" not in err, err
    assert "internal error" not in err, err
    if status == 2:
        lines = err.splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("bjexact") and ": error: " in lines[0], err
    else:
        assert status in (0, 1), (status, err)
        if output_expected:
            assert out, err


def files_in(directory: Path) -> set[str]:
    return {str(p.relative_to(directory)) for p in directory.rglob("*")}


# --- strategies -----------------------------------------------------------------------------------------

CARDS = st.one_of(
    st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K", "a", "q", "QS", "10h",
                     "1", "11", "0", "-1", "", " ", "x", "²", "🂡", "Ace", "10,", "#", "--", "-"]),
    st.text(max_size=4),
)
NUMBERS = st.one_of(
    st.integers(-3, 12).map(str),
    st.integers(-10**30, 10**30).map(str),
    st.sampled_from(["inf", "-inf", "+inf", "INF", "infinity", "nan", "1e400", "1e999999999", "²", "٣", "9" * 5000,
                     "", " ", "0x10", "1_000", "3/2", "-3/2", "1/0", "0.5", "1e3", "+2", "-0", "1000001",
                     "3\n", "--", "-", "2 decks"]),
    st.text(max_size=6),
)
SHOES = st.one_of(
    st.lists(st.integers(0, 5), min_size=0, max_size=12).map(lambda c: ",".join(map(str, c))),
    st.lists(st.integers(0, 4), min_size=10, max_size=10).map(lambda c: ",".join(map(str, c)) + ","),
    st.lists(NUMBERS, min_size=10, max_size=10).map(",".join),
    st.sampled_from(["4,4,4,4,4,4,4,4,4,16,", ",4,4,4,4,4,4,4,4,4,16", "4;4;4;4;4;4;4;4;4;16", "0,0,0,0,0,0,0,0,0,0",
                     "0,1,0,0,0,0,0,0,0,1", "4,4,4,4,4,4,4,4,4," + "9" * 5000, "", ",,,,,,,,,"]),
)
CELLS = st.one_of(
    st.decimals(0, 100, places=4, allow_nan=False).map(str),
    st.sampled_from(["13.98", "13.98%", "13.98 %", "0.1398", "-", "1e400", "1e999999999", "1e-400", "9" * 5000,
                     "1/" + "7" * 5000, "nan", "inf", "", "x", "1/0", "1,5", "½", "**13.98**", "|"]),
    st.text(max_size=5),
)
HEADERS = st.sampled_from([
    ["up", "17", "18", "19", "20", "21", "bust"],
    ["Up-Card", "17", "18", "19", "20", "21", "Bust"],
    ["dealer", "17", "18", "19", "20", "21", "bust", "blackjack"],
    ["", "17", "17", "bust"],
    ["up"],
])
UPCARDS = st.lists(st.sampled_from(["2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "A", "Ace", "11", "Total",
                                    "1", "", "x"]), min_size=0, max_size=12)
TEXT_LINES = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200)


@st.composite
def tables(draw):
    header = draw(HEADERS)
    separator = draw(st.sampled_from([",", "\t", " | ", "  ", ";"]))
    lines = [separator.join(header)]
    for upcard in draw(UPCARDS):
        lines.append(separator.join([upcard] + [draw(CELLS) for _ in header[1:]]))
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(TEXT_LINES))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\r\n"]))


# --- numbers, shoes, cards, flags -------------------------------------------------------------------------


@FUZZ
@given(decks=NUMBERS, command=st.sampled_from(["dealer", "player", "eor", "report"]))
def test_decks_values(decks, command):
    if command in ("player", "eor") and decks.strip().isdigit() and 0 < len(decks.strip()) < 30:
        decks = "inf"  # finite shoes take seconds to solve; their numbers are the point here, not the game
    if command == "report":  # only the refusals: a report takes seconds
        status, out, err = run(command, "--decks", decks, "-o", "", "--no-pdf", "-q")
        assert status == 2
        assert_clean(status, out, err)
        return
    status, out, err = run(command, f"--decks={decks}")
    assert_clean(status, out, err)
    if status == 0:
        assert decks.strip().lower() in ("inf", "infinite", "infinity") or decks.strip().lstrip("+").isdigit()


@FUZZ
@given(shoe=SHOES)
def test_shoes(shoe):
    status, out, err = run("dealer", "--shoe", shoe)
    assert_clean(status, out, err)
    if status == 0:
        counts = [int(c) for c in shoe.replace(";", ",").split(",")]
        assert len(counts) == 10 and sum(counts) > 0


@FUZZ
@given(shoe=st.lists(st.integers(0, 1), min_size=10, max_size=10))
@pytest.mark.parametrize("moves", ["hit-stand", "full"])
def test_player_shoes_deal_a_round_or_are_refused(shoe, moves):
    status, out, err = run("player", "--moves", moves, "--shoe", ",".join(map(str, shoe)), "--quiet")
    assert_clean(status, out, err)
    if 0 < sum(shoe) < 4:
        assert status == 2 and "too small" in err, err


@FUZZ
@given(pays=NUMBERS, spelled=st.booleans())
def test_bj_pays_values(pays, spelled):
    argv = ["--bj-pays=" + pays] if spelled else ["--bj-pays", pays]
    status, out, err = run("matrix", "--player", "--decks", "inf", "--upcard", "T", "--naturals", "separate", *argv)
    assert_clean(status, out, err)


@FUZZ
@given(cards=st.lists(CARDS, min_size=0, max_size=9))
def test_replay_cards(cards):
    status, out, err = run("replay", *cards)
    assert_clean(status, out, err)
    if status == 0:
        assert all(card.strip() for card in cards)


@FUZZ
@given(text=st.one_of(TEXT_LINES, st.lists(st.lists(CARDS, max_size=8).map(" ".join), max_size=4).map("\n".join)))
def test_replay_files(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("replay") / "decks.txt"
    path.write_text(text, encoding="utf-8")
    status, out, err = run("replay", "--file", str(path))
    assert_clean(status, out, err)
    status, out, err = run("replay", "--file", "-", stdin=text)
    assert_clean(status, out, err)


@FUZZ
@given(table=tables(), kind=st.sampled_from(["dealer", "identify", "policy"]))
def test_verify_tables(tmp_path_factory, table, kind):
    path = tmp_path_factory.mktemp("verify") / "table.txt"
    path.write_text(table, encoding="utf-8")
    options = {"dealer": ["--decks", "inf"], "identify": ["--identify", "--decks", "inf"],
               "policy": ["--kind", "policy", "--decks", "inf"]}[kind]
    started = time.monotonic()
    status, out, err = run("verify", str(path), *options)
    assert_clean(status, out, err)
    assert time.monotonic() - started < 20


@FUZZ
@given(name=st.one_of(st.sampled_from(["t", "x", "exp", "sin", "log", "E", "I", "pi", "N", "S", "Symbol", "lambda",
                                       "", " ", "t t", "p_A", "t**2", "__import__", "1t"]), st.text(max_size=5)))
def test_ten_density_names(name):
    status, out, err = run("dealer", "--ten-density", name, "--format", "json", "--max-terms", "1")
    assert_clean(status, out, err)
    if status == 0:
        import json

        import sympy

        document = json.loads(out)
        cell = next(iter(next(iter(document["table"].values())).values()))
        assert sympy.sympify(cell).free_symbols <= {sympy.Symbol(name)}


FLAG_VALUES = {
    "--decks": NUMBERS, "--shoe": SHOES, "--naturals": st.sampled_from(["as21", "peek", "separate", "x", ""]),
    "--format": st.sampled_from(["text", "json", "csv", "md", "latex", "yaml"]), "--decimals": NUMBERS,
    "--rows": st.sampled_from(["cards", "ranks", "x"]), "--upcard": CARDS, "--max-terms": NUMBERS,
}
BARE_FLAGS = ["--h17", "--exact", "--frobnicate", "-x", "--", "-", "--help-me", "--dec", "--h"]


@st.composite
def dealer_argvs(draw):
    argv = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            argv.append(draw(st.sampled_from(BARE_FLAGS)))
        else:
            flag = draw(st.sampled_from(sorted(FLAG_VALUES)))
            value = draw(FLAG_VALUES[flag])
            argv += [f"{flag}={value}"] if draw(st.booleans()) else [flag, value]
    return argv


@FUZZ
@given(command=st.sampled_from(["dealer", "matrix", "eor"]), argv=dealer_argvs())
def test_flags(command, argv):
    if any(a.startswith("--decks") for a in argv) and not any(a.startswith("--shoe") for a in argv):
        argv = argv + ["--shoe", "1,1,1,1,1,1,1,1,1,4"]  # keep cases fast: a conflict or a small shoe
    status, out, err = run(command, *argv)
    assert_clean(status, out, err, output_expected=not any(a.startswith("-h") for a in argv))


def test_unknown_options_are_named_with_their_command():
    status, out, err = run("--frobnicate")
    assert status == 2 and "--frobnicate" in err and len(err.splitlines()) == 1
    status, out, err = run("dealer", "--frobnicate")
    assert status == 2 and "--frobnicate" in err and "bjexact dealer --help" in err


@pytest.mark.parametrize("argv, words", [
    (["dealer", "--decks", "-inf"], "--decks must be a whole number >= 1"),
    (["player", "--moves", "hit-stand", "--decks", "inf", "--naturals", "separate", "--bj-pays", "-3/2"],
     "must not be negative"),
    (["player", "--decks", "inf", "--bj-pays", "-3/2"], "must not be negative"),
    (["player", "--decks", "inf", "--naturals", "peek"], "--moves hit-stand"),
    (["player", "--moves", "hit-stand", "--decks", "inf", "--surrender", "late"], "--surrender"),
    (["eor", "--decks", "inf", "--game"], "finite shoe"),
    (["dealer", "--decks", "²"], "--decks must be a whole number"),
    (["dealer", "--decks", "9" * 5000], "too large"),
    (["dealer", "--shoe", "4,4,4,4,4,4,4,4,4,16,"], "ends with a comma"),
    (["player", "--moves", "hit-stand", "--shoe", "0,1,0,0,0,0,0,0,0,1"], "too small to deal a round"),
    (["player", "--shoe", "0,1,0,0,0,0,0,0,0,1"], "too small"),
    (["replay", "Q", "6", "", "9"], "card 3 is empty"),
    (["dealer", "--ten-density", "exp"], "exp"),
    (["play", "--chips", "9" * 5000], "--chips"),
])
def test_messages_name_the_problem(argv, words):
    status, out, err = run(*argv)
    assert_clean(status, out, err)
    assert status == 2 and words in err, err


@pytest.mark.parametrize("argv, words", [
    (["play", "--min-bet", "0"], "--min-bet: must be between 1 and 1,000,000,000,000, not 0"),
    (["play", "--min-bet", "10", "--max-bet", "5"], "--max-bet must be a whole number >= --min-bet (10)"),
    (["play", "--max-bet", "9" * 5000], "--max-bet"),
    (["play", "--penetration", "0"], "--penetration must be above 0"),
    (["play", "--penetration", "1e999999999"], "--penetration"),
    (["play", "--penetration", "1/0"], "--penetration"),
    (["play", "--decks", "9"], "--decks must be a whole number from 1 to 8"),
    (["play", "--hole-card", "enhc", "--surrender", "late"], "late surrender comes after the dealer's peek"),
    (["play", "--replay", "x", "--log", "y"], "--replay and --log conflict"),
])
def test_play_table_options_name_the_problem(argv, words):
    status, out, err = run(*argv, stdin="q\n")
    assert_clean(status, out, err)
    assert status == 2 and words in err and out == "", err


LOGS = st.one_of(
    st.text(max_size=200),
    st.lists(st.one_of(st.dictionaries(st.sampled_from(["event", "version", "cards", "answers", "how", "rules"]),
                                       st.one_of(st.integers(), st.text(max_size=5), st.none(),
                                                 st.lists(st.text(max_size=3), max_size=3)), max_size=4),
                       st.sampled_from([{"event": "session", "version": 1}, {"event": "shuffle", "cards": ["A♠"]},
                                        {"event": "end", "how": "q", "answers": ["q"]}])),
             max_size=4).map(lambda events: "\n".join(json.dumps(e) for e in events)),
)


@FUZZ
@given(text=LOGS)
def test_play_replays_any_file_or_names_the_problem(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("logs") / "session.jsonl"
    path.write_text(text)
    status, out, err = run("play", "--replay", str(path))
    assert_clean(status, out, err)
    assert status == 2 and str(path) in err, err


def test_play_log_and_replay_files(tmp_path):
    log = tmp_path / "session.jsonl"
    status, out, err = run("play", "--seed", "1", "--log", str(log), stdin="5\ns\nn\ns\nq\n")
    assert_clean(status, out, err)
    assert status == 0 and log.read_text().endswith("\n")
    status, again, err = run("play", "--replay", str(log))
    assert status == 0 and again == f"Replaying {log}.\n" + out
    for bad in (tmp_path / "missing" / "x.jsonl", tmp_path):        # no such directory; a directory
        status, out, err = run("play", "--log", str(bad), stdin="q\n")
        assert_clean(status, out, err)
        assert status == 2 and "cannot write the log" in err and out == ""
    status, out, err = run("play", "--replay", str(tmp_path / "none.jsonl"))
    assert status == 2 and "cannot read the log" in err
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe\x00")
    status, out, err = run("play", "--replay", str(tmp_path / "binary.jsonl"))
    assert status == 2 and "not a play log" in err and len(err.splitlines()) == 1


def test_replay_file_with_no_deck_is_an_error(tmp_path):
    for text in ("", "# only a comment\n\n   \n"):
        path = tmp_path / "decks.txt"
        path.write_text(text)
        status, out, err = run("replay", "--file", str(path))
        assert status == 2 and "no deck" in err and out == ""


def test_play_refuses_a_stake_of_5000_digits():
    status, out, err = run("play", "--seed", "1", stdin="9" * 5000 + "\nq\n")
    assert_clean(status, out, err)
    assert status == 0 and "you have only 100 chips" in out


# --- verify: huge numbers and files ---------------------------------------------------------------------


@pytest.mark.parametrize("cell", ["1e400", "1e999999999", "9" * 5000, "1/" + "3" * 5000, "1e-999999999"])
def test_verify_refuses_huge_numbers_fast(tmp_path, cell):
    path = tmp_path / "table.csv"
    path.write_text("up,17,18,19,20,21,bust\n2," + cell + ",1,1,1,1,1\n")
    started = time.monotonic()
    status, out, err = run("verify", str(path), "--decks", "inf")
    assert time.monotonic() - started < 5
    assert_clean(status, out, err)
    assert status == 2


def test_verify_refuses_files_over_the_documented_size(tmp_path):
    from bjexact.cli.verify import MAX_INPUT_BYTES

    path = tmp_path / "big.csv"
    with path.open("w") as handle:
        handle.write("up,17,18,19,20,21,bust\n")
        line = "2,0.1,0.1,0.1,0.1,0.1,0.1\n"
        handle.write(line * (MAX_INPUT_BYTES // len(line) + 1))
    status, out, err = run("verify", str(path), "--decks", "inf")
    assert status == 2 and "larger than 10 MB" in err


# --- output files ---------------------------------------------------------------------------------------

WRITERS = [
    ["dealer", "--decks", "inf"],
    ["matrix", "--decks", "inf", "--upcard", "6"],
    ["replay", "Q", "6", "4", "9", "10"],
    ["verify", str(Path(__file__).parent / "data" / "inf_s17_probabilities.tsv"), "--decks", "inf"],
    ["graph", "--decks", "inf", "--upcard", "6"],
    ["boundaries", "--upcard", "T", "--total", "16"],
]


def _situation(tmp_path: Path, name: str) -> tuple[str, str | None]:
    """Prepare a file-system situation in ``tmp_path``: (the -o argument, what the error must say or None)."""
    if name == "under-a-file":
        (tmp_path / "file.txt").write_text("x")
        return str(tmp_path / "file.txt" / "out.dot"), "not a directory"
    if name == "missing-directory":
        return str(tmp_path / "nowhere" / "out.dot"), "does not exist"
    if name == "fifo":
        os.mkfifo(tmp_path / "fifo.dot")
        return str(tmp_path / "fifo.dot"), "not a regular file"
    if name == "device":
        return "/dev/full", "not a regular file"
    if name == "directory":
        (tmp_path / "directory.dot").mkdir()
        return str(tmp_path / "directory.dot"), "directory"
    if name == "empty":
        return "", "no output file named"
    raise AssertionError(name)


@pytest.mark.parametrize("situation", ["under-a-file", "missing-directory", "fifo", "device", "directory", "empty"])
@pytest.mark.parametrize("argv", WRITERS, ids=lambda argv: argv[0])
def test_unwritable_outputs(tmp_path, situation, argv):
    target, words = _situation(tmp_path, situation)
    before = files_in(tmp_path)
    status, out, err = run(*argv, "-o", target)
    assert_clean(status, out, err)
    assert status == 2, err
    if not (argv[0] == "graph" and situation == "device"):  # graph first says: .dot, .svg, .png or .pdf
        assert words in err, err
    assert files_in(tmp_path) == before
    if situation == "device":
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.parametrize("failure", [errno.EACCES, errno.ENOSPC, errno.EROFS])
def test_a_failing_file_system_is_one_line_and_leaves_nothing(tmp_path, monkeypatch, failure):
    """A read-only directory (which root could write anyway) or a full disk, made to fail on purpose."""
    import bjexact.files

    real_fdopen = os.fdopen

    class Failing(io.RawIOBase):
        def writable(self):
            return True

        def write(self, data):
            raise OSError(failure, os.strerror(failure))

    def fdopen(fd, *args, **kwargs):
        real_fdopen(fd, "wb").close()
        return io.BufferedWriter(Failing())

    if failure == errno.EACCES:
        def mkstemp(*args, **kwargs):
            raise PermissionError(failure, os.strerror(failure))

        monkeypatch.setattr(bjexact.files.tempfile, "mkstemp", mkstemp)
    else:
        monkeypatch.setattr(bjexact.files.os, "fdopen", fdopen)
    status, out, err = run("dealer", "--decks", "inf", "-o", str(tmp_path / "out.txt"))
    assert_clean(status, out, err)
    assert status == 2 and os.strerror(failure) in err
    assert files_in(tmp_path) == set()


def test_a_symbolic_link_is_written_through(tmp_path):
    (tmp_path / "target.txt").write_text("old")
    (tmp_path / "link.txt").symlink_to("target.txt")
    status, out, err = run("dealer", "--decks", "inf", "-o", str(tmp_path / "link.txt"))
    assert status == 0 and err == ""
    assert (tmp_path / "link.txt").is_symlink()
    assert (tmp_path / "target.txt").read_text().startswith("Dealer's final outcome")
    assert files_in(tmp_path) == {"target.txt", "link.txt"}


def test_an_existing_file_keeps_its_mode(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    path.chmod(0o600)
    status, out, err = run("dealer", "--decks", "inf", "-o", str(path))
    assert status == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text().startswith("Dealer's final outcome")


# --- report: whole or not at all --------------------------------------------------------------------------


def test_report_targets_that_cannot_hold_a_report(tmp_path):
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "rep").mkdir()
    (tmp_path / "rep" / "figures").write_text("not a directory")
    before = files_in(tmp_path)
    for target in (tmp_path / "file.txt", tmp_path / "file.txt" / "sub", tmp_path / "rep"):
        status, out, err = run("report", "-o", str(target), "--decks", "inf", "--no-pdf", "-q")
        assert_clean(status, out, err)
        assert status == 2
    assert files_in(tmp_path) == before


def test_an_interrupted_report_leaves_the_old_one(tmp_path, monkeypatch):
    import bjexact.render.report

    old = tmp_path / "out"
    old.mkdir()
    for name in ("report.md", "report.pdf", "notes.txt"):
        (old / name).write_text(f"old {name}")
    before = {p: p.read_text() for p in old.iterdir()}
    real = bjexact.render.report.write_report

    def interrupted(report, directory, **options):
        real(report, directory, compile_pdf=False, quiet=True)
        raise KeyboardInterrupt

    monkeypatch.setattr(bjexact.render.report, "write_report", interrupted)
    status, out, err = run("report", "-o", str(old), "--decks", "inf", "--no-pdf", "-q", "--no-rule-effects")
    assert status == 130
    assert {p: p.read_text() for p in old.iterdir()} == before
    assert files_in(tmp_path) == {"out", *(f"out/{p.name}" for p in old.iterdir())}

    monkeypatch.setattr(bjexact.render.report, "write_report", real)
    status, out, err = run("report", "-o", str(old), "--decks", "inf", "--no-pdf", "-q", "--no-rule-effects")
    assert status == 0
    assert (old / "notes.txt").read_text() == "old notes.txt"
    assert not (old / "report.pdf").exists()  # the old PDF was of an older report
    assert (old / "report.md").read_text().startswith("# Exact blackjack: infinite deck, S17, 3:2")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


# --- standard output and signals, as processes -------------------------------------------------------------


def test_closed_standard_output():
    done = subprocess.run(f"'{sys.executable}' -m bjexact replay Q 6 4 9 10 >&-", shell=True, capture_output=True,
                          text=True, timeout=CASE_SECONDS)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "closed" in done.stderr, done.stderr


def test_full_standard_output():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "bjexact", "replay", "Q", "6", "4", "9", "10"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=CASE_SECONDS)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "No space left" in done.stderr, done.stderr


def test_broken_pipe_is_quiet():
    done = subprocess.run(f"'{sys.executable}' -m bjexact matrix --decks inf --upcard 6 | head -1", shell=True,
                          capture_output=True, text=True, timeout=CASE_SECONDS)
    assert done.stdout.strip() and done.stderr == "", done.stderr


@pytest.mark.parametrize("delay", [0.002, 0.01, 0.03, 0.1, 0.4])
def test_ctrl_c_at_any_moment_is_one_line(delay):
    """From the moment ``python -m bjexact`` runs its ``__main__`` (Python's own start-up comes before)."""
    start = ("import sys, bjexact; code = compile(open(bjexact.__path__[0] + '/__main__.py').read(), "
             "'__main__.py', 'exec'); sys.argv = ['bjexact', 'eor', '--decks', 'inf']; print('ready', flush=True); "
             "exec(code, {'__name__': '__main__', '__package__': 'bjexact'})")
    process = subprocess.Popen([sys.executable, "-c", start], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    assert process.stdout.readline() == "ready\n"
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=CASE_SECONDS)
    if "Traceback" in err and "__main__.py" not in err and "bjexact/" not in err:
        return  # the signal came in the few instructions of this test's own start-up line, before bjexact's
    assert "Traceback" not in err, err
    assert process.returncode in (130, -signal.SIGINT, 0), (process.returncode, err)
    assert err.count("\n") <= 1, err


# --- check-sim: code the user gave us ---------------------------------------------------------------------

SIMULATORS = '''
import sys, time
def sleepy(upcard, rng): time.sleep(1000)
def exits(upcard, rng): sys.exit(0)
def interrupts(upcard, rng): raise KeyboardInterrupt
def raises(upcard, rng): raise ValueError("two\\nlines")
class Unprintable:
    def __repr__(self): raise RuntimeError("no repr")
def unprintable(upcard, rng): return Unprintable()
class Silent(Exception):
    def __str__(self): raise RuntimeError
def silent(upcard, rng): raise Silent()
def factory(rules): raise RuntimeError("the factory is down")
def fine(upcard, rng): return "bust"
'''


@pytest.mark.parametrize("name, extra, words", [
    ("sleepy", [], "--call-timeout"),
    ("exits", [], "sys.exit(0)"),
    ("interrupts", [], "KeyboardInterrupt"),
    ("raises", [], "ValueError: two lines"),
    ("unprintable", [], "repr fails"),
    ("silent", [], "Silent"),
    ("factory", ["--factory"], "the factory is down"),
    ("fine", ["--bias", "5"], "--bias"),
    ("fine", ["--rounds", "1000000000000"], "--rounds"),
    ("fine", ["--rounds", "100000000", "--timeout", "0.5"], "--timeout"),
])
def test_hostile_simulators(tmp_path, name, extra, words):
    (tmp_path / "sims.py").write_text(SIMULATORS)
    started = time.monotonic()
    status, out, err = run_process("check-sim", f"{tmp_path / 'sims.py'}:{name}", "--decks", "inf",
                                   "--call-timeout", "0.5", "--rounds", "1000", *extra)
    assert time.monotonic() - started < 20
    assert_clean(status, out, err)
    assert status == 2 and words in err, err


QUARTER_DECK = "1,1,1,1,1,1,1,1,1,4"  # every rank and up-card: check-strategy's hands in a tenth of a second
OUT_OF_TIME = '''
import threading, time
def factory(rules):
    time.sleep(1000)
def swallows(cards, upcard, unseen):
    try:
        time.sleep(1000)
    except BaseException:
        pass
    return "stand"
def swallows_forever(cards, upcard, unseen):
    while True:
        try:
            time.sleep(1000)
        except BaseException:
            pass
def threads(cards, upcard, unseen):
    if not any(t.name == "left running" for t in threading.enumerate()):
        threading.Thread(target=time.sleep, args=(1000,), name="left running").start()
    return "stand" if sum(cards) >= 17 else "hit"
'''


@pytest.mark.parametrize("name, extra, words", [
    ("sleep_on_import", ["--timeout", "1"], "sleep_on_import.py:decide took longer than --timeout 1 s"),
    ("factory", ["--timeout", "1", "--game"], "calling its factory took longer than --timeout 1 s"),
    ("swallows", ["--call-timeout", "0.5"], "no answer within --call-timeout 0.5 s"),
    ("swallows_forever", ["--call-timeout", "0.5"], "(and ran on after being stopped)"),
])
def test_user_code_is_held_to_its_time_limits(tmp_path, name, extra, words):
    """A module that sleeps while imported, a factory that sleeps, an engine that swallows the
    time limit (and returns, or runs on): one line, exit 2, in about the time asked."""
    (tmp_path / "slow.py").write_text(OUT_OF_TIME)
    (tmp_path / "sleep_on_import.py").write_text("import time\ntime.sleep(1000)\n")
    module = tmp_path / f"{'sleep_on_import' if name == 'sleep_on_import' else 'slow'}.py"
    if name == "factory":  # check-sim --game's factory
        argv = ["check-sim", "--game", f"{module}:factory", "--factory", "--decks", "inf", "--rounds", "100",
                *[x for x in extra if x != "--game"]]
    else:  # a quarter deck: the engine is called as on any shoe, after a solve of a tenth of a second
        argv = ["check-strategy", f"{module}:{'decide' if name == 'sleep_on_import' else name}", "--shoes", "1",
                "--shoe", QUARTER_DECK, *extra]
    started = time.monotonic()
    status, out, err = run_process(*argv)
    assert time.monotonic() - started < 15
    assert_clean(status, out, err)
    assert status == 2 and words in err, err


def test_threads_the_users_code_leaves_running_do_not_hold_the_exit(tmp_path):
    """The engine's thread sleeps 1000 s from its first call: the exit must not wait for it (a quarter
    deck puts its hands to the engine as one deck does, in a tenth of the time)."""
    (tmp_path / "slow.py").write_text(OUT_OF_TIME)
    started = time.monotonic()
    status, out, err = run_process("check-strategy", f"{tmp_path / 'slow.py'}:threads", "--shoes", "1",
                                   "--shoe", QUARTER_DECK)
    assert time.monotonic() - started < 30
    assert status in (0, 1) and err == "" and "decisions" in out, (status, out, err)


ROUND_SIMULATORS = '''
import sys, time
class Unfloatable:
    def __float__(self): raise RuntimeError("no float")
def sleepy(rng): time.sleep(1000)
def exits(rng): sys.exit(0)
def interrupts(rng): raise KeyboardInterrupt
def huge(rng): return 10**5000
def unfloatable(rng): return Unfloatable()
def nan(rng): return float("nan")
def refuses(rng): raise NotImplementedError("no resplitting here")
def raising_factory(rules): raise ValueError("cannot deal 4 split hands")
def exiting_factory(rules): sys.exit(3)
'''


@pytest.mark.parametrize("name, extra, words", [
    ("sleepy", ["--call-timeout", "1", "--timeout", "15"], "--call-timeout 1 s in round 1"),
    ("exits", [], "sys.exit(0)"),
    ("interrupts", [], "KeyboardInterrupt (not a Ctrl-C)"),
    ("huge", [], "an integer of about 5001 digits"),
    ("unfloatable", [], "RuntimeError: no float"),
    ("nan", [], "not a finite number"),
    ("refuses", [], "refused these rules (its first call in round 1 raised): NotImplementedError: no resplitting"),
    ("raising_factory", ["--factory"], "refused these rules (infinite deck"),
    ("exiting_factory", ["--factory"], "called sys.exit(3)"),
])
def test_hostile_round_simulators(tmp_path, name, extra, words):
    (tmp_path / "rounds.py").write_text(ROUND_SIMULATORS)
    report = tmp_path / "report.txt"
    started = time.monotonic()
    status, out, err = run_process("check-sim", "--game", f"{tmp_path / 'rounds.py'}:{name}", "--decks", "inf",
                                   "--split-hands", "1", "--rounds", "1000", "-o", str(report), *extra)
    assert time.monotonic() - started < 20
    assert_clean(status, out, err)
    assert status == 2 and words in err and "internal error" not in err, err
    assert not report.exists()


def test_a_round_simulator_module_that_exits_on_import_writes_no_report(tmp_path):
    """The rounds given, as in test_hostile_round_simulators: the module is imported at once, not after
    the seconds of solving that plan the rounds (test_round_power checks the plan)."""
    (tmp_path / "quits.py").write_text("import sys\nsys.exit(0)\ndef play(rng): return 0.0\n")
    report = tmp_path / "report.txt"
    status, out, err = run_process("check-sim", "--game", f"{tmp_path / 'quits.py'}:play", "--decks", "inf",
                                   "--split-hands", "1", "--rounds", "1000", "-o", str(report))
    assert status == 2 and "sys.exit(0)" in err and not report.exists(), err


def test_verify_reads_published_layouts(tmp_path):
    """A space before '%', and a '|' after the first column only (the layout of published tables)."""
    status, table, err = run("dealer", "--decks", "2", "--decimals", "2")
    spaced = re.sub(r"(\d+\.\d+)", r"\1 %", table)
    (tmp_path / "spaced.txt").write_text(spaced)
    status, out, err = run("verify", str(tmp_path / "spaced.txt"), "--decks", "2")
    assert status == 0 and "10 rows read" in out, (out, err)
    piped = "\n".join(line.replace("  ", "  | ", 1) if line[:1].isalnum() else line for line in table.splitlines())
    (tmp_path / "piped.txt").write_text(piped)
    status, out, err = run("verify", str(tmp_path / "piped.txt"), "--decks", "2")
    assert status == 0 and "10 rows read" in out, (piped, out, err)


# --- every option of every command, from the parsers themselves ----------------------------------------------

DATA = Path(__file__).parent / "data"
HALF_DECK = "2,2,2,2,2,2,2,2,2,8"
FAST_GRID = '[base]\ndecks = "inf"\nsplit_hands = 1\n[grid]\nh17 = [false, true]\n'
BASES = {  # fast settings that the fuzzed options are added to
    "dealer": ["--decks", "inf"],
    "matrix": ["--decks", "inf", "--upcard", "6"],
    "player": ["--decks", "inf"],
    "graph": ["--decks", "inf", "--upcard", "5", "-o", "-"],
    "replay": ["Q", "6", "4", "9", "10"],
    "verify": [str(DATA / "inf_s17_probabilities.tsv"), "--decks", "inf"],
    "check-sim": ["bjexact.checks.simcheck:exact_dealer_simulator", "--factory", "--decks", "inf", "--rounds", "2000"],
    "boundaries": ["--decks", "inf", "--upcard", "T", "--total", "16"],
    "play": ["--seed", "1"],
    "edge": ["--decks", "inf", "--split-hands", "2"],
    "hand": ["T", "6", "--upcard", "T", "--decks", "inf"],
    "chart": ["--decks", "inf", "--split-hands", "2"],
    # the newer commands; {tmp}: a directory of the test's own (files in it: _command_files)
    "sweep": ["{tmp}/grid.toml", "--serial", "--rows", "{tmp}/rows.csv", "--store", "{tmp}/store"],
    # a quarter deck: the same examples end as on half a deck (two played through, three refused), in half the time
    "count": ["--shoe", QUARTER_DECK, "--split-hands", "1", "--shoes", "1", "--serial", "--store", "{tmp}/store"],
    "verify --kind chart": [str(DATA / "chart_inf_s17_das_ls.txt"), "--decks", "inf", "--surrender", "late"],
    "verify --kind edge": ["{tmp}/edge.txt", "--decks", "inf", "--split-hands", "1"],
    "count indices": ["--shoe", "2,2,2,2,2,2,2,2,2,8", "--split-hands", "1", "--span", "1", "--left", "1/2",
                      "--serial", "--quiet", "--store", "{tmp}/store"],
    # a quarter deck read full (--left 1): Griffin's eleven solves of 12 cards, not of 25
    "count betting": ["--shoe", QUARTER_DECK, "--left", "1", "--split-hands", "1", "--span", "2", "--serial",
                      "--quiet", "--store", "{tmp}/store"],
    "check-strategy": ["{tmp}/engine.py:decide", "--shoe", QUARTER_DECK],
    "sidebet": ["bust", "--decks", "1"],
}
SLOW_OR_ELSEWHERE = {"--decks", "--shoe", "--output", "-o", "--reference", "--game", "--rounds", "--episodes",
                     "--timeout", "--call-timeout", "--full", "--plot", "--file", "--help", "-h", "--symbolic",
                     "--ten-density", "--gym", "--identify", "--kind", "--by", "--view", "--depth", "--digits",
                     "--heatmap",
                     "--log", "--replay",  # play's files: test_play_log_and_replay_files
                     "--rows", "--store", "--scheduler", "--workers",  # sweep, count: elsewhere in this file
                     "--shoes"}  # count: the number of shoes is the counting tests' (its bound too)


@functools.cache
def _options(command: str) -> tuple[tuple[str, Any], ...]:
    """(option, a strategy for its values or None for a flag) of every option of ``command`` fuzzed here,
    read from the parser once (building the whole command line's parser for every example took a
    tenth of this file's time)."""
    from bjexact.cli import build_parser
    from bjexact.cli.safety import subparser

    name, *rest = command.split()
    parser = subparser(build_parser(), name)
    if rest and not rest[0].startswith("-"):  # a command of a command: count indices, count betting
        parser = subparser(parser, rest[0])
    options: list[tuple[str, Any]] = []
    for action in parser._actions:
        names = [o for o in action.option_strings if o not in SLOW_OR_ELSEWHERE]
        if not action.option_strings or len(names) < len(action.option_strings):
            continue
        if action.nargs == 0:
            options.append((names[0], None))
        else:
            choices = [str(c) for c in action.choices or ()]  # --split-hands has whole-number choices
            values = st.sampled_from([*choices, "x", ""]) if choices else st.one_of(NUMBERS, CARDS)
            options.append((names[0], values))
    return tuple(options)


@st.composite
def command_lines(draw, command):
    options = list(_options(command))
    argv = list(BASES[command])
    for _ in range(draw(st.integers(0, 3))):
        flag, values = draw(st.sampled_from(options))
        if values is None:
            argv.append(flag)
        else:
            value = draw(values)
            argv += [f"{flag}={value}"] if value.startswith("-") or draw(st.booleans()) else [flag, value]
    return argv


def _command_files(tmp: Path) -> None:
    """The files the newer commands' fuzzed command lines read: a grid, a printed edge."""
    (tmp / "grid.toml").write_text(FAST_GRID)
    (tmp / "edge.txt").write_text("-1.09%\n")
    (tmp / "engine.py").write_text("def decide(cards, upcard, unseen):\n"
                                   "    return 'hit' if sum(cards) < 17 else 'stand'\n")


SLOW_EXAMPLES = ("boundaries", "check-sim", "edge", "hand", "chart", "player", "sweep", "verify --kind chart",
                 "verify --kind edge", "count indices", "count betting", "check-strategy", "sidebet")


@pytest.mark.parametrize("command", sorted(BASES))
def test_every_option(tmp_path, command):
    _command_files(tmp_path)
    name, *kind = command.split()
    examples = EXAMPLES or (5 if command == "count" else 10 if command in SLOW_EXAMPLES else 40)
    @settings(max_examples=examples, deadline=None, derandomize=EXAMPLES is None)
    @given(argv=command_lines(command))
    def check(argv):
        status, out, err = run(name, *kind, *(a.replace("{tmp}", str(tmp_path)) for a in argv), stdin="5\ns\nq\n")
        assert_clean(status, out, err)

    check()


@pytest.mark.parametrize("text", ["base = 5\n", "grid = [1]\n", "[base]\n[base]\n", "[base\n", "\x00",
                                  "[base]\nx = \n", '[base]\ndecks = "inf"\n[grid]\nsplit_hands = [2.0]\n',
                                  '[base]\ndecks = "inf"\ncharlie = 5.0\n', "[base]\n[grid]\ngrid = 1\n"])
def test_grid_files_of_any_shape(tmp_path, text):
    """A grid file whose tables are missing, repeated, of the wrong type, or not TOML: one line."""
    (tmp_path / "grid.toml").write_text(text)
    status, out, err = run("sweep", str(tmp_path / "grid.toml"), "--serial", "--quiet", "--store",
                           str(tmp_path / "store"))
    assert_clean(status, out, err)
    assert status == 2, out


@pytest.mark.parametrize("kind", ["repeated-row", "long-line"])
def test_verify_stops_at_the_first_fatal_problem(tmp_path, kind):
    """A repeated row, or a line no table has, ends the reading at once: not after the whole file."""
    filler = "2\t0.1\t0.1\t0.1\t0.1\t0.1\t0.1\n" * 300_000 if kind == "repeated-row" else "|" * 9_000_000
    path = tmp_path / "table.tsv"
    path.write_text((DATA / "inf_s17_probabilities.tsv").read_text() + filler)
    started = time.monotonic()
    status, out, err = run("verify", str(path), "--decks", "inf")
    assert time.monotonic() - started < 10
    assert_clean(status, out, err)
    assert status == 2 and ("both give" in err or "characters" in err), err


SITUATIONS = ["under-a-file", "missing-directory", "fifo", "device", "directory", "empty", "symlink", "link-loop",
              "long-name", "odd-name", "mode-600", "new"]


def _prepare(tmp: Path, situation: str, name: str) -> tuple[str, bool]:
    """The -o argument for ``situation`` in the empty directory ``tmp``, and whether writing it must succeed."""
    if situation in ("under-a-file", "missing-directory", "fifo", "device", "directory", "empty"):
        return _situation(tmp, situation)[0], False
    if situation == "symlink":
        (tmp / "target.dot").write_text("old")
        (tmp / "link.dot").symlink_to("target.dot")
        return str(tmp / "link.dot"), True
    if situation == "link-loop":
        (tmp / "a.dot").symlink_to("b.dot")
        (tmp / "b.dot").symlink_to("a.dot")
        return str(tmp / "a.dot"), False
    if situation == "long-name":
        return str(tmp / ("x" * 300 + ".dot")), False
    if situation == "mode-600":
        (tmp / "out.dot").write_text("old")
        (tmp / "out.dot").chmod(0o600)
        return str(tmp / "out.dot"), True
    if situation == "odd-name":
        return str(tmp / (name + ".dot")), True
    return str(tmp / "out.dot"), True


ODD_NAMES = st.text(alphabet=st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)),
                    min_size=1, max_size=20).filter(lambda n: n not in (".", ".."))


@FUZZ
@given(situation=st.sampled_from(SITUATIONS), argv=st.sampled_from(WRITERS), name=ODD_NAMES)
def test_output_situations(tmp_path_factory, situation, argv, name):
    """Every command that writes a file, in every situation: the file whole, or one line and nothing new."""
    tmp = tmp_path_factory.mktemp("out")
    target, succeeds = _prepare(tmp, situation, name)
    before = {p: (p.is_symlink(), stat.S_IMODE(os.lstat(p).st_mode)) for p in tmp.rglob("*")}
    status, out, err = run(*argv, "-o", target)
    assert_clean(status, out, err, output_expected=False)
    if succeeds:
        assert status in (0, 1), err
        written = Path(os.path.realpath(target))
        assert written.read_text() != "old" and written.stat().st_size > 0
        assert {p: (p.is_symlink(), stat.S_IMODE(os.lstat(p).st_mode)) for p in before} == before
        assert not [p for p in tmp.rglob(".*") if p.name.endswith(".tmp")]
    else:
        assert status == 2, err
        assert set(tmp.rglob("*")) == set(before)


# the figure options: the file after each of them (chart -o draws the chart by the file's ending)
FIGURE_WRITERS = [
    ["dealer", "--decks", "inf", "--plot"],
    ["edge", "--decks", "inf", "--split-hands", "2", "--quiet", "--plot"],
    ["chart", "--decks", "inf", "--split-hands", "2", "--quiet", "--heatmap"],
    ["chart", "--decks", "inf", "--split-hands", "2", "--quiet", "-o"],
]


@pytest.mark.parametrize("situation", ["under-a-file", "missing-directory", "fifo", "device", "directory", "empty"])
@pytest.mark.parametrize("argv", FIGURE_WRITERS, ids=lambda argv: f"{argv[0]} {argv[-1]}")
def test_unwritable_figures(tmp_path, situation, argv):
    """A figure file that cannot be written is refused in one line before any work, and nothing is written."""
    target, words = _situation(tmp_path, situation)
    if target.endswith(".dot"):  # the same situation, for a figure's name
        if os.path.lexists(target):
            os.rename(target, target[:-4] + ".svg")
        target = target[:-4] + ".svg"
    before = files_in(tmp_path)
    status, out, err = run(*argv, target)
    assert_clean(status, out, err)
    assert status == 2, err
    if target.endswith(".svg"):
        assert words in err, err
    assert files_in(tmp_path) == before


@FUZZ
@given(argv=st.sampled_from(FIGURE_WRITERS[:1] + FIGURE_WRITERS[2:3]), name=ODD_NAMES,
       ending=st.sampled_from([".svg", ".SVG", ".png", ".pdf", ".gif", ".svg.", ""]),
       move=st.sampled_from([[], ["--move", "double"], ["--move", "x"], ["--move", ""]]))
def test_figure_names(tmp_path_factory, argv, name, ending, move):
    """Any file name with any ending: the figure whole, or one line and no file."""
    tmp = tmp_path_factory.mktemp("figure")
    status, out, err = run(*argv, str(tmp / (name + ending)), *(move if argv[0] == "chart" else []))
    assert_clean(status, out, err)
    written = [p for p in tmp.rglob("*") if p.is_file()]
    if status == 0:
        assert len(written) == 1 and written[0].stat().st_size > 0
    else:
        assert status == 2 and not written, err


@pytest.mark.parametrize("argv", [["play"], ["replay", "--file", "-"], ["verify", "-"]])
def test_closed_standard_input(argv):
    done = subprocess.run(f"'{sys.executable}' -m bjexact {' '.join(argv)} <&-", shell=True, capture_output=True,
                          text=True, timeout=CASE_SECONDS)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "closed" in done.stderr, done.stderr


def test_a_latex_error_keeps_only_its_log(tmp_path, monkeypatch):
    import bjexact.render.report
    from bjexact.errors import BjexactError

    def failing(report, directory, **options):
        (directory / "report.md").write_text("new")
        (directory / "report.log").write_text("! Undefined control sequence.")
        raise BjexactError(f"LaTeX failed on report.tex: Undefined control sequence. (log: {directory / 'report.log'})")

    monkeypatch.setattr(bjexact.render.report, "write_report", failing)
    monkeypatch.setattr(bjexact.render.report, "build_report", lambda *args, **options: object())  # not needed here
    status, out, err = run("report", "-o", str(tmp_path / "out"), "--decks", "inf", "-q")
    assert_clean(status, out, err)
    assert status == 2 and f"(log: {tmp_path / 'out' / 'report.log'})" in err, err
    assert files_in(tmp_path) == {"out", "out/report.log"}


# --- round two: the newer commands (edge, hand, chart, play, sweep, count, verify --kind chart|edge) ---------

DROP_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]


def count_argv(store: Path) -> list[str]:
    """A small, fast ``count`` (half a deck, no splitting, one shoe, this process only)."""
    return ["count", "--shoe", HALF_DECK, "--split-hands", "1", "--shoes", "1", "--serial", "--quiet",
            "--store", str(store)]


def run_without_override(*argv: str, seconds: float = CASE_SECONDS):
    """``python -m bjexact ARGV`` as a process that file permissions bind, as they bind another user
    (root without CAP_DAC_OVERRIDE: a read-only file or directory stays read-only)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        if not Path("/usr/bin/setpriv").exists():
            pytest.skip("running as root without setpriv to drop the permission override")
        prefix = DROP_OVERRIDE
    done = subprocess.run([*prefix, sys.executable, "-m", "bjexact", *argv], capture_output=True, text=True,
                          timeout=seconds)
    return done.returncode, done.stdout, done.stderr


def test_verify_reads_a_house_edge_from_standard_input():
    """'-' is standard input for --kind edge too, not a printed edge "-"."""
    status, out, err = run("verify", "-", "--kind", "edge", "--decks", "inf", stdin="-0.51%\n")
    assert_clean(status, out, err)
    assert status == 0 and out.startswith("-0.51% against infinite deck"), (out, err)


@pytest.mark.parametrize("argv", [
    ["edge", "--decks", "inf", "--split-hands", "2", "--quiet", "--plot", "{out}/p.svg", "-o", "{ro}/e.txt"],
    ["chart", "--decks", "inf", "--split-hands", "2", "--quiet", "--heatmap", "{out}/h.svg", "-o", "{ro}/c.txt"],
    [*count_argv(Path("{store}")), "-o", "{out}/c.txt", "--plot", "{ro}/p.svg"],
    ["dealer", "--ten-density", "t", "--plot", "{out}/p.svg", "-o", "{ro}/x.txt"],
    ["dealer", "--ten-density", "t", "--full", "{out}/f.txt", "-o", "{ro}/x.txt"],
    ["dealer", "--decks", "inf", "--plot", "{out}/p.svg", "-o", "{ro}/x.txt"],
    ["sweep", "{grid}", "--serial", "--quiet", "--rows", "{out}/r.csv", "-o", "{ro}/s.txt"],
], ids=lambda argv: " ".join(a for a in argv if a.startswith("-") and a not in ("--quiet", "--serial")))
def test_a_read_only_directory_leaves_no_other_output(tmp_path, argv):
    """Every output is checked before any work: one that cannot be written leaves the others unwritten."""
    out, ro = tmp_path / "out", tmp_path / "ro"
    out.mkdir()
    ro.mkdir(mode=0o555)
    ro.chmod(0o555)
    (tmp_path / "grid.toml").write_text(FAST_GRID)
    names = {"out": out, "ro": ro, "store": tmp_path / "store", "grid": tmp_path / "grid.toml"}
    status, stdout, err = run_without_override(*(a.format(**names) for a in argv))
    assert_clean(status, stdout, err)
    assert status == 2 and "Permission denied" in err and str(ro) in err, err
    assert files_in(out) == set() and files_in(ro) == set()


@pytest.mark.parametrize("situation", ["read-only file", "read-only directory"])
def test_a_file_this_user_may_not_write_is_refused(tmp_path, situation):
    """Another user's read-only file in a directory anyone may write is not replaced by renaming over it."""
    theirs = tmp_path / "theirs.svg"
    theirs.write_text("theirs")
    if situation == "read-only file":
        tmp_path.chmod(0o777)
        theirs.chmod(0o444)
        with contextlib.suppress(PermissionError):
            os.chown(theirs, 65534, 65534)
    else:
        tmp_path.chmod(0o555)
    for argv in (["dealer", "--decks", "inf", "-o"], ["edge", "--decks", "inf", "--split-hands", "1", "--plot"]):
        status, out, err = run_without_override(*argv, str(theirs))
        assert_clean(status, out, err)
        assert status == 2 and "Permission denied" in err, err
        assert theirs.read_text() == "theirs"
    tmp_path.chmod(0o755)
    assert files_in(tmp_path) == {"theirs.svg"}


def test_outputs_are_moved_into_place_only_when_all_are_written(tmp_path, monkeypatch):
    """The disk fills while the second of two outputs is written: neither is left (not the figure alone)."""
    import bjexact.files

    real_fdopen = os.fdopen
    opened = []

    def fdopen(fd, *args, **kwargs):
        opened.append(fd)
        if len(opened) < 2:
            return real_fdopen(fd, *args, **kwargs)
        real_fdopen(fd, "wb").close()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(bjexact.files.os, "fdopen", fdopen)
    status, out, err = run("edge", "--decks", "inf", "--split-hands", "1", "--quiet", "--plot",
                           str(tmp_path / "p.svg"), "-o", str(tmp_path / "e.txt"))
    assert_clean(status, out, err)
    assert status == 2 and "No space left" in err, err
    assert files_in(tmp_path) == set()


@pytest.mark.parametrize("argv", [
    ["edge", "--decks", "inf", "--split-hands", "1", "--quiet", "--plot", "{d}/same.svg", "-o", "{d}/same.svg"],
    ["edge", "--decks", "inf", "--split-hands", "1", "--quiet", "--plot", "{d}/same.svg", "-o", "{d}/./same.svg"],
    ["dealer", "--decks", "inf", "--plot", "{d}/same.svg", "-o", "{d}/same.svg"],
    ["dealer", "--ten-density", "t", "--full", "{d}/same.txt", "-o", "{d}/same.txt"],
    ["chart", "--decks", "inf", "--split-hands", "1", "--quiet", "--heatmap", "{d}/link.svg", "-o", "{d}/same.svg"],
    [*count_argv(Path("{d}/store")), "--plot", "{d}/same.svg", "-o", "{d}/same.svg"],
    ["sweep", "{d}/grid.toml", "--serial", "--quiet", "--rows", "{d}/same.csv", "-o", "{d}/same.csv"],
], ids=lambda argv: argv[0])
def test_two_outputs_naming_one_file_are_refused(tmp_path, argv):
    (tmp_path / "grid.toml").write_text(FAST_GRID)
    (tmp_path / "link.svg").symlink_to("same.svg")
    before = files_in(tmp_path)
    started = time.monotonic()
    status, out, err = run(*(a.format(d=tmp_path) for a in argv))
    assert_clean(status, out, err)
    assert status == 2 and "name the same file" in err, err
    assert files_in(tmp_path) == before
    assert time.monotonic() - started < 10  # refused before any work


def _children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children, started by any of its threads (Linux /proc)."""
    children = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            children += [int(c) for c in (task / "children").read_text().split()]
    return children


def _wait_for_bjexact(pid: int, seconds: float = CASE_SECONDS) -> None:
    """Until the process ``pid`` has loaded bjexact's exact numbers (gmpy2): past Python's own start-up,
    whose Ctrl-C is Python's (a loaded machine can take seconds to get there)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if "gmpy2" in Path(f"/proc/{pid}/maps").read_text():
                return
        except OSError:
            return
        time.sleep(0.1)


def _group_gone(group: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    return False


def _interrupt_group(process, wait) -> str:
    """After ``wait()``, Ctrl-C to ``process``'s group as a terminal sends it; its standard error. The
    group is killed should it outlive the test."""
    try:
        wait()
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            if not _group_gone(process.pid, 20):
                os.killpg(process.pid, signal.SIGKILL)
    return err


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the workers through /proc")
@pytest.mark.parametrize("command", ["sweep", "count"])
def test_ctrl_c_to_the_process_group_stops_the_workers_quietly(tmp_path, command):
    """A terminal sends Ctrl-C to every process of the group, the Dask workers too: one line, all gone."""
    # Eight six-deck rule sets split to four hands: some 15 s of solving on two workers, so that the Ctrl-C,
    # a second after the workers start, comes mid-solve on a fast machine too (four sets split to two hands
    # could finish first there, and exit 0).
    (tmp_path / "grid.toml").write_text("[base]\ndecks = 6\nsplit_hands = 4\n[grid]\nh17 = [false, true]\n"
                                        "das = [true, false]\nsurrender = [\"none\", \"late\"]\n")
    argv = {"sweep": ["sweep", str(tmp_path / "grid.toml")],
            "count": ["count", "--decks", "1", "--split-hands", "1", "--shoes", "3", "--store",
                      str(tmp_path / "store")]}[command]
    process = subprocess.Popen([sys.executable, "-m", "bjexact", *argv, "--workers", "2", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    def workers_started():
        deadline = time.monotonic() + 60
        while len(_children(process.pid)) < 2 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1)  # the workers start: import bjexact, begin solving
        assert process.poll() is None, process.communicate()

    err = _interrupt_group(process, workers_started)
    assert process.returncode == 130 and err == "bjexact: interrupted\n", err
    assert _group_gone(process.pid, 20), "worker processes outlived the command"


@pytest.mark.parametrize("delay", [0.8, 1.2, 1.6, 2.0])
def test_ctrl_c_while_the_local_cluster_starts_is_one_line(tmp_path, delay):
    """Ctrl-C to the process group while the local cluster's workers are starting: one line, all gone."""
    (tmp_path / "grid.toml").write_text(FAST_GRID)
    process = subprocess.Popen([sys.executable, "-m", "bjexact", "sweep", str(tmp_path / "grid.toml"), "--workers",
                                "2", "--quiet", "--store", str(tmp_path / "store")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    err = _interrupt_group(process, lambda: time.sleep(delay))
    assert process.returncode in (0, 130) and err in ("", "bjexact: interrupted\n"), err
    assert _group_gone(process.pid, 20), "worker processes outlived the command"


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="waits for bjexact through /proc")
@pytest.mark.parametrize("argv", [
    ["edge", "--decks", "6"],
    ["hand", "T", "6", "--upcard", "T", "--decks", "6"],
    ["chart", "--decks", "6"],
    ["play", "--decks", "6"],
    ["sweep", "{tmp}/grid.toml", "--serial", "--rows", "{tmp}/rows.csv", "--store", "{tmp}/store"],
    ["count", "--decks", "1", "--shoes", "1", "--serial", "--store", "{tmp}/store"],
    ["verify", "{tmp}/edge.txt", "--kind", "edge", "--decks", "6"],
    ["verify", str(DATA / "chart_inf_s17_das_ls.txt"), "--kind", "chart", "--decks", "6", "--surrender", "late"],
], ids=lambda argv: " ".join(argv[:3] if argv[0] == "verify" else argv[:1]))
def test_ctrl_c_to_the_process_group_is_one_line(tmp_path, argv):
    """Ctrl-C as a terminal sends it (to the process group) while the newer commands work or wait."""
    _command_files(tmp_path)
    (tmp_path / "grid.toml").write_text("[base]\ndecks = 6\n[grid]\nh17 = [false, true]\n")
    process = subprocess.Popen([sys.executable, "-m", "bjexact", *(a.replace("{tmp}", str(tmp_path)) for a in argv)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    _wait_for_bjexact(process.pid)
    time.sleep(1)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=CASE_SECONDS)
    assert "Traceback" not in err, err
    lines = [line for line in err.replace("\r", "\n").splitlines() if line.strip() and "[" not in line]  # no bars
    assert process.returncode in (0, 130) and len(lines) <= 1, (process.returncode, err)
    assert process.returncode == 0 or lines == ["bjexact: interrupted"], err
    assert _group_gone(process.pid, 10)


@pytest.mark.parametrize("command", ["sweep", "count"])
@pytest.mark.parametrize("address", ["garbage", "", "http://localhost:8786", "tcp://host:99999", "tcp://a b:1"])
def test_scheduler_addresses_are_checked(tmp_path, command, address):
    (tmp_path / "grid.toml").write_text(FAST_GRID)
    argv = {"sweep": ["sweep", str(tmp_path / "grid.toml"), "--quiet"], "count": count_argv(tmp_path / "store")}
    argv = [a for a in argv[command] if a != "--serial"]
    started = time.monotonic()
    status, out, err = run(*argv, "--scheduler", address)
    assert_clean(status, out, err)
    assert status == 2 and "--scheduler" in err and "tcp://HOST:PORT" in err, err
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("base, words", [
    ("decks = 1000000000000000000", "too large: at most 1,000,000"),
    ("decks = 1000001", "too large: at most 1,000,000"),
    ("shoe = [4, 4, 4, 4, 4, 4, 4, 4, 4, 99999999999999999999]", "too large"),
    ('decks = "inf"\nbj_pays = "1e300"', "bj_pays must be a fraction such as 3/2 or 6:5, not '1e300'"),
    ('decks = "inf"\nbj_pays = "' + "9" * 5000 + '"', "bj_pays must be a fraction"),
])
def test_grid_values_are_bounded_as_options_are(tmp_path, base, words):
    (tmp_path / "grid.toml").write_text(f"[base]\n{base}\nsplit_hands = 1\n")
    status, out, err = run("sweep", str(tmp_path / "grid.toml"), "--serial", "--quiet")
    assert_clean(status, out, err)
    assert status == 2 and words in err, err
    if "bj_pays" in base:  # the option says the same of the same value
        value = base.split('"')[-2]
        status, out, option_err = run("edge", "--decks", "inf", "--bj-pays", value, "--quiet")
        assert status == 2 and option_err.split(" must be ")[-1] == err.split(" must be ")[-1], (option_err, err)


def test_play_with_standard_output_closed():
    done = subprocess.run(f"printf '5\\ns\\nq\\n' | '{sys.executable}' -m bjexact play --seed 1 >&-", shell=True,
                          capture_output=True, text=True, timeout=CASE_SECONDS)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "closed" in done.stderr, done.stderr


def test_play_in_an_ascii_locale():
    """LC_ALL=C: the table is shown in ASCII (suits by their initials), not an internal error."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIOENCODING"))}
    done = subprocess.run([sys.executable, "-m", "bjexact", "play", "--seed", "1"], input=b"5\ns\nq\n",
                          capture_output=True, env=env | {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"},
                          timeout=CASE_SECONDS)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert b"--- Hand 1 - balance 100" in done.stdout and done.stdout.isascii()


def test_file_names_that_are_not_utf8_are_written_back_as_given(tmp_path):
    """LC_ALL=C, names in bytes that are not UTF-8: the chart read, the output written under the name
    asked for, and the chart's name inside it the very bytes given (not an internal error)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIOENCODING"))}
    env |= {"LC_ALL": "C", "LANG": "C"}
    folder = os.fsencode(tmp_path)
    chart, output = folder + b"/ch\xe4rt.txt", folder + b"/e\xe4.txt"
    for argv in ([b"chart", b"--decks", b"inf", b"-o", chart],
                 [b"edge", b"--decks", b"inf", b"--chart", chart, b"-o", output, b"--quiet"]):
        done = subprocess.run([os.fsencode(sys.executable), b"-m", b"bjexact", *argv], capture_output=True, env=env,
                              timeout=CASE_SECONDS)
        assert done.returncode == 0 and done.stderr == b"", done.stderr
    with open(output, "rb") as written:
        assert b"every hand played by the chart " + chart + b"." in written.read()


@pytest.mark.parametrize("argv", [
    ["sweep", "/dev/zero", "--serial"],
    ["count", "--system", "/dev/zero", "--decks", "1", "--serial"],
    ["play", "--replay", "/dev/zero"],
    ["replay", "--file", "/dev/zero"],
    ["verify", "/dev/zero", "--kind", "edge"],
    ["edge", "--decks", "inf", "--chart", "/dev/zero", "--quiet"],
])
def test_input_files_are_read_with_a_bound(argv):
    """/dev/zero never ends: each command reads a bounded amount and says the file is too large."""
    import resource

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))

    started = time.monotonic()
    status, out, err = run_process(*argv, preexec_fn=limit_memory)
    assert_clean(status, out, err)
    assert status == 2 and "larger than" in err, err
    assert time.monotonic() - started < 20


def test_rows_into_a_directory_is_refused_before_solving(tmp_path):
    (tmp_path / "grid.toml").write_text('[base]\ndecks = 6\n')
    (tmp_path / "rows").mkdir()
    started = time.monotonic()
    status, out, err = run("sweep", str(tmp_path / "grid.toml"), "--serial", "--quiet", "--rows",
                           str(tmp_path / "rows"))
    assert_clean(status, out, err)
    assert status == 2 and "is a directory" in err and ".tmp" not in err, err
    assert time.monotonic() - started < 10 and files_in(tmp_path) == {"grid.toml", "rows"}


@pytest.mark.parametrize("command", [["edge", "--quiet"], ["chart", "--quiet"], ["hand", "T", "6", "--upcard", "T"],
                                     ["play"]])
@pytest.mark.parametrize("option", [["--rsa"], ["--hit-split-aces"], ["--split-strategy", "cdp1"],
                                    ["--split-strategy", "cdp"]])
def test_split_rules_without_splitting_are_refused_alike(command, option):
    status, out, err = run(*command, "--decks", "inf" if command[0] != "play" else "1", "--split-hands", "1",
                           *option, stdin="q\n")
    assert_clean(status, out, err)
    assert status == 2 and option[0] in err and "--split-hands" in err, err


def test_grid_split_rules_without_splitting_are_refused_alike(tmp_path):
    for rule in ("rsa = true", "hit_split_aces = true"):
        (tmp_path / "grid.toml").write_text(f'[base]\ndecks = "inf"\nsplit_hands = 1\n{rule}\n')
        status, out, err = run("sweep", str(tmp_path / "grid.toml"), "--serial", "--quiet")
        assert_clean(status, out, err)
        assert status == 2 and "--split-hands" in err, err


GRID_VALUES = st.one_of(
    st.sampled_from([10**18, 10**6 + 1, "1e300", "9" * 5000, [4] * 9 + [10**20]]),
    st.integers(-3, 5), st.integers(-10**30, 10**30), st.booleans(), st.floats(allow_nan=True),
    NUMBERS, st.lists(st.integers(-2, 10**20), max_size=11),
)
GRID_KEYS = st.sampled_from(["decks", "shoe", "h17", "bj_pays", "double", "double_soft", "das", "rsa",
                             "hit_split_aces", "surrender", "hole_card", "obo", "split_strategy", "frobnicate",
                             "bj-pays", "split_hands", "charlie", "double_after_hit"])


def _toml(value) -> str:
    """A value in TOML (strings escaped as JSON strings, which TOML reads alike)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if value != value else ("inf" if value == float("inf") else "-inf" if value == float("-inf")
                                              else repr(value))
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml, value)) + "]"
    return json.dumps(value) if isinstance(value, str) else str(value)


@FUZZ
@given(base=st.dictionaries(GRID_KEYS, GRID_VALUES, max_size=2),
       grid=st.dictionaries(GRID_KEYS, st.lists(GRID_VALUES, max_size=3), max_size=2))
def test_grid_files(tmp_path_factory, base, grid):
    """Any values in a grid file: the rule effects, or one line naming the problem (no finite shoe of many
    decks is solved: those are bounded, refused, or the infinite deck)."""
    def solvable(value) -> bool:  # a number of decks that would be solved (slowly) rather than refused
        return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10**6

    if solvable(base.get("decks")) or any(solvable(v) for v in grid.get("decks", [])):
        base.pop("decks", None)
        grid.pop("decks", None)
    tmp = tmp_path_factory.mktemp("grid")
    lines = ["[base]", 'decks = "inf"' if "decks" not in base and "shoe" not in base else "", "split_hands = 1"]
    lines += [f"{key} = {_toml(value)}" for key, value in base.items()]
    lines += ["[grid]"] + [f"{key} = {_toml(values)}" for key, values in grid.items()]
    (tmp / "grid.toml").write_text("\n".join(lines) + "\n")
    status, out, err = run("sweep", str(tmp / "grid.toml"), "--serial", "--quiet", "--effects-only")
    assert_clean(status, out, err)
