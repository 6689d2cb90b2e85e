"""Effects of removal: direct recomputation, brute force, burn-card neutrality, derivatives."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache

import pytest

from bjexact.cli import main
from bjexact.core.numbers import RATIONALS, as_rational, mpq
from bjexact.core.rules import Rules
from bjexact.dealer import dealer_graph, dealer_table
from bjexact.errors import BjexactError
from bjexact.symbolic.removal import dealer_outcomes, dealer_removal_effects

ONE_DECK = (4,) * 9 + (16,)
OUTCOMES = ("17", "18", "19", "20", "21", "bust")


def without(counts, rank):
    return tuple(c - (r == rank) for r, c in enumerate(counts, start=1))


@pytest.mark.parametrize("naturals", ["as21", "separate", "peek"])
@pytest.mark.parametrize("upcard", [1, 6, 10])
def test_one_deck_effects_are_a_direct_recomputation(naturals, upcard):
    rules = Rules(decks=1, naturals=naturals)
    effects = dealer_removal_effects(rules, upcard)
    full = dealer_table(rules)[upcard]
    for rank in range(1, 11):
        removed = dealer_table(Rules(shoe=without(ONE_DECK, rank), naturals=naturals))[upcard]
        assert effects.effects[rank] == {o: removed[o] - full[o] for o in effects.outcomes}, rank


def test_one_deck_effects_by_brute_force(bf):
    """The independent enumeration of tests/conftest.py, with one card removed."""
    effects = dealer_removal_effects(Rules(decks=1, h17=True), 6)
    full = bf.dealer_row(ONE_DECK, 6, h17=True)
    for rank in (1, 10):
        removed = bf.dealer_row(without(ONE_DECK, rank), 6, h17=True)
        for o in OUTCOMES:
            change = removed.get(o, 0) - full.get(o, 0)
            assert bf.as_fraction(effects.effects[rank][o]) == change


def test_averaged_outcomes_weigh_the_up_cards_by_their_counts():
    for shoe in (ONE_DECK, without(ONE_DECK, 7)):
        rows = dealer_table(Rules(shoe=shoe))
        n = sum(shoe)
        expected = {o: sum(mpq(shoe[u - 1], n) * rows[u][o] for u in range(1, 11)) for o in OUTCOMES}
        assert dealer_outcomes(Rules(shoe=shoe)) == expected
    effects = dealer_removal_effects(Rules(decks=1))
    assert effects.effects[7] == {
        o: dealer_outcomes(Rules(shoe=without(ONE_DECK, 7)))[o] - effects.base[o] for o in OUTCOMES
    }


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("naturals,h17", [("as21", False), ("separate", True), ("peek", False)])
@pytest.mark.parametrize("upcard", [None, 1, 5, 10])
def test_burn_card_neutrality_is_exact(decks, naturals, h17, upcard):
    effects = dealer_removal_effects(Rules(decks=decks, naturals=naturals, h17=h17), upcard)
    for o in effects.outcomes:
        assert effects.weighted_sum(o) == 0
    # and it is not trivially so: some changes are not zero
    assert any(effects.effects[r][o] for r in range(1, 11) for o in effects.outcomes)


def test_ranks_that_cannot_be_removed():
    shoe = (0, 4, 4, 4, 4, 1, 4, 4, 4, 16)  # no aces, a single 6
    effects = dealer_removal_effects(Rules(shoe=shoe), 6)
    assert effects.effects[1] is None and effects.effects[6] is None
    assert effects.effects[2] is not None
    assert effects.to_json()["effects"]["A"] is None
    with pytest.raises(BjexactError, match="no A"):
        dealer_removal_effects(Rules(shoe=shoe), 1)
    # the table explains 'n/a' where it shows it, and only there
    from bjexact.render.removal import removal_tables
    from bjexact.render.tables import NumberStyle

    _, changes = removal_tables(effects, NumberStyle())
    assert changes.rows[0][1] == "n/a" and "'n/a'" in changes.notes[0]
    _, changes = removal_tables(dealer_removal_effects(Rules(decks=1), 6), NumberStyle())
    assert not any("n/a" in row for row in changes.rows) and "n/a" not in changes.notes[0]


# --- the infinite deck: derivatives ---------------------------------------------------------


class Draws:
    """Rational draw probabilities for the numeric engine (any ten values)."""

    domain = RATIONALS

    def __init__(self, p):
        self.p = tuple(mpq(x) for x in p)

    def probabilities(self, cards):
        return self.p


def derivative_at_zero(xs, ys):
    """Derivative at 0 of the polynomial interpolating (xs, ys) exactly (Newton's divided differences)."""
    n = len(xs)
    table = [list(ys)]
    for level in range(1, n):
        prev = table[-1]
        table.append([(prev[i + 1] - prev[i]) / (xs[i + level] - xs[i]) for i in range(n - level)])
    coeffs = [row[0] for row in table]  # Newton form: sum c_k prod_{j<k} (x - x_j)
    total = Fraction(0)
    for k in range(1, n):
        # d/dx prod_{j<k} (x - x_j) at x = 0
        roots = xs[:k]
        deriv = Fraction(0)
        for skip in range(k):
            term = Fraction(1)
            for j, x in enumerate(roots):
                if j != skip:
                    term *= -x
            deriv += term
        total += coeffs[k] * deriv
    return total


def averaged_parts(p, naturals):
    """(numerator, denominator) of the averaged outcome probabilities at card probabilities ``p``,
    from the numeric engine: sum_u w_u P(o | u) and sum_u w_u, w_u = p_u (1 - p_natural under peek)."""
    graph = dealer_graph(False, naturals, False)
    rows = graph.solve(Draws(p), range(1, 11))
    top = {o: Fraction(0) for o in OUTCOMES}
    norm = Fraction(0)
    for u in range(1, 11):
        w = Fraction(p[u - 1])
        natural = {1: 10, 10: 1}.get(u)
        if naturals == "peek" and natural:
            w *= 1 - Fraction(p[natural - 1])
        norm += w
        for o, v in zip(graph.outcomes, rows[u], strict=True):
            if o in top:
                top[o] += w * Fraction(int(v.numerator), int(v.denominator))
    return top, norm


@pytest.mark.parametrize("naturals", ["as21", "peek"])
def test_infinite_derivatives_are_exact_directional_differences(naturals):
    """D_r f is the derivative of f(p + h (p - e_r)) at h = 0: interpolated exactly from the numeric
    engine at 20 rational h (numerator and denominator are polynomials of degree <= 19 in h)."""
    effects = dealer_removal_effects(Rules(decks="inf", naturals=naturals))
    p = [Fraction(1, 13)] * 9 + [Fraction(4, 13)]
    xs = [Fraction(k, 50) for k in range(20)]
    for rank in (1, 5, 10):
        direction = [x - (r == rank) for r, x in enumerate(p, start=1)]
        parts = [averaged_parts([x + h * d for x, d in zip(p, direction, strict=True)], naturals) for h in xs]
        norms = [n for _, n in parts]
        d_norm = derivative_at_zero(xs, norms)
        for o in ("17", "bust"):
            tops = [t[o] for t, _ in parts]
            d_top = derivative_at_zero(xs, tops)
            expected = (d_top * norms[0] - tops[0] * d_norm) / norms[0] ** 2
            got = effects.effects[rank][o]
            assert Fraction(int(got.numerator), int(got.denominator)) == expected, (rank, o)
            assert effects.base[o] == tops[0] / norms[0]


def test_eight_decks_approach_the_infinite_derivative():
    """Removing one card from N cards changes f by D_r f / (N - 1) + O(1/N^2)."""
    finite = dealer_removal_effects(Rules(decks=8))
    infinite = dealer_removal_effects(Rules(decks="inf"))
    for rank in range(1, 11):
        for o in OUTCOMES:
            assert abs(finite.effects[rank][o] * 415 - infinite.effects[rank][o]) < mpq(1, 200), (rank, o)


def test_partials_and_removal_derivative_are_related():
    effects = dealer_removal_effects(Rules(decks="inf"), 6)
    p = [mpq(1, 13)] * 9 + [mpq(4, 13)]
    for o in effects.outcomes:
        mean = sum(x * effects.partials[r][o] for r, x in enumerate(p, start=1))
        for r in range(1, 11):
            assert effects.effects[r][o] == mean - effects.partials[r][o]


# --- command line --------------------------------------------------------------------------


def test_cli_text_and_json(capsys):
    assert main(["eor", "--decks", "1", "--exact"]) == 0
    text = capsys.readouterr().out
    assert "Effect of removing one card of each rank" in text and "-T" in text
    assert main(["eor", "--decks", "1", "--upcard", "6", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    expected = dealer_removal_effects(Rules(decks=1), 6)
    assert document["kind"] == "removal" and document["upcard"] == "6"
    for symbol, rank in (("A", 1), ("T", 10)):
        for o in OUTCOMES:
            assert mpq(document["effects"][symbol][o]) == expected.effects[rank][o]


def test_cli_errors(capsys):
    assert main(["eor", "--decks", "1", "--partials"]) == 2
    assert "infinite deck" in capsys.readouterr().err
    assert main(["eor", "--decks", "1", "--upcard", "Z"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# --- the value of the hit/stand game --------------------------------------------------------


class LineDraws:
    """The standard deck moved along p + h (p - e_rank), in QQ[h] (QQ(h) under peek)."""

    def __init__(self, rank, field):
        from sympy import QQ, Symbol

        self.domain = QQ.frac_field(Symbol("h")) if field else QQ.poly_ring(Symbol("h"))
        (self.h,) = self.domain.gens
        p = [mpq(1, 13)] * 9 + [mpq(4, 13)]
        self.p = tuple(self.domain.one * q + self.h * (q - (r == rank)) for r, q in enumerate(p, start=1))

    def probabilities(self, cards):
        return self.p


@pytest.fixture(scope="module")
def infinite_game_effects():
    """``game_removal_effects`` of the infinite deck by (naturals, objective), each computed once in the
    module (about a second each): the tests below read the same effects and patch nothing."""
    from bjexact.symbolic.removal import game_removal_effects

    @cache
    def effects(naturals: str, objective: str):
        return game_removal_effects(Rules(decks="inf", naturals=naturals), objective)

    return effects


def test_game_derivatives_are_the_linear_coefficients_along_the_line(infinite_game_effects):
    """Dual numbers against the exact polynomial of h along the same line (QQ[h])."""
    from bjexact.player import solve_infinite
    from bjexact.symbolic.removal import fixed_policy_game_value

    rules = Rules(decks="inf")
    effects = infinite_game_effects(rules.naturals, "ev")
    solution = solve_infinite(rules)
    assert effects.base == solution.game.value
    policy = {(s.total, s.soft, s.upcard): p.best for s, p in solution.positions.items()}
    for rank in (1, 10):
        value = fixed_policy_game_value(rules, "ev", policy, LineDraws(rank, False))
        h = value.ring.gens[0]
        assert as_rational(value.coeff(1)) == effects.base and as_rational(value.coeff(h)) == effects.effects[rank]


class RationalDraws:
    domain = RATIONALS

    def __init__(self, p):
        self.p = tuple(p)

    def probabilities(self, cards):
        return self.p


@pytest.mark.parametrize("naturals,objective", [("peek", "ev"), ("separate", "win"), ("as21", "ev")])
def test_game_derivatives_match_central_differences(naturals, objective, infinite_game_effects):
    """(V(p + h d) - V(p - h d)) / 2h = D_r V + O(h^2), exactly computed at h = 10^-6."""
    from bjexact.player import solve_infinite
    from bjexact.symbolic.removal import fixed_policy_game_value

    rules = Rules(decks="inf", naturals=naturals)
    effects = infinite_game_effects(naturals, objective)
    solution = solve_infinite(rules, objective)
    policy = {(s.total, s.soft, s.upcard): p.best for s, p in solution.positions.items()}
    p = [mpq(1, 13)] * 9 + [mpq(4, 13)]
    h = mpq(1, 10**6)
    for rank in (1, 5, 10):
        d = [q - (r == rank) for r, q in enumerate(p, start=1)]
        up = fixed_policy_game_value(rules, objective, policy, RationalDraws([q + h * x for q, x in zip(p, d)]))
        down = fixed_policy_game_value(rules, objective, policy, RationalDraws([q - h * x for q, x in zip(p, d)]))
        assert abs((up - down) / (2 * h) - effects.effects[rank]) < mpq(1, 10**8), rank
    assert effects.effects[5] > 0 > effects.effects[10]  # as every counting system has it
    weights = [mpq(4, 13) if r == 10 else mpq(1, 13) for r in range(1, 11)]
    assert sum(effects.effects[r] * w for r, w in zip(range(1, 11), weights)) == 0


def test_small_shoe_game_effects_reward_knowing_the_card():
    """Burning an unknown card changes nothing; knowing which card left can only help the player:
    sum_r n_r * effect_r >= 0, with each effect a full exact re-solve."""
    from bjexact.player import solve
    from bjexact.symbolic.removal import game_removal_effects

    shoe = (2, 0, 1, 0, 1, 0, 1, 0, 1, 6)
    effects = game_removal_effects(Rules(shoe=shoe))
    assert effects.effects[2] is None and effects.base == solve(Rules(shoe=shoe)).game.value
    assert sum(n * effects.effects[r] for r, n in enumerate(shoe, start=1) if n) > 0


def test_cli_game(capsys):
    assert main(["eor", "--decks", "inf", "--game", "--moves", "hit-stand", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["kind"] == "derivative" and set(document["effects"]) == set("A23456789T")
    assert main(["eor", "--decks", "inf", "--game", "--moves", "hit-stand", "--upcard", "6"]) == 2
    assert "--game" in capsys.readouterr().err


# --- the full game (double, split, surrender) --------------------------------------------

SMALL_SHOE = (1, 0, 0, 0, 0, 2, 3, 3, 3, 7)  # 19 cards: A, 6..9, T


def test_full_game_effects_equal_the_brute_force_round_values(capsys):
    """Each effect is the brute force's round value of the shoe less one card, less that of the full shoe."""
    import fullgame_bruteforce as fbf

    options = dict(split_hands=2, surrender="late")
    shoe = ",".join(map(str, SMALL_SHOE))
    assert main(["eor", "--shoe", shoe, "--game", "--split-hands", "2", "--surrender", "late",
                 "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["moves"] == "full" and document["kind"] == "removal"
    base = fbf.round_value(SMALL_SHOE, fbf.BFRules(**options))
    assert Fraction(document["base"]) == base
    for r, symbol in enumerate("A23456789T", start=1):
        if not SMALL_SHOE[r - 1]:
            assert document["effects"][symbol] is None
            continue
        smaller = tuple(c - (i == r) for i, c in enumerate(SMALL_SHOE, start=1))
        assert Fraction(document["effects"][symbol]) == fbf.round_value(smaller, fbf.BFRules(**options)) - base


@pytest.mark.parametrize("argv, message", [
    (["--decks", "inf", "--game"], "finite shoe"),
    (["--decks", "1", "--game", "--naturals", "peek"], "--moves hit-stand"),
    (["--decks", "1", "--game", "--objective", "win"], "--moves hit-stand"),
    (["--decks", "1", "--game", "--upcard", "6"], "--upcard"),
    (["--decks", "1", "--game", "--moves", "hit-stand", "--no-das"], "--no-das"),
    (["--decks", "1", "--split-hands", "2"], "--split-hands"),
])
def test_full_game_options_are_refused_where_they_do_not_apply(capsys, argv, message):
    assert main(["eor", *argv]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and message in err


def test_the_game_table_of_the_win_objective_is_a_chance_not_money():
    from bjexact.render.removal import game_tables
    from bjexact.render.tables import NumberStyle
    from bjexact.symbolic.removal import game_removal_effects

    shoe = (2, 0, 1, 0, 1, 0, 1, 0, 1, 6)
    style = NumberStyle(decimals=4, percent=True)
    win = game_tables(game_removal_effects(Rules(shoe=shoe), "win"), style)[0].title
    ev = game_tables(game_removal_effects(Rules(shoe=shoe), "ev"), style)[0].title
    assert "% of the bet" not in win and "chance of winning" in win
    assert "% of the bet" in ev and "chance" not in ev


@pytest.mark.parametrize("rules", [Rules(decks=1, naturals="peek"), Rules(decks=2, h17=True, naturals="peek"),
                                   Rules(decks=1)])
def test_averaged_outcomes_against_the_brute_force_rows(rules, bf):
    # P(outcome) over the up-card, from the independent model's rows: each weighted by P(up-card),
    # and under peek also by P(no natural | up-card), then renormalised (P(outcome | no natural))
    removed = (0, 1, 0, 0, 0, 0, 0, 0, 0, 2)
    shoe = tuple(c - r for c, r in zip(rules.make_shoe().counts, removed, strict=True))
    expected, norm = {}, Fraction(0)
    for upcard in range(1, 11):
        weight = Fraction(shoe[upcard - 1], sum(shoe))
        if rules.naturals == "peek" and upcard in (1, 10):
            partner = 1 if upcard == 10 else 10
            left = sum(shoe) - 1
            weight *= 1 - Fraction(shoe[partner - 1], left)
        norm += weight
        for outcome, p in bf.dealer_row(shoe, upcard, rules.h17, rules.naturals).items():
            expected[outcome] = expected.get(outcome, Fraction(0)) + weight * p
    expected = {o: p / norm for o, p in expected.items()}
    got = dealer_outcomes(rules, removed)
    assert {o: bf.as_fraction(p) for o, p in got.items() if p} == expected


def test_the_one_deck_game_timing_is_stated_alike_in_help_examples_and_docs(capsys):
    """The figure itself is measured by ``python benchmarks/symbolic.py`` (timings are not unit tests)."""
    import re
    from pathlib import Path

    with pytest.raises(SystemExit):
        main(["eor", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    readme = " ".join((Path(__file__).parent.parent / "docs" / "guides" / "polynomials.md").read_text().split())
    option = re.search(r"--game the value .*? --moves hit-stand: about (\d+) s in all for one deck", help_text)
    example = re.search(r"eor --decks 1 --game --moves hit-stand # exact, one full solve per rank \(about (\d+) s\)",
                        help_text)
    stated = re.search(r"one deck: about (\d+) s", readme)
    assert option and example and stated
    assert option.group(1) == example.group(1) == stated.group(1)
