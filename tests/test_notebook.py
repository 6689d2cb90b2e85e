"""Notebook use: rows keyed by ranks and card symbols alike, reprs that show the answer, HTML and
Markdown views with every cell, and DataFrames holding exactly the values of the tables."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

import bjexact
from bjexact import GameRules, Rules, dealer_table, hand_decision, hand_moves, solve, solve_game
from bjexact.core.cards import RankKeyed, rank_key
from bjexact.core.numbers import fraction_string, mpq
from bjexact.core.text import decimal_string
from bjexact.dealer.matrices import dealer_matrices
from bjexact.errors import BjexactError
from bjexact.player.states import PlayerState

ROOT = Path(__file__).resolve().parent.parent


@cache
def infinite_game():
    return solve_game(GameRules(decks="inf", split_hands=2), progress=False)


@cache
def one_deck():
    return solve(Rules(decks=1), progress=False)


# --- one normalisation of keys ---------------------------------------------------------------


@pytest.mark.parametrize("key", ["A", "a", "1", "11", "ace", " A ", 1, 11])
def test_every_name_of_the_ace_is_rank_1(key):
    assert rank_key(key) == 1


@pytest.mark.parametrize("key", ["T", "t", "10", "J", "Q", "K", "king", 10])
def test_every_ten_valued_card_is_rank_10(key):
    assert rank_key(key) == 10


def test_tuples_are_normalised_card_by_card_in_order():
    assert rank_key(("T", "6", "A")) == (10, 6, 1)
    assert rank_key((8, "8", 11)) == (8, 8, 1)
    assert rank_key(("T", "6", "A"), hands=True) == rank_key((6, "K", 11), hands=True) == (6, 10, 1)


@pytest.mark.parametrize("key", ["X", "", "0", "12", 0, 12, -1, 2.5, True, None, [1]])
def test_a_key_that_names_no_card_is_refused_in_one_line(key):
    with pytest.raises(bjexact.RankKeyError, match=r"unknown card .* \(use ") as caught:
        rank_key(key)
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, BjexactError)
    assert "\n" not in str(caught.value) and not str(caught.value).startswith("'")  # not quoted as KeyError is


def test_dealer_rows_answer_to_symbols_and_ranks_alike():
    table = dealer_table(Rules(decks=2))
    ace = table[1]
    for key in ("A", "a", "1", 11, "11"):
        assert table[key] is ace and table.rows[key] is ace
    ten = table[10]
    for key in ("T", "10", "J", "Q", "K", "k"):
        assert table[key] is ten
    assert table["6"] is table[6]
    with pytest.raises(KeyError, match="unknown card 'X'"):
        table["X"]
    assert "X" not in table.rows and table.rows.get("X") is None and "A" in table.rows
    assert list(table.rows) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 1]  # stored keys stay ranks, in table order
    assert table.rows == {u: dict(row) for u, row in table.rows.items()}


def test_an_upcard_the_shoe_lacks_is_a_plain_key_error():
    table = dealer_table(Rules(shoe=(4, 0, 4, 4, 4, 4, 4, 4, 4, 16)))  # no twos
    with pytest.raises(KeyError) as caught:
        table["2"]
    assert not isinstance(caught.value, BjexactError)


def test_player_solutions_take_symbols_for_the_upcard():
    solution = solve(Rules(decks="inf"))
    assert solution[(16, False, "T")] is solution[PlayerState(16, False, 10)] is solution[(16, False, "K")]
    assert solution.best(16, False, "T") == solution.best(16, False, 10) == "hit"
    assert solution.best(18, True, "A") == solution.best(18, True, 11) == "hit"
    assert solution.matrices("A") == solution.matrices(1) == solution.matrices(11)
    with pytest.raises(KeyError, match="unknown card 'X'"):
        solution[(16, False, "X")]
    finite = one_deck()
    assert finite.hands[("6", "T", "A")] is finite.hands[(6, 10, 1)] is finite.hands[("K", 6, 11)]


def test_full_game_mappings_take_symbols():
    game = infinite_game()
    assert game.by_upcard["A"] == game.by_upcard[1] == game.by_upcard[11]
    assert game.upcard_chance["T"] == mpq(4, 13)
    assert game.hands[("8", "8", "T")] is game.hands[(8, 8, 10)]
    assert game.deal_chance[("T", "6", "T")] == game.deal_chance[(10, 6, 10)]
    chart = game.chart()
    assert chart["hard"]["16"]["T"] is chart["hard"]["16"][10] and chart["hard"]["16"]["T"].code == "H"
    assert chart["pairs"]["8"]["A"].code == chart["pairs"]["8"][1].code


def test_dealer_matrices_take_eleven_for_the_ace():
    rules = Rules(decks="inf")
    assert dealer_matrices(rules, 11) == dealer_matrices(rules, "A") == dealer_matrices(rules, 1)


def test_rank_keyed_mappings_pickle_and_compare_as_dicts():
    import pickle

    rows = RankKeyed({1: "ace", 10: "ten"})
    again = pickle.loads(pickle.dumps(rows))
    assert again == {1: "ace", 10: "ten"} and again["K"] == "ten" and repr(again) == "{1: 'ace', 10: 'ten'}"
    hands = pickle.loads(pickle.dumps(RankKeyed({(6, 10, 1): "T,6 v A"}, hands=True)))
    assert hands[("T", "6", "A")] == "T,6 v A"


# --- reprs ---------------------------------------------------------------------------------


def test_repr_of_a_decision_shows_the_best_move_and_the_exact_values():
    decision = hand_decision(Rules(decks=1), ("T", 6), "T")
    text = repr(decision)
    assert text == (f"HandDecision(cards=(10, 6), upcard=10, best='hit', stand={decision.stand!r}, "
                    f"hit={decision.hit!r})")
    # the values are there exactly: the repr evaluates back to them
    assert eval(text.split("stand=")[1].split(", hit=")[0], {"mpq": mpq}) == decision.stand
    assert decision.hit > decision.stand


def test_repr_of_a_hands_moves_shows_the_best_move_and_every_value():
    moves = hand_moves(GameRules(decks=6), ["8", "8"], "A")
    text = repr(moves)
    assert text.startswith("MoveValues(cards=(8, 8), upcard=1, best='split', values={")
    assert eval(text.split("values=")[1][:-1], {"mpq": mpq}) == moves.values


# --- HTML and Markdown ---------------------------------------------------------------------


class _Cells(HTMLParser):
    """The text and the title of every cell, table by table."""

    def __init__(self):
        super().__init__()
        self.tables, self.captions, self._cell, self._caption = [], [], None, False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = ["", dict(attrs).get("title")]
        elif tag == "caption":
            self.captions.append("")
            self._caption = True

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[0] += data
        elif self._caption:
            self.captions[-1] += data

    def handle_endtag(self, tag):
        if tag == "caption":
            self._caption = False
        if tag in ("td", "th"):
            self.tables[-1][-1].append(tuple(self._cell))
            self._cell = None


def cells(html):
    parser = _Cells()
    parser.feed(html)
    return parser


def test_dealer_table_html_has_every_cell_rounded_with_its_exact_value():
    table = dealer_table(Rules(decks=2))
    parsed = cells(table._repr_html_())
    (grid,) = parsed.tables
    assert [text for text, _ in grid[0]] == ["up-card", *table.outcomes]
    assert parsed.captions == ["Dealer's final outcome by up-card (%): 2 decks, S17, naturals as21"]
    body = grid[1:]
    assert [row[0][0] for row in body] == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    for row, (upcard, values) in zip(body, table.rows.items()):
        assert row[0][0] == bjexact.rank_symbol(upcard)
        for (text, title), outcome in zip(row[1:], table.outcomes):
            assert Fraction(title) == Fraction(fraction_string(values[outcome]))
            assert text == decimal_string(values[outcome] * 100, 4)
    assert body[9][6][0] == "11.5872"  # A, bust: as `bjexact dealer` prints it


def test_dealer_table_markdown_is_the_md_format(capsys):
    table = dealer_table(Rules(decks=2))
    text = table._repr_markdown_()
    assert "| A | 12.8467 | 13.0890 | 13.0179 | 13.1159 | 36.3434 | 11.5872 |" in text  # docs/guides/dealer.md
    from clirun import run

    status, out, _ = run(capsys, "dealer", "--format", "md")
    assert status == 0 and text == out


def test_hit_stand_solution_html_has_every_move_of_the_policy():
    solution = solve(Rules(decks="inf"))
    parsed = cells(solution._repr_html_())
    hard, soft = parsed.tables
    for grid, soft_flag, totals in ((hard, False, range(4, 22)), (soft, True, range(12, 22))):
        assert [c[0] for c in grid[0]] == ["player", "2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
        for row, total in zip(grid[1:], totals, strict=True):
            expected = ["H" if solution.best(total, soft_flag, u) == "hit" else "S"
                        for u in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)]
            assert [c[0] for c in row[1:]] == expected
    html = solution._repr_html_()
    assert fraction_string(solution.game.value) in html and "-4.655598%" in html
    assert "natural 0.0000%" not in html


def test_finite_solution_html_and_markdown_show_its_policy_and_exceptions():
    solution = one_deck()
    html = solution._repr_html_()
    parsed = cells(html)
    assert [c.split(":")[0] for c in parsed.captions] == [
        "Best move of two-card hands, hard totals", "Best move of two-card hands, soft totals",
        "Composition exceptions"]
    rows = {row[0][0]: [c[0] for c in row[1:]] for row in parsed.tables[0][1:]}
    assert rows["hard 16"][8] == "H*"  # 16 v T: the two-card hands hit, some hands of 16 stand
    exceptions = {row[0][0]: (row[1][0], row[2][0].split()) for row in parsed.tables[2][1:]}
    assert exceptions["hard 14 v T"] == ("S", ["77"])  # one deck: 7,7 stands against a ten, other 14s hit
    assert "**Composition exceptions" in solution._repr_markdown_()


def test_full_game_html_has_the_house_edge_every_upcard_and_the_chart():
    game = infinite_game()
    html = game._repr_html_()
    parsed = cells(html)
    by_upcard = parsed.tables[0]
    assert [c[0] for c in by_upcard[0]] == ["up-card", "chance (%)", "expected result (% of bet)"]
    for row, (upcard, value) in zip(by_upcard[1:], game.by_upcard.items(), strict=True):
        assert row[0][0] == bjexact.rank_symbol(upcard)
        assert Fraction(row[2][1]) == Fraction(fraction_string(value))
    assert "House edge: 0.570388" in html
    hard = next(t for t, c in zip(parsed.tables, parsed.captions) if c.startswith("Basic strategy, hard totals"))
    row16 = next(r for r in hard if r[0][0] == "16")
    chart = game.chart()  # without the Ph/Pd codes, which take seconds more (the view says so)
    assert [c[0] for c in row16[1:]] == [chart["hard"]["16"][u].code for u in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)]
    pairs = next(t for t, c in zip(parsed.tables, parsed.captions) if c.startswith("Basic strategy, pairs"))
    for row in pairs[1:]:
        pair = row[0][0].split(",")[0]
        assert [c[0].rstrip("*") for c in row[1:]] == [chart["pairs"][pair][u].code
                                                        for u in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)]
    assert "solution.chart(das_codes=True)" in html


def test_html_and_markdown_of_one_value_are_computed_once_and_nothing_is_kept_alive(monkeypatch):
    import gc
    import weakref

    from bjexact.render import notebook

    calls = []
    real = notebook.notebook_tables
    monkeypatch.setattr(notebook, "notebook_tables", lambda value: calls.append(value) or real(value))
    table = dealer_table(Rules(decks=3))
    assert "<table>" in table._repr_html_() and "| up-card |" in table._repr_markdown_()
    assert len(calls) == 1
    other = dealer_table(Rules(decks=4))
    other._repr_markdown_()
    assert len(calls) == 2
    calls.clear()
    gone = weakref.ref(other)
    del other
    gc.collect()
    assert gone() is None


def test_decision_and_moves_html_show_each_value_and_the_best_move():
    decision = hand_decision(Rules(decks=1), ("T", 6), "T")
    parsed = cells(decision._repr_html_())
    assert parsed.captions == ["T,6 (hard 16) v T: best move hit"]
    rows = {row[0][0]: row for row in parsed.tables[0][1:]}
    assert Fraction(rows["stand"][1][1]) == Fraction(fraction_string(decision.stand))
    assert Fraction(rows["hit"][1][1]) == Fraction(fraction_string(decision.hit))
    assert rows["hit"][2][0] == "best" and rows["stand"][2][0] == ""
    moves = hand_moves(GameRules(decks=6), ["8", "8"], "A")
    parsed = cells(moves._repr_html_())
    rows = {row[0][0]: row for row in parsed.tables[0][1:]}
    assert set(rows) == set(moves.values)
    for move, value in moves.values.items():
        assert Fraction(rows[move][1][1]) == Fraction(fraction_string(value))
    assert rows["split"][2][0] == "best"
    # one convention with the command line: % of the initial bet, the header says so
    assert "| split | -36.4252 | best |" in moves._repr_markdown_()
    assert "| move | value (% of bet) | cost (% of bet) |" in moves._repr_markdown_()


def test_matrices_html_have_every_cell():
    chain = dealer_matrices(Rules(decks="inf"), 6)
    parsed = cells(chain._repr_html_())
    for grid, name in zip(parsed.tables, ("absorption", "T", "R"), strict=True):
        rows, columns, values = chain.grid(name)
        assert [c[0] for c in grid[0]] == ["state", *columns]
        for row, label, numbers in zip(grid[1:], rows, values, strict=True):
            assert row[0][0] == label
            assert [Fraction(title) for _, title in row[1:]] == [Fraction(fraction_string(x)) for x in numbers]
    player = solve(Rules(decks="inf")).matrices("T")
    (grid,) = cells(player._repr_html_()).tables
    assert len(grid) == 1 + len(player.states)
    last = grid[-1]
    assert Fraction(last[-2][1]) == Fraction(fraction_string(player.V[-1])) and last[-1][0] == player.policy[-1]


def test_ipython_shows_the_tables():
    formatters = pytest.importorskip("IPython.core.formatters")
    shown, _ = formatters.DisplayFormatter().format(dealer_table(Rules(decks="inf")))
    assert {"text/plain", "text/html", "text/markdown"} <= set(shown)
    assert "345176856/815730721" in shown["text/html"]  # 6, bust: the exact value in the tooltip


def test_display_is_wired_without_the_domain_importing_render():
    # the presentation layer is imported when a value is first shown, not by `import bjexact`,
    # and without naming bjexact at all (importing a submodule is enough)
    code = (
        "import sys\n"
        "from bjexact.dealer.distributions import dealer_table\n"
        "from bjexact.core.rules import Rules\n"
        "assert 'bjexact.render.notebook' not in sys.modules\n"
        "html = dealer_table(Rules(decks='inf'))._repr_html_()\n"
        "assert 'bjexact.render.notebook' in sys.modules and '<table>' in html\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env=_env())


def _env():
    import os

    return {**os.environ, "PYTHONPATH": str(ROOT)}


# --- DataFrames ----------------------------------------------------------------------------


def test_dealer_table_frame_holds_the_exact_cells():
    pytest.importorskip("pandas")
    table = dealer_table(Rules(decks=2))
    frame = table.to_pandas(exact=True)
    assert list(frame.index) == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    assert list(frame.columns) == list(table.outcomes)
    for upcard, row in table.rows.items():
        for outcome, value in row.items():
            assert frame.loc[bjexact.rank_symbol(upcard), outcome] == value
    floats = table.to_pandas(exact=False)
    assert all(str(t) == "float64" for t in floats.dtypes)
    assert floats.loc["A", "bust"] == float(table["A"]["bust"])
    assert (frame.astype(float) == floats).all().all()


def test_player_frames_hold_the_exact_values():
    pytest.importorskip("pandas")
    solution = solve(Rules(decks="inf"))
    frame = solution.to_pandas(exact=True)
    assert len(frame) == len(solution.positions) == 280
    for state, position in solution.positions.items():
        row = frame.loc[(str(state.hand), bjexact.rank_symbol(state.upcard))]
        assert (row["stand"], row["hit"], row["value"], row["best"]) == (
            position.stand, position.hit, position.value, position.best)
    finite = one_deck()
    frame = finite.to_pandas(exact=False)
    assert len(frame) == len(finite.hands)
    decision = finite.hands[("7", "7", "T")]
    assert frame.loc[("7,7", "T"), "stand"] == float(decision.stand)
    assert frame.loc[("7,7", "T"), "best"] == decision.best


def test_full_game_frame_holds_every_move_value():
    pytest.importorskip("pandas")
    game = infinite_game()
    frame = game.to_pandas(exact=True)
    assert len(frame) == len(game.hands)
    assert list(frame.columns) == ["chance", "best", "stand", "hit", "double", "split", "round value"]
    for (a, b, u), moves in game.hands.items():
        row = frame.loc[(f"{bjexact.rank_symbol(a)},{bjexact.rank_symbol(b)}", bjexact.rank_symbol(u))]
        assert row["best"] == moves.best and row["chance"] == game.deal_chance[(a, b, u)]
        for move, value in moves.values.items():
            assert row[move] == value
        if "split" not in moves.values:
            assert row["split"] is None
    assert sum(frame["chance"] * frame["round value"]) != 0


def test_matrix_frames_hold_the_exact_grids():
    pytest.importorskip("pandas")
    chain = dealer_matrices(Rules(decks="inf"), "6")
    for name in ("absorption", "T", "R", "N", "B"):
        rows, columns, grid = chain.grid(name)
        frame = chain.to_pandas(name, exact=True)
        assert list(frame.index) == list(rows) and list(frame.columns) == list(columns)
        assert frame.values.tolist() == [list(r) for r in grid]
    with pytest.raises(BjexactError, match="unknown matrix 'X'"):
        chain.to_pandas("X")
    player = solve(Rules(decks="inf")).matrices("T")
    frame = player.to_pandas(exact=True)
    assert frame.loc[player.states[0], player.states[1]] == player.T[0][1]
    assert list(frame["V"]) == list(player.V) and list(frame["policy"]) == list(player.policy)


def test_without_pandas_to_pandas_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(ImportError, match=r"^to_pandas\(\) needs pandas: pip install 'bjexact\[pandas\]'$"):
        dealer_table(Rules(decks="inf")).to_pandas()


# --- symbolic tables and effects of removal ------------------------------------------------


def test_symbolic_table_keys_frames_and_views():
    from bjexact.symbolic.models import ten_density_model
    from bjexact.symbolic.polys import polynomial_string

    table = bjexact.symbolic_dealer_table(Rules(decks="inf"), ten_density_model())
    assert table["A"] is table[1] is table[11] and table["K"] is table[10]
    numeric = dealer_table(Rules(decks="inf"))
    html = table._repr_html_()
    parsed = cells(html)
    rows = parsed.tables[0][1:]
    assert len(rows) == 10 * len(table.outcomes)
    for row in rows:  # every cell: its exact value at the standard deck, and its polynomial in full (11 terms)
        upcard, outcome = row[0][0], row[1][0]
        assert Fraction(row[2][1]) == Fraction(fraction_string(numeric[upcard][outcome]))
        assert row[3][0] == polynomial_string(table[upcard][outcome])
    assert "`" + polynomial_string(table[6]["bust"]) + "`" in table._repr_markdown_()
    pytest.importorskip("pandas")
    frame = table.to_pandas(exact=True)
    assert frame.loc["6", "bust"] == table[6]["bust"]
    assert table.to_pandas(exact=False).loc["6", "bust"] == float(numeric[6]["bust"])


def test_removal_effects_keys_frames_and_views():
    effects = bjexact.dealer_removal_effects(Rules(decks=1))
    assert effects.effects["A"] is effects.effects[1] is effects.effects[11]
    parsed = cells(effects._repr_html_())
    base, changes = parsed.tables
    assert [Fraction(c[1]) for c in base[1][1:]] == [Fraction(fraction_string(effects.base[o]))
                                                     for o in effects.outcomes]
    assert [row[0][0] for row in changes[1:]] == [f"-{s}" for s in "A23456789T"]
    for row, (rank, change) in zip(changes[1:], effects.effects.items(), strict=True):
        assert [Fraction(c[1]) for c in row[1:]] == [Fraction(fraction_string(change[o])) for o in effects.outcomes]
        assert rank == bjexact.parse_rank(row[0][0][1:])
    assert changes[1][6][0] == "+0.8550"  # removing an ace: bust +0.8550 points, as `bjexact eor --decks 1`
    pytest.importorskip("pandas")
    frame = effects.to_pandas(exact=True)
    assert list(frame.index) == ["full", *"A23456789T"]
    assert frame.loc["full", "bust"] == effects.base["bust"] and frame.loc["A", "bust"] == effects.effects[1]["bust"]
    game = bjexact.game_removal_effects(Rules(decks="inf"))
    assert game.effects["T"] == game.effects[10]
    frame = game.to_pandas(exact=True)
    assert frame.loc["standard", "value"] == game.base and frame.loc["5", "value"] == game.effects[5]
    assert "D_5" in game._repr_html_() and f"title=\"{fraction_string(game.effects[5])}\"" in game._repr_html_()


# --- the Python API as a notebook user meets it ----------------------------------------------------


def test_game_solution_repr_is_short_and_names_the_edge():
    game = infinite_game()
    text = repr(game)
    assert len(text) < 2000 and "house edge 0.570388%" in text and "mpq" not in text
    assert game.house_edge == -game.ev and game.house_edge > 0


def test_tables_read_like_mappings_of_their_rows():
    table = dealer_table(Rules(decks="inf"))
    assert len(table) == 10 and list(table) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 1] == list(table.keys())
    assert dict(table.items())[10] is table["T"] and "A" in table and 11 in table and 0 not in table
    assert list(table.values())[0] is table[2]


def test_frames_are_floats_by_default_and_can_be_indexed_by_rank():
    pytest.importorskip("pandas")
    table = dealer_table(Rules(decks="inf"))
    assert table.to_pandas().loc["T", "bust"] == float(table["T"]["bust"])
    by_rank = table.to_pandas(upcards="rank")
    assert by_rank.loc[10, "bust"] == float(table[10]["bust"]) and by_rank.loc[1, "bust"] == float(table["A"]["bust"])
    assert table.to_pandas(exact=True, upcards="rank").loc[10, "bust"] == table[10]["bust"]
    moves = infinite_game().to_pandas(upcards="rank")
    assert moves.loc[("8,8", 10), "best"] == "split" and isinstance(moves.loc[("8,8", 10), "split"], float)


def test_figures_show_themselves_in_a_notebook():
    from bjexact.render.figures import dealer_outcome_figure, result_distribution_figure, strategy_chart_figure

    game = infinite_game()
    for figure in (strategy_chart_figure(game), result_distribution_figure(game),
                   dealer_outcome_figure(dealer_table(Rules(decks="inf")))):
        svg = figure._repr_svg_()
        assert svg.startswith("<svg ") and svg.rstrip().endswith("</svg>")


@pytest.mark.parametrize("value, words", [(1.2, "bj_pays must be an exact fraction"), ("x", "bj_pays must"),
                                           (-1, "bj_pays must not be negative")])
def test_python_errors_name_the_python_parameter(value, words):
    with pytest.raises(BjexactError, match=words) as raised:
        GameRules(bj_pays=value)
    assert "--bj-pays" not in str(raised.value)


def test_a_payout_may_be_written_as_odds():
    assert GameRules(bj_pays="6:5").bj_pays == mpq(6, 5) == Rules(bj_pays="6:5").bj_pays
