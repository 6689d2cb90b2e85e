"""Symbolic dealer tables: exact agreement with the numeric engine and with an independent recursion,
sums to one on the simplex, derivatives against exact finite differences, round trips and output."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from functools import cache

import pytest
from brute_hand import value
from hypothesis import given, settings
from hypothesis import strategies as st

from bjexact.cli import main
from bjexact.core.numbers import mpq
from bjexact.core.rules import Rules
from bjexact.dealer import dealer_table
from bjexact.errors import BjexactError
from bjexact.render.symbolic import render_symbolic
from bjexact.render.tables import NumberStyle
from bjexact.symbolic import (
    CardModel,
    evaluate,
    n_terms,
    parse_polynomial,
    per_rank_model,
    polynomial_latex,
    polynomial_string,
    simplex_substitute,
    summary,
    symbolic_dealer_table,
    ten_density_model,
)
from bjexact.symbolic.polys import latex_lines

RULE_SETS = [(h17, naturals) for h17 in (False, True) for naturals in ("as21", "separate", "peek")]
STANDARD = (Fraction(1, 13),) * 9 + (Fraction(4, 13),)


@cache
def table(h17: bool, naturals: str, kind: str = "ranks"):
    model = per_rank_model() if kind == "ranks" else ten_density_model("t")
    return symbolic_dealer_table(Rules(decks="inf", h17=h17, naturals=naturals), model)


def fr(x) -> Fraction:
    return Fraction(int(x.numerator), int(x.denominator))


# --- an independent dealer recursion at arbitrary card weights ------------------------------


def recursion(p, upcard, h17=False, naturals="as21"):
    """P(outcome | up-card) for the infinite deck drawing rank r with weight p[r-1] (Fractions).

    Written from the rules, not from bjexact: hands are valued from scratch; the peek
    convention divides the hole card's weights by 1 - p(natural card).
    """
    return dealer_finish(tuple(p), h17, naturals)((upcard,))


@cache
def dealer_finish(p, h17, naturals):
    """finish(cards) -> P(outcome | the dealer holds cards) at the weights p, one per (p, rules): the
    up-cards (and the repeated points of the tests) share its memo."""
    memo: dict[tuple[int, bool, int], dict[str, Fraction]] = {}

    def finish(cards):
        total, soft = value(cards)
        # What happens next depends on the cards only through (total, soft) -- soft means an ace counted
        # 11; a hard total <= 11 holds no ace, and with an ace a hard total >= 12 stays hard -- and on
        # whether they are one card (peek; the total says which card) or two (a natural): the memo key.
        key = (total, soft, min(len(cards), 3))
        if key in memo:
            return memo[key]
        if len(cards) == 2 and total == 21:
            out = {"blackjack" if naturals == "separate" else "21": Fraction(1)}
        elif total > 21:
            out = {"bust": Fraction(1)}
        elif total >= 18 or (total == 17 and not (h17 and soft)):
            out = {str(total): Fraction(1)}
        else:
            weights = [(r, p[r - 1]) for r in range(1, 11)]
            if naturals == "peek" and len(cards) == 1:
                natural = {1: 10, 10: 1}.get(cards[0])
                if natural:
                    rest = 1 - p[natural - 1]
                    weights = [(r, w / rest) for r, w in weights if r != natural]
            out = {}
            for r, w in weights:
                for outcome, q in finish(tuple(sorted(cards + (r,)))).items():
                    out[outcome] = out.get(outcome, Fraction(0)) + w * q
        memo[key] = out
        return out

    return finish


# --- agreement ----------------------------------------------------------------------------


@pytest.mark.parametrize("h17,naturals", RULE_SETS)
@pytest.mark.parametrize("kind", ["ranks", "ten-density"])
def test_every_cell_at_the_standard_deck_is_the_numeric_value(h17, naturals, kind):
    symbolic = table(h17, naturals, kind)
    numeric = dealer_table(Rules(decks="inf", h17=h17, naturals=naturals))
    assert symbolic.outcomes == numeric.outcomes
    assert set(symbolic.upcards) == set(numeric.upcards) == set(range(1, 11))
    at_standard = symbolic.evaluate()
    for u in numeric.upcards:
        for o in numeric.outcomes:
            assert at_standard[u][o] == numeric[u][o], (u, o)


@pytest.mark.parametrize("h17,naturals", RULE_SETS)
def test_standard_deck_matches_the_independent_recursion(h17, naturals):
    symbolic = table(h17, naturals)
    for u in range(1, 11):
        expected = recursion(STANDARD, u, h17, naturals)
        for o in symbolic.outcomes:
            assert fr(evaluate(symbolic[u][o], STANDARD)) == expected.get(o, 0), (u, o)


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=40), min_size=10, max_size=10),
       st.sampled_from(RULE_SETS), st.integers(min_value=1, max_value=10))
def test_any_deck_on_the_simplex_matches_the_independent_recursion(weights, rules, upcard):
    total = sum(weights)
    p = tuple(Fraction(w, total) for w in weights)
    symbolic = table(*rules)
    expected = recursion(p, upcard, *rules)
    for o in symbolic.outcomes:
        assert fr(evaluate(symbolic[upcard][o], p)) == expected.get(o, 0)


@pytest.mark.parametrize("h17,naturals", RULE_SETS)
def test_rows_sum_to_one_once_p_T_is_eliminated(h17, naturals):
    symbolic = table(h17, naturals)
    model = symbolic.model
    for u in symbolic.upcards:
        row_sum = sum(symbolic[u].values(), model.domain.zero)
        reduced = simplex_substitute(row_sum, model)
        assert str(row_sum) != "1"  # the ten variables are free: only the simplex makes it 1
        assert str(reduced) == "1", (u, str(reduced)[:80])


@pytest.mark.parametrize("h17,naturals", RULE_SETS)
def test_ten_density_rows_sum_to_one_and_are_the_per_rank_polynomials_on_the_line(h17, naturals):
    ranks, line = table(h17, naturals), table(h17, naturals, "ten-density")
    for u in line.upcards:
        assert str(sum(line[u].values(), line.model.domain.zero)) == "1"
    # both sides have degree <= 15 in t: agreement at 17 points is an identity
    for k in range(17):
        t = Fraction(k, 17)
        point = (Fraction(1 - t, 9),) * 9 + (t,)
        for u in (1, 2, 6, 10):
            for o in line.outcomes:
                assert evaluate(ranks[u][o], point) == evaluate(line[u][o], (t,))


def test_hand_checked_terms():
    """Low-degree terms derived by hand from the rules."""
    s17 = table(False, "as21")
    p = dict(zip("A23456789T", per_rank_model().gens, strict=True))
    # up-card T: the only one-card finishes are T+7 -> 17, ..., T+T -> 20, T+A -> 21
    for outcome, rank in (("17", "7"), ("18", "8"), ("19", "9"), ("20", "T"), ("21", "A")):
        linear = {m: c for m, c in s17[10][outcome].terms() if sum(m) == 1}
        assert linear == {tuple(int(r == rank) for r in "A23456789T"): 1}
    # a two-card soft 17 (A+6) stands under S17 and is hit under H17
    assert s17[1]["17"].coeff(p["6"]) == 1
    assert table(True, "as21")[1]["17"].coeff(p["6"]) == 0
    # naturals apart: the blackjack column is exactly the natural card's probability
    separate = table(False, "separate")
    assert separate[1]["blackjack"] == p["T"] and separate[10]["blackjack"] == p["A"]
    assert all(not separate[u]["blackjack"] for u in range(2, 10))
    # peek: A and T rows are rational functions over 1 - p_T and 1 - p_A
    peek = table(False, "peek")
    assert summary(peek[1]["bust"]).endswith("over -p_T + 1")
    assert summary(peek[10]["bust"]).endswith("over -p_A + 1")
    assert "over" not in summary(peek[6]["bust"])


# --- derivatives ---------------------------------------------------------------------------


def derivative_at_zero(xs, ys):
    """The derivative at 0 of the interpolating polynomial through (xs, ys), exactly (xs[0] = 0)."""
    n = len(xs)
    total = Fraction(0)
    for k in range(n):
        # d/dx of the Lagrange basis L_k at x = 0
        others = [xs[j] for j in range(n) if j != k]
        denom = Fraction(1)
        for x in others:
            denom *= xs[k] - x
        deriv = Fraction(0)
        for skip in range(len(others)):
            term = Fraction(1)
            for j, x in enumerate(others):
                if j != skip:
                    term *= -x
            deriv += term
        total += ys[k] * deriv / denom
    return total


@pytest.mark.parametrize("h17,naturals,upcard,outcome,ranks", [
    (False, "as21", 6, "bust", (5, 10)), (True, "as21", 1, "17", (1, 6)), (False, "separate", 10, "20", (10, 2)),
    (False, "peek", 1, "bust", (10, 5)), (True, "peek", 10, "21", (1, 9)),
])
def test_partial_derivatives_agree_with_exact_finite_differences(h17, naturals, upcard, outcome, ranks):
    """Exact finite differences at 18 rational points, interpolated: every card adds at least 1 to the
    dealer's hard total and the dealer stands by hard 17, so a cell has degree <= 16 in each variable.
    Under peek the natural card's axis carries the factor 1/(1 - p); f * (1 - p) is the polynomial."""
    symbolic = table(h17, naturals)
    point = (Fraction(1, 11), Fraction(1, 12), Fraction(1, 10), Fraction(1, 13), Fraction(1, 14),
             Fraction(1, 12), Fraction(1, 13), Fraction(1, 11), Fraction(1, 15), Fraction(3, 10))
    natural = {1: 10, 10: 1}.get(upcard) if naturals == "peek" else None
    xs = [Fraction(k) for k in range(18)]
    for rank in ranks:
        ys = []
        for h in xs:
            q = tuple(v + (h if r == rank else 0) for r, v in enumerate(point, start=1))
            value = recursion(q, upcard, h17, naturals).get(outcome, Fraction(0))
            ys.append(value * (1 - q[natural - 1]) if natural == rank else value)
        expected = derivative_at_zero(xs, ys)
        if natural == rank:  # f = g / d with d = 1 - p - h: f' = (g' + f) / d at h = 0
            d = 1 - point[natural - 1]
            expected = (expected + ys[0] / d) / d
        got = evaluate(symbolic.derivative(upcard, outcome, f"p_{'A23456789T'[rank - 1]}"), point)
        assert fr(got) == expected, rank


