"""The calculator page end to end, in a real headless browser (Chromium from the system's packages,
driven by Playwright): change a rule, read the house edge shown and check it exactly, click a chart
cell, follow the shared link, download the CSV."""

from __future__ import annotations

import os
import shutil

import pytest
from clirun import run
from webserver import running_server

from bjexact.core.numbers import fraction_string
from bjexact.core.rules import GameRules
from bjexact.player.game import hand_moves, solve_game

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install playwright")

CHROMIUM = os.environ.get("BJEXACT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (Debian: apt-get install "
                                                         "chromium); .ci/run installs it")
# headless, and no connections of the browser's own (this machine's network is closed)
ARGUMENTS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SOLVED = "body[data-ready=true]"


@pytest.fixture(scope="module")
def browser():
    with running_server(workers=2) as server, sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGUMENTS)
        yield server, chromium
        chromium.close()


def test_the_page_computes_exactly_what_the_engine_does(browser, capsys, tmp_path):
    server, chromium = browser
    page = chromium.new_page(viewport={"width": 1366, "height": 900})
    page.goto(server.url + "/?decks=inf&split_hands=2")
    page.wait_for_selector(SOLVED, timeout=120_000)
    infinite = GameRules(decks="inf", split_hands=2)
    edge = fraction_string(-solve_game(infinite, with_distribution=False).ev)
    assert page.get_attribute("#edge-optimal", "data-exact") == edge

    # change a rule: one deck
    page.select_option("select[name=decks]", "1")
    page.wait_for_selector(SOLVED, timeout=120_000)
    rules = GameRules(decks=1, split_hands=2)
    house_edge = -solve_game(rules, with_distribution=False, progress=False).ev
    edge = fraction_string(house_edge)
    assert page.get_attribute("#edge-optimal", "data-exact") == edge
    assert page.inner_text("#edge-optimal") == f"{100 * float(house_edge):.4f} %"
    page.click("#edge-optimal")  # the exact fraction, one click away
    assert page.inner_text("#edge-optimal") == edge + " of the initial bet"

    # a chart cell: its hands' every move, exactly
    page.click("#chart svg .cell[data-section=hard][data-row='16'][data-upcard=T]")
    page.wait_for_selector("#cell h3.hand")
    text = page.inner_text("#cell")
    for cards in (["T", "6"], ["9", "7"]):
        for value in hand_moves(rules, cards, "T").values.values():
            assert fraction_string(value) in text

    # the shared link opens the same rules
    link = page.get_attribute("#share", "href")
    assert link.endswith("/?decks=1&split_hands=2")
    shared = chromium.new_page(viewport={"width": 390, "height": 844})
    shared.goto(link)
    shared.wait_for_selector(SOLVED, timeout=120_000)
    assert shared.input_value("select[name=decks]") == "1"
    assert shared.input_value("select[name=split_hands]") == "2"
    assert shared.get_attribute("#edge-optimal", "data-exact") == edge

    # the CSV download is the command line's
    with page.expect_download() as download:
        page.click("#dl-edge-csv")
    saved = tmp_path / "edge.csv"
    download.value.save_as(saved)
    status, out, _ = run(capsys, "edge", "--decks", "1", "--split-hands", "2", "--format", "csv")
    assert status == 0 and saved.read_text() == out


def test_bad_rules_show_the_one_line_error(browser):
    server, chromium = browser
    page = chromium.new_page()
    page.goto(server.url + "/?decks=inf&obo=true")
    page.wait_for_selector(SOLVED, timeout=120_000)
    assert page.is_visible("#error")
    assert page.inner_text("#error") == "--obo (original bets only) applies to --hole-card enhc only"
    # nothing of other rules stays: no chart, no numbers, no downloads
    assert page.inner_text("#edge-optimal") == "—" and page.inner_html("#chart") == ""
    assert page.get_attribute("#dl-edge-csv", "href") is None


def test_a_link_the_lists_lack_still_shows_the_rules_it_computes(browser):
    server, chromium = browser
    page = chromium.new_page()
    # without splitting: the rule effects' Charlie games of 1 to 8 decks (the recursive solver's) cost half
    page.goto(server.url + "/?decks=inf&split_hands=1&bj_pays=6:5&h17&charlie=8")
    page.wait_for_selector(SOLVED, timeout=120_000)
    assert page.input_value("select[name=bj_pays]") == "6/5"
    assert page.input_value("select[name=h17]") == "true"
    assert page.input_value("select[name=charlie]") == "8"
    assert page.input_value("select[name=split_hands]") == "1"
    rules = GameRules(decks="inf", split_hands=1, bj_pays="6/5", h17=True, charlie=8)
    edge = fraction_string(-solve_game(rules, with_distribution=False).ev)
    assert page.get_attribute("#edge-optimal", "data-exact") == edge
    assert page.get_attribute("#share", "href").endswith("/?decks=inf&h17=true&bj_pays=6/5&split_hands=1&charlie=8")
