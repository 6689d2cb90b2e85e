"""The HTTP API of ``bjexact serve``: every endpoint against the command line and the engine, every
class of bad input, one solve for concurrent identical requests, and a client that leaves mid-solve."""

from __future__ import annotations

import json
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

import pytest
from clirun import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webserver import running_server

from bjexact.core.numbers import fraction_string
from bjexact.core.rules import GameRules
from bjexact.player.game import hand_moves, solve_game
from bjexact.render.effects import house_edge, rule_changes
from bjexact.web.queries import RULE_NAMES, rules_from_query, rules_query
from bjexact.web.service import too_long

# small, fast rule sets: the infinite deck and one deck, split once
INF = "decks=inf&split_hands=2"
ONE = "decks=1&split_hands=2"
ONE_ARGS = ("--decks", "1", "--split-hands", "2")
INF_ARGS = ("--decks", "inf", "--split-hands", "2")


@pytest.fixture(scope="module")
def server():
    with running_server(workers=2) as running:
        yield running


# --- the same answers as the command line ---------------------------------------------------------------

@pytest.mark.parametrize("path, argv", [
    (f"edge?{ONE}&format=csv", ("edge", *ONE_ARGS, "--format", "csv")),
    (f"edge?{ONE}", ("edge", *ONE_ARGS, "--format", "json")),
    (f"edge?{ONE}&strategy=chart&format=json", ("edge", *ONE_ARGS, "--strategy", "chart", "--format", "json")),
    (f"edge?{INF}&format=text", ("edge", *INF_ARGS)),
    (f"chart?{ONE}&format=csv", ("chart", *ONE_ARGS, "--format", "csv")),
    (f"chart?{ONE}", ("chart", *ONE_ARGS, "--format", "json")),
    (f"chart?{ONE}&format=svg", ("chart", *ONE_ARGS, "--format", "svg")),
    (f"hand?{ONE}&cards=T,6&upcard=T", ("hand", "T", "6", "--upcard", "T", *ONE_ARGS, "--format", "json")),
    (f"hand?{ONE}&cards=8,8&upcard=A&format=csv", ("hand", "8", "8", "--upcard", "A", *ONE_ARGS, "--format", "csv")),
    (f"hand?{ONE}&cards=A,T&upcard=A", ("hand", "A", "T", "--upcard", "A", *ONE_ARGS, "--format", "json")),
    (f"hand?{INF}&cards=5,4,3&upcard=2&format=md", ("hand", "5", "4", "3", "--upcard", "2", *INF_ARGS, "--format",
                                                     "md")),
    (f"dealer?{ONE}&format=csv", ("dealer", "--decks", "1", "--naturals", "separate", "--format", "csv")),
    (f"dealer?{INF}&h17=true", ("dealer", "--decks", "inf", "--h17", "--naturals", "separate", "--format", "json")),
])
def test_every_answer_is_the_command_lines_byte_for_byte(server, capsys, path, argv):
    status, cli, _ = run(capsys, *argv)
    assert status == 0
    code, media, body = server.get("/api/" + path)
    assert code == 200, body
    assert body == cli
    assert media.split(";")[0] == {"csv": "text/csv", "svg": "image/svg+xml", "text": "text/plain",
                                   "md": "text/markdown"}.get(path.rsplit("format=", 1)[-1], "application/json")


def test_the_house_edge_is_the_engines_exactly(server):
    for query, rules in ((ONE, GameRules(decks=1, split_hands=2)),
                         (f"{INF}&h17=true&surrender=late", GameRules(decks="inf", split_hands=2, h17=True,
                                                                      surrender="late"))):
        document = server.json(f"/api/edge?{query}")
        ev = solve_game(rules, with_distribution=False, progress=False).ev
        assert document["house_edge"] == fraction_string(-ev)
        assert document["house_edge_float"] == float(-ev)
        assert document["rules"] == rules.to_json()


def test_a_cell_holds_each_of_its_hands_with_the_hand_commands_values(server):
    cell = server.json(f"/api/cell?{ONE}&section=hard&row=16&upcard=T")
    rules = GameRules(decks=1, split_hands=2)
    assert cell["code"] == "H" or cell["code"].startswith(("H", "S", "R"))
    assert sorted(tuple(h["cards"]) for h in cell["hands"]) == [("6", "T"), ("7", "9")]
    for hand in cell["hands"]:
        moves = hand_moves(rules, hand["cards"], "T")
        assert hand["moves"] == {m: fraction_string(v) for m, v in moves.values.items()}
        assert hand["best"] == moves.best
    pairs = server.json(f"/api/cell?{ONE}&section=pairs&row=8&upcard=6")
    assert [h["cards"] for h in pairs["hands"]] == [["8", "8"]] and "split" in pairs["hands"][0]["moves"]