# --- strings, LaTeX, errors ----------------------------------------------------------------


@pytest.mark.parametrize("naturals", ["as21", "peek"])
@pytest.mark.parametrize("kind", ["ranks", "ten-density"])
def test_strings_parse_back(naturals, kind):
    symbolic = table(False, naturals, kind)
    cells = [(u, o) for u in (1, 6, 10) for o in symbolic.outcomes]
    if kind == "ranks":  # sympy's parser takes a while over a thousand terms: a sample
        cells = [(1, "17"), (10, "20"), (10, "bust"), (6, "21")]
    for u, o in cells:
        cell = symbolic[u][o]
        back = parse_polynomial(polynomial_string(cell), symbolic.model)
        assert evaluate(back, symbolic.model.standard_point) == evaluate(cell, symbolic.model.standard_point)
        assert polynomial_string(back) == polynomial_string(cell)


def test_latex_is_collected_by_powers():
    model = ten_density_model("t")
    t = model.gens[0]
    cell = t**2 * mpq(1, 3) - 2 * t + 1
    assert polynomial_latex(cell) == r"\frac{t^{2}}{3} - 2 t + 1"
    ranks = per_rank_model()
    p = dict(zip("A23456789T", ranks.gens, strict=True))
    cell = p["T"] ** 2 * p["A"] + p["T"] ** 2 + 3 * p["T"] * p["2"] + p["5"]
    assert polynomial_latex(cell) == r"\left(p_{A} + 1\right) p_{T}^{2} + \left(3 p_{2}\right) p_{T} + p_{5}"