def test_the_decision_query_gives_the_best_move_and_every_value(server):
    document = server.json(f"/api/decision?{ONE}&cards=T,6&upcard=T")
    hand = server.json(f"/api/hand?{ONE}&cards=T,6&upcard=T")
    assert document == {key: hand[key] for key in ("cards", "upcard", "best", "moves", "moves_float")}


def test_rule_effects_are_each_changed_rule_sets_exact_edge(server):
    document = server.json(f"/api/effects?{INF}")
    rules = GameRules(decks="inf", split_hands=2)
    assert document["house_edge"] == fraction_string(house_edge(rules))
    labels = [c.label for c in rule_changes(rules)]
    assert [c["rule"] for c in document["changes"]] == labels
    h17 = document["changes"][0]
    assert h17["rule"] == "H17 instead of S17"
    assert h17["house_edge"] == fraction_string(house_edge(GameRules(decks="inf", split_hands=2, h17=True)))


def test_the_openapi_description_lists_every_endpoint_and_rule(server):
    document = server.json("/openapi.json")
    paths = set(document["paths"])
    assert {"/api/edge", "/api/chart", "/api/hand", "/api/decision", "/api/cell", "/api/dealer", "/api/effects",
            "/api/progress", "/api/defaults"} <= paths
    names = {p["name"] for p in document["paths"]["/api/edge"]["get"]["parameters"]}
    assert set(RULE_NAMES) | {"strategy", "format"} <= names


def test_the_page_and_its_files_come_from_the_server_alone(server):
    status, media, html = server.get("/")
    assert status == 200 and media.startswith("text/html")
    assert "/static/app.js" in html and "/static/style.css" in html
    for name in ("app.js", "style.css"):
        code, _, text = server.get(f"/static/{name}")
        assert code == 200 and "http://" not in text and "https://" not in text
    assert "https://" not in html and "http://" not in html


# --- bad input: HTTP 400, the command line's line ----------------------------------------------------

@pytest.mark.parametrize("path, argv", [
    ("edge?decks=0", ("edge", "--decks", "0")),
    ("edge?decks=abc", ("edge", "--decks", "abc")),
    ("edge?shoe=1,2,3", ("edge", "--shoe", "1,2,3")),
    ("edge?shoe=0,0,0,0,0,0,0,0,0,0", ("edge", "--shoe", "0,0,0,0,0,0,0,0,0,0")),
    ("edge?bj_pays=x", ("edge", "--bj-pays", "x")),
    ("edge?obo=true", ("edge", "--obo")),
    ("edge?surrender=late&hole_card=enhc", ("edge", "--surrender", "late", "--hole-card", "enhc")),
    ("edge?rsa=true&split_hands=2", ("edge", "--rsa", "--split-hands", "2")),
    ("edge?double_split_aces=true", ("edge", "--double-split-aces")),
    ("edge?double=none&double_after_hit=true", ("edge", "--double", "none", "--double-after-hit")),
    ("hand?cards=T,X&upcard=T", ("hand", "T", "X", "--upcard", "T")),
    ("hand?cards=T,6&upcard=X", ("hand", "T", "6", "--upcard", "X")),
    ("hand?cards=A,T&upcard=T&shoe=1,0,0,0,0,0,0,0,0,1", ("hand", "A", "T", "--upcard", "T", "--shoe",
                                                         "1,0,0,0,0,0,0,0,0,1")),
])
def test_bad_input_is_400_with_the_command_lines_one_line(server, capsys, path, argv):
    status, _, err = run(capsys, *argv)
    assert status == 2
    code, media, body = server.get("/api/" + path)
    assert code == 400 and media == "application/json"
    assert "bjexact: error: " + json.loads(body)["error"] + "\n" == err


@pytest.mark.parametrize("path, words", [
    ("edge?frobnicate=1", "unknown rule 'frobnicate'"),
    ("edge?h17=maybe", "h17 must be true or false"),
    ("edge?split_hands=9", "--split-hands must be 1 (no splitting) to"),
    ("edge?split_hands=two", "--split-hands must be a whole number"),
    ("edge?charlie=3", "--charlie must be a number of cards"),
    ("edge?split_strategy=optimal", "takes minutes per rule set"),
    ("edge?decks=6&decks=2", "decks is given twice"),
    ("edge?format=yaml", "format must be one of"),
    ("edge?strategy=best", "strategy must be optimal or chart"),
    ("chart?format=png", "format must be one of"),
    ("hand?upcard=T", "cards is needed"),
    ("hand?cards=T,6", "upcard is needed"),
    ("hand?" + "cards=" + ",".join(["2"] * 30) + "&upcard=T", "a hand holds at most 21"),
    ("hand?shoe=0,0,0,0,0,0,0,0,4,4&cards=A,T&upcard=6", "the hand is a natural"),
    ("hand?decks=1&cards=2,2,2,2,2&upcard=6", "the shoe does not hold 5 of 2"),
    ("cell?section=hard&row=16", "a cell needs section, row and upcard"),
    ("cell?section=hard&row=16&upcard=T&format=csv", "format does not apply to /api/cell"),
    ("chart?strategy=chart", "strategy does not apply to /api/chart"),
    ("hand?cards=T,6&upcard=T,9", "upcard is one card, not 2"),
    ("edge?split-hands=2&split_hands=3", "split_hands is given twice"),
    ("cell?decks=inf&split_hands=2&section=hard&row=99&upcard=T", "no chart cell hard '99' v 'T'"),
    ("nothing-here", "Not Found"),
])
def test_bad_requests_are_400_or_404_with_one_line(server, path, words):
    code, media, body = server.get("/api/" + path)
    assert code in (400, 404) and media == "application/json", body
    error = json.loads(body)["error"]
    assert words in error and "\n" not in error


HOSTILE = st.one_of(
    st.sampled_from(["", " ", "x", "-1", "0", "1e400", "9" * 5000, "inf", "nan", "true", "false", "3/2", "1/0",
                     "²", "٣", "%00", "\x00", "1,2,3", "4,4,4,4,4,4,4,4,4,16", "a" * 300, "none", "late", "enhc"]),
    st.text(max_size=8),
)
KEYS = st.one_of(st.sampled_from(RULE_NAMES + ("format", "strategy", "x", "", "DECKS", "split-hands")),
                 st.text(max_size=6))


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(KEYS, HOSTILE), max_size=4), st.sampled_from(["progress", "dealer"]))
def test_no_hostile_query_gets_a_server_error(server, pairs, path):
    query = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in pairs)
    code, media, body = server.get(f"/api/{path}?{query}")
    assert code in (200, 400), (query, code, body)
    if code == 400:
        assert "\n" not in json.loads(body)["error"]


# --- one solve per question, progress, a client that leaves ---------------------------------------------

def test_concurrent_identical_requests_are_solved_once(server):
    query = "decks=1&split_hands=2&h17=true&das=false"
    before = server.service.solves
    with ThreadPoolExecutor(12) as pool:
        bodies = list(pool.map(lambda _: server.get(f"/api/edge?{query}")[2], range(12)))
    assert len(set(bodies)) == 1 and json.loads(bodies[0])["rules"]["h17"] is True
    assert server.service.solves == before + 1
    server.get(f"/api/edge?{query}")  # from memory
    assert server.service.solves == before + 1