def test_refusals():
    with pytest.raises(BjexactError, match="infinite deck"):
        symbolic_dealer_table(Rules(decks=2))
    for name in ("1t", "E", "t-1", ""):
        with pytest.raises(BjexactError):
            CardModel("ten-density", (name,))


def test_render_summarises_long_polynomials():
    symbolic = table(False, "as21")
    text, full = render_symbolic(symbolic, "text", NumberStyle(), max_terms=12, full_name="all.txt")
    assert "[degree 10, 1023 terms]" in text and "in full in all.txt" in text
    bust2 = polynomial_string(symbolic[2]["bust"])
    assert bust2 not in text and bust2 in full
    assert n_terms(symbolic[2]["bust"]) == 1023


# --- command line --------------------------------------------------------------------------


def test_cli_json_parses_back_and_agrees_with_the_numeric_table(capsys):
    from sympy import Rational, Symbol
    from sympy.parsing.sympy_parser import parse_expr

    assert main(["dealer", "--ten-density", "x", "--format", "json", "--h17"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["variables"] == ["x"]
    numeric = dealer_table(Rules(decks="inf", h17=True)).to_json()["table"]
    for up, row in document["table"].items():
        for outcome, text in row.items():
            value = parse_expr(text, local_dict={"x": Symbol("x")}).subs(Symbol("x"), Rational(4, 13))
            assert str(value) == numeric[up][outcome] == document["standard"][up][outcome]


def test_cli_writes_full_forms_next_to_the_output(tmp_path, capsys):
    out = tmp_path / "dealer.tex"
    assert main(["dealer", "--ten-density", "t", "--max-terms", "11", "--format", "latex", "-o", str(out)]) == 0
    short, full = out.read_text(), (tmp_path / "dealer.full.tex").read_text()
    assert r"P(\text{17} \mid A) &= \text{degree 11, 12 terms}" in short and "dealer.full.tex" in short
    assert "terms" not in full and full.count(r"\mid") == 60
    assert main(["dealer", "--ten-density", "t", "--format", "md", "-o", str(tmp_path / "d.md")]) == 0
    assert not (tmp_path / "d.full.md").exists()  # nothing summarised, no second file


def test_cli_errors_are_one_line(capsys):
    assert main(["dealer", "--symbolic", "--decks", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "infinite deck" in err
    assert main(["dealer", "--symbolic", "--plot", "x.svg"]) == 2
    assert "--ten-density" in capsys.readouterr().err


def test_cli_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    svg = tmp_path / "dealer.svg"
    assert main(["dealer", "--ten-density", "t", "--naturals", "peek", "--plot", str(svg)]) == 0
    assert svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text()


def test_missing_matplotlib_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["dealer", "--ten-density", "t", "--plot", str(tmp_path / "a.pdf")]) == 2
    assert "pip install 'bjexact[plot]'" in capsys.readouterr().err
    assert not (tmp_path / "a.pdf").exists()


# --- decision boundaries in the ten density --------------------------------------------------


def hit_minus_stand(t, total, soft, upcard, h17=False, naturals="as21"):
    """hit - stand (ev: +1/0/-1) at ten density t, by recursion written from the rules: the player's
    hand is (hard sum, holds an ace); hitting then playing on optimally; ties go to standing."""
    p = (Fraction(1 - t, 9),) * 9 + (Fraction(t),)
    dealer = recursion(p, upcard, h17, naturals)

    def stand(value):
        win = dealer.get("bust", 0) + sum(q for o, q in dealer.items() if o.isdigit() and int(o) < value)
        loss = dealer.get("blackjack", 0) + sum(q for o, q in dealer.items() if o.isdigit() and int(o) > value)
        return win - loss

    def value(hard, ace):
        return hard + 10 if ace and hard + 10 <= 21 else hard

    @cache
    def hit(hard, ace):
        total_value = Fraction(0)
        for rank in range(1, 11):
            new_hard = hard + rank
            if new_hard > 21:
                total_value -= p[rank - 1]
            else:
                has_ace = ace or rank == 1
                total_value += p[rank - 1] * max(stand(value(new_hard, has_ace)), hit(new_hard, has_ace))
        return total_value

    hard = total - 10 if soft else total
    return hit(hard, soft) - stand(total)


@pytest.mark.parametrize("total,soft,upcard,h17,naturals", [
    (16, False, 10, False, "as21"), (12, False, 2, False, "as21"), (16, False, 1, False, "peek"),
    (13, False, 2, True, "separate"),
])
def test_boundaries_really_flip_the_best_move(total, soft, upcard, h17, naturals):
    from bjexact.symbolic import decision_boundaries

    result = decision_boundaries(Rules(decks="inf", h17=h17, naturals=naturals), total, soft, upcard)
    assert result.boundaries, "each of these decisions flips somewhere in (0, 1)"
    for x, below, above in result.boundaries:
        lo, hi = x.refined(Fraction(1, 10**12)).bounds()
        assert hi - lo < Fraction(1, 10**12)
        just_below = hit_minus_stand(fr(lo), total, soft, upcard, h17, naturals)
        just_above = hit_minus_stand(fr(hi), total, soft, upcard, h17, naturals)
        assert (just_below > 0) == (below == "hit") and (just_above > 0) == (above == "hit")
        assert below != above
    # and between boundaries the reported move is the best one, at rational points
    for k in range(1, 10):
        t = Fraction(k, 10)
        stand, hit = result.at(t)
        assert fr(hit - stand) == hit_minus_stand(t, total, soft, upcard, h17, naturals)


def test_boundaries_agree_with_the_player_module_at_the_standard_deck():
    from bjexact.player import PlayerState, solve_infinite
    from bjexact.symbolic import decision_boundaries

    rules = Rules(decks="inf")
    solution = solve_infinite(rules)
    for total, soft, upcard in ((16, False, 10), (15, False, 1), (19, True, 9)):
        result = decision_boundaries(rules, total, soft, upcard)
        position = solution[PlayerState(total, soft, upcard)]
        assert result.at(mpq(4, 13)) == (position.stand, position.hit)


def test_boundaries_text_json_and_errors(capsys):
    assert main(["boundaries", "--upcard", "T", "--total", "16", "--digits", "20"]) == 0
    text = capsys.readouterr().out
    assert "hard 16 v T: stand is right for t > 0.316284..., hit for t below it" in text
    assert "t1 = 0.31628405580517" in text
    # hit(t) is shown once per expression: the flip at t1 changes the best move, not hit(t)
    hit_lines = [line for line in text.splitlines() if line.startswith("  ") and " < t < " in line]
    assert [line.split(":")[0].strip() for line in hit_lines] == [
        "0 < t < 0.09055884678464750938...", "0.09055884678464750938... < t < 1"]
    assert len({line.split(":  ")[1] for line in hit_lines}) == 2
    assert main(["boundaries", "--upcard", "T", "--total", "16", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    (boundary,) = document["boundaries"]
    from sympy import CRootOf, Rational, Symbol  # noqa: F401  (names for parse_expr)
    from sympy.parsing.sympy_parser import parse_expr

    root = parse_expr(boundary["root"], local_dict={"t": Symbol("t"), "CRootOf": CRootOf})
    lo, hi = (Rational(x) for x in boundary["interval"])
    assert lo < root < hi and boundary["below"] == "hit" and boundary["above"] == "stand"
    assert main(["boundaries", "--upcard", "T", "--total", "3"]) == 2
    assert "no such hand" in capsys.readouterr().err
    assert main(["boundaries", "--upcard", "T", "--total", "16", "--decks", "6"]) == 2
    assert "infinite deck" in capsys.readouterr().err


def test_report_section():
    import bjexact.render.symbolic as symbolic

    text = symbolic.report_section(Rules(decks="inf"), "md", decisions=((16, False, 10),))
    assert "- hard 16 v T: hit below, stand above $t \\approx 0.316284055805\\ldots$, the root of $" in text
    assert "CRootOf" not in text and "`" not in text  # maths typeset as maths, not as code
    assert "hard 12 v 2" not in text and "hard 12 v 2" in symbolic.report_section(Rules(decks="inf"), "md")
    first_line = latex_lines(table(False, 'as21', 'ten-density')[10]['bust'])[0]
    assert f"P(\\text{{bust}} \\mid T) &= {first_line}" in text
    latex = symbolic.report_section(Rules(decks=1), "latex")
    assert "\\begin{tabular}" in latex and "-A & -0.1521 & +0.0593" in latex and "align" not in latex
    with pytest.raises(BjexactError):
        symbolic.report_section(Rules(decks=1), "text")


@pytest.mark.parametrize("argv", [["--symbolic", "--plot", "d.svg"], ["--plot", "d.gif"], ["--full", "d.full.txt"],
                                  ["--symbolic", "--ten-density", "t"], ["--decks", "6", "--full", "f.txt"]])
def test_conflicting_or_inapplicable_dealer_options_are_refused(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["dealer", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and not list(tmp_path.iterdir())