def test_a_client_that_leaves_mid_solve_does_not_stop_the_solve(server):
    query = "decks=2&split_hands=2&surrender=late"
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as client:
        client.sendall(f"GET /api/edge?{query} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        seen = threading.Event()
        # the solve is under way once its progress shows; then the client goes
        for _ in range(200):
            if server.json(f"/api/progress?{query}")["solving"]:
                seen.set()
                break
            threading.Event().wait(0.02)
    before = server.service.solves
    document = server.json(f"/api/edge?{query}")
    assert server.service.solves == before  # the first solve's answer, kept
    ev = solve_game(GameRules(decks=2, split_hands=2, surrender="late"), with_distribution=False, progress=False).ev
    assert document["house_edge"] == fraction_string(-ev)
    assert seen.is_set()
    assert server.json(f"/api/progress?{query}") == {"solving": False, "stage": "", "done": 0, "total": 0}


def test_a_solve_past_the_bound_is_stopped_and_refused_and_the_server_goes_on():
    heavy = "edge?decks=1&split_hands=4&split_strategy=cdp&hit_split_aces=true&double_after_hit=true"
    with running_server(workers=1, max_seconds=1) as bounded:
        code, _, body = bounded.get("/api/" + heavy)
        assert code == 400
        assert json.loads(body)["error"] == too_long(1)
        assert bounded.json(f"/api/progress?{heavy.split('?')[1]}")["solving"] is False
        # the worker that took its place answers, and the refusal is kept
        assert bounded.json("/api/dealer?decks=inf")["rules"]["decks"] == "inf"
        solves = bounded.service.solves
        assert bounded.get("/api/" + heavy)[0] == 400 and bounded.service.solves == solves


def test_the_bound_counts_a_solve_not_its_wait_in_the_queue():
    queries = [f"decks=inf&split_hands=2&bj_pays={p}" for p in ("3/2", "6/5", "7/5", "1/1", "2/1", "5/4")]
    with running_server(workers=1, max_seconds=5) as bounded, ThreadPoolExecutor(6) as pool:
        results = list(pool.map(lambda q: bounded.get(f"/api/edge?{q}"), queries))
    assert [code for code, _, _ in results] == [200] * 6, [body for _, _, body in results]


def test_a_worker_that_dies_mid_solve_is_replaced_and_its_question_answered(server):
    import os
    import signal
    import time

    query = "decks=2&split_hands=2&h17=true&surrender=late"
    with ThreadPoolExecutor(1) as pool:
        asked = pool.submit(server.get, f"/api/edge?{query}")
        for _ in range(500):
            if server.json(f"/api/progress?{query}")["solving"] and any(w.running for w in server.service._workers):
                break
            time.sleep(0.01)
        worker = next(w for w in server.service._workers if w.running is not None)
        for process in list(worker.pool._processes.values()):
            os.kill(process.pid, signal.SIGKILL)
        code, _, body = asked.result(timeout=120)
    assert code == 200, body
    ev = solve_game(GameRules(decks=2, split_hands=2, h17=True, surrender="late"), with_distribution=False,
                    progress=False).ev
    assert json.loads(body)["house_edge"] == fraction_string(-ev)
    assert server.json("/api/dealer?decks=inf")["rules"]["decks"] == "inf"  # every worker answers still


def test_the_service_serves_a_second_event_loop():
    from fastapi.testclient import TestClient

    from bjexact.web.app import create_app
    from bjexact.web.service import SolveService

    service = SolveService(1)
    try:
        app = create_app(service)
        for decks in ("inf", "1"):  # each client runs its own event loop
            with TestClient(app) as client:
                response = client.get(f"/api/dealer?decks={decks}")
                assert response.status_code == 200 and response.json()["rules"]["decks"] in ("inf", 1)
    finally:
        service.close()


# --- the shareable link ---------------------------------------------------------------------------------

RULE_SETS = st.builds(
    GameRules, decks=st.sampled_from([1, 2, 6, 8, "inf"]), h17=st.booleans(),
    double=st.sampled_from(["any", "9-11", "10-11"]), das=st.booleans(), split_hands=st.integers(1, 4),
    surrender=st.sampled_from(["none", "late"]), split_strategy=st.sampled_from(["cdz", "cdp1", "cdp"]),
    charlie=st.sampled_from([None, 5, 6]), double_after_hit=st.booleans(),
).filter(lambda rules: rules.split_hands > 1 or rules.split_strategy == "cdz")  # else refused, as the CLI does


@settings(max_examples=200, deadline=None, derandomize=True)
@given(RULE_SETS)
def test_the_shareable_query_gives_the_same_rules_back(rules):
    from urllib.parse import parse_qsl

    text = rules_query(rules)
    assert rules_from_query(dict(parse_qsl(text, keep_blank_values=True))) == rules
    assert text == "" if rules == GameRules() else "=" in text


def test_the_query_of_a_shoe_and_of_the_defaults():
    assert rules_query(GameRules()) == ""
    assert rules_query(GameRules(decks=6, h17=True, bj_pays="6/5")) == "decks=6&h17=true&bj_pays=6/5"
    shoe = GameRules(shoe=(4, 4, 4, 4, 4, 4, 4, 4, 4, 16))
    assert rules_query(shoe) == "shoe=4,4,4,4,4,4,4,4,4,16"
    assert rules_from_query({"shoe": "4,4,4,4,4,4,4,4,4,16"}) == shoe
    assert rules_from_query({"split-hands": "2", "h17": ""}) == GameRules(split_hands=2, h17=True)


# --- the command ----------------------------------------------------------------------------------------

def test_a_taken_port_or_unknown_host_is_one_line_and_exit_2(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, out, err = run(capsys, "serve", "--port", str(port))
    assert status == 2 and out == ""
    assert err == (f"bjexact: error: port {port} on 127.0.0.1 is taken: choose another with --port "
                   "(or stop the program that holds it)\n")
    status, _, err = run(capsys, "serve", "--host", "no-such-host.invalid", "--port", "0")
    assert status == 2 and err.startswith("bjexact: error: --host 'no-such-host.invalid'") and err.count("\n") == 1


def test_the_command_serves_and_stops_at_ctrl_c_without_a_trace():
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    server = subprocess.Popen([sys.executable, "-m", "bjexact", "serve", "--port", "0", "--workers", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith("bjexact serve: open http://127.0.0.1:") and line.endswith("/ (Ctrl-C stops it)\n")
        url = line.split("open ", 1)[1].split(" ", 1)[0]
        for _ in range(300):
            try:
                with urllib.request.urlopen(url + "api/defaults", timeout=5) as response:
                    assert json.loads(response.read())["rules"] == GameRules().to_json()
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise AssertionError("the server did not answer")
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    finally:
        server.kill()
    assert server.returncode == 130 and err == "bjexact: interrupted\n"
