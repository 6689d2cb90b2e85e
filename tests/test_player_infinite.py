"""The player's hit/stand game on the infinite deck, against an independent recursive solver.

``player_reference`` values hands from scratch and recurses over cards with
Fractions; here every state's stand and hit values, the policy, the game value and
its results, and the matrices T, B, R_stand, V must agree with it exactly.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from player_reference import InfiniteReference, value

from bjexact import Rules
from bjexact.player import PlayerState, player_hit_graph, solve_infinite

UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
NATURALS = ("as21", "separate", "peek")
CONFIGS = [(h17, naturals, objective) for h17 in (False, True) for naturals in NATURALS for objective in ("ev", "win")]
STATES = [(t, False) for t in range(4, 22)] + [(t, True) for t in range(12, 22)]


def F(x) -> Fraction:
    return Fraction(int(x.numerator), int(x.denominator))


def config_id(config) -> str:
    h17, naturals, objective = config
    return f"{'H17' if h17 else 'S17'}-{naturals}-{objective}"


@cache
def solution(h17: bool, naturals: str, objective: str):
    return solve_infinite(Rules(decks="inf", h17=h17, naturals=naturals), objective)


@cache
def reference(h17: bool, naturals: str, objective: str) -> InfiniteReference:
    return InfiniteReference(h17, naturals, objective)


def representative(total: int, soft: bool) -> tuple[int, ...]:
    """A hand of cards with this total and softness."""
    if soft:
        return (1, total - 11)
    if total <= 11:
        return (2, total - 2)
    if total <= 20:
        return (10, total - 10)
    return (10, 9, 2)


def parse_label(label: str) -> tuple[int, bool]:
    kind, total = label.split()
    return int(total), kind == "soft"


def test_representatives_have_their_state():
    for total, soft in STATES:
        assert value(representative(total, soft)) == (total, soft)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_state_agrees_with_the_reference(config):
    sol, ref = solution(*config), reference(*config)
    assert set(sol.positions) == {PlayerState(t, s, u) for t, s in STATES for u in UPCARDS}
    for (total, soft), up in ((s, u) for s in STATES for u in UPCARDS):
        cards = representative(total, soft)
        position = sol[PlayerState(total, soft, up)]
        stand, hit = ref.values(cards, up)
        assert (F(position.stand), F(position.hit)) == (stand, hit), (total, soft, up)
        move, results = ref.best(cards, up)
        assert position.best == move, (total, soft, up)
        assert tuple(F(x) for x in position.results) == results, (total, soft, up)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_game_value_and_results_agree_with_the_reference(config):
    game, ref = solution(*config).game, reference(*config)
    results = ref.game()
    assert tuple(F(x) for x in game.results) == results
    assert F(game.value) == sum((w * r for w, r in zip(ref.w, results)), Fraction(0))
    assert sum(results) == 1


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_hard_21_never_hits_and_value_is_the_max(config):
    sol = solution(*config)
    loss = reference(*config).w[3]
    for up in UPCARDS:
        position = sol[PlayerState(21, False, up)]
        assert position.best == "stand"
        assert position.hit == loss  # every card busts a hard 21
    for position in sol.positions.values():
        assert position.value == max(position.stand, position.hit)
        assert position.best == ("hit" if position.hit > position.stand else "stand")


@pytest.mark.parametrize(
    "config", [(False, "as21", "ev"), (True, "as21", "win"), (False, "peek", "ev"), (True, "separate", "ev")],
    ids=config_id,
)
def test_bellman_equation_on_the_matrices(config):
    """V = max(R_stand, T V + B) exactly (sympy), T strictly upper triangular, B = loss * P(bust)."""
    sol, ref = solution(*config), reference(*config)
    loss = ref.w[3]
    for up in UPCARDS:
        m = sol.matrices(up)
        states = [parse_label(label) for label in m.states]
        assert sorted(states) == sorted(STATES)
        index = {state: i for i, state in enumerate(states)}
        n = len(states)
        for i, (total, soft) in enumerate(states):
            cards = representative(total, soft)
            assert all(m.T[i][j] == 0 for j in range(i + 1)), "T must be strictly upper triangular"
            expected = [Fraction(0)] * n
            for r in range(1, 11):
                new = value(cards + (r,))
                if new[0] <= 21:
                    expected[index[new]] += Fraction(4 if r == 10 else 1, 13)
            assert [F(x) for x in m.T[i]] == expected, m.states[i]
            bust = ref.bust_chance(cards)
            assert F(m.B[i]) == loss * bust
            assert sum(expected) + bust == 1
            stand, hit = ref.values(cards, up)
            assert F(m.R_stand[i]) == stand
            assert F(m.V[i]) == max(stand, hit)
            assert m.policy[i] == ref.best(cards, up)[0]
        T, B, R, V = (m.sympy(name) for name in ("T", "B", "R_stand", "V"))
        assert T.shape == (n, n) and B.shape == R.shape == V.shape == (n, 1)
        assert T.is_upper and all(T[i, i] == 0 for i in range(n))
        hit = T * V + B
        for i in range(n):
            assert V[i] == max(R[i], hit[i])
            assert m.policy[i] == ("hit" if hit[i] > R[i] else "stand")
        if config[2] == "ev":
            for i, (total, soft) in enumerate(states):
                assert B[i] == -ref.bust_chance(representative(total, soft))


@pytest.mark.parametrize("h17", (False, True))
@pytest.mark.parametrize("naturals", NATURALS)
def test_win_objective_is_the_win_chance_of_its_own_policy(h17, naturals):
    """The ``win`` game value = P(natural) + P(win) + P(push)/2 under the engine's own ``win`` policy,
    the policy evaluated separately (a fixed policy, no optimisation) by the reference."""
    sol = solution(h17, naturals, "win")
    ref = reference(h17, naturals, "win")

    def policy_of(s):
        return lambda cards, up: s.best(*value(cards), up)

    natural, win, push, loss = ref.game(policy_of(sol))
    assert F(sol.game.value) == natural + win + push / 2
    assert tuple(F(x) for x in sol.game.results) == (natural, win, push, loss)
    # each policy is optimal for its own objective
    ev_sol = solution(h17, naturals, "ev")
    ev_ref = reference(h17, naturals, "ev")
    by_ev = ref.game(policy_of(ev_sol))
    assert by_ev[0] + by_ev[1] + by_ev[2] / 2 <= natural + win + push / 2
    assert ev_ref.score(ev_ref.game(policy_of(sol))) <= F(ev_sol.game.value)


@pytest.mark.parametrize("h17", (False, True))
@pytest.mark.parametrize("naturals", NATURALS)
def test_win_score_is_affine_in_ev_for_played_hands(h17, naturals):
    """For a played hand W + P/2 = (1 + (W - L)) / 2 since W + P + L = 1: every stand and hit value
    of ``win`` is (1 + the ``ev`` value) / 2, so both objectives choose the same moves."""
    ev, win = solution(h17, naturals, "ev"), solution(h17, naturals, "win")
    for state, position in ev.positions.items():
        assert win[state].stand == (1 + position.stand) / 2
        assert win[state].hit == (1 + position.hit) / 2
        assert win[state].best == position.best


def test_the_well_known_s17_policy():
    """Derived by the engine, S17, infinite deck (hit/stand only), under every naturals convention."""
    for naturals in ("as21", "peek", "separate"):
        sol = solution(False, naturals, "ev")

        def row(total, soft, sol=sol):
            return "".join("H" if sol.best(total, soft, up) == "hit" else "S" for up in UPCARDS)

        #                2345 6789TA
        for total in range(4, 12):
            assert row(total, False) == "HHHHHHHHHH", total
        assert row(12, False) == "HHSSSHHHHH"
        for total in range(13, 17):
            assert row(total, False) == "SSSSSHHHHH", total
        for total in range(17, 22):
            assert row(total, False) == "SSSSSSSSSS", total
        for total in range(12, 18):
            assert row(total, True) == "HHHHHHHHHH", total
        assert row(18, True) == "SSSSSSSHHH"
        for total in (19, 20, 21):
            assert row(total, True) == "SSSSSSSSSS", total


def test_h17_soft_18_hits_the_ace_under_peek():
    sol = solution(True, "peek", "ev")
    assert sol.best(18, True, 1) == "hit"
    assert sol.best(18, True, 9) == "hit" and sol.best(18, True, 8) == "stand"


def test_soft_hand_drawing_an_ace_stays_soft():
    """A,2 + A is soft 14: in the hit graph, and in the values (the reference values A,2,A from scratch)."""
    graph = player_hit_graph()
    assert graph.has_edge("soft 13", "soft 14")
    assert 1 in graph.edges["soft 13", "soft 14"]["ranks"]
    assert not any(1 in data["ranks"] for _, target, data in graph.out_edges("soft 13", data=True)
                   if target != "soft 14")
    assert value((1, 2, 1)) == (14, True)
    sol, ref = solution(False, "as21", "ev"), reference(False, "as21", "ev")
    for up in UPCARDS:
        position = sol[PlayerState(14, True, up)]
        assert (F(position.stand), F(position.hit)) == ref.values((1, 2, 1), up)


def test_hit_graph_edges_follow_the_cards():
    """Every state's out-edges partition the ten ranks, each landing where the cards say."""
    graph = player_hit_graph()
    assert {n for n in graph if n != "bust"} == {f"{'soft' if s else 'hard'} {t}" for t, s in STATES}
    for total, soft in STATES:
        label = f"{'soft' if soft else 'hard'} {total}"
        targets = {}
        for _, target, data in graph.out_edges(label, data=True):
            for r in data["ranks"]:
                assert r not in targets, (label, r)
                targets[r] = target
        assert sorted(targets) == list(range(1, 11))
        for r, target in targets.items():
            total2, soft2 = value(representative(total, soft) + (r,))
            assert target == ("bust" if total2 > 21 else f"{'soft' if soft2 else 'hard'} {total2}"), (label, r)


@pytest.mark.parametrize("naturals", ("separate", "peek"))
def test_blackjack_payout_enters_the_game_value(naturals):
    """A 6:5 natural: the game value weighs the natural results by 6/5 (reference with the same payout)."""
    sol = solve_infinite(Rules(decks="inf", naturals=naturals, bj_pays=Fraction(6, 5)), "ev")
    ref = InfiniteReference(False, naturals, "ev", bj_pays=Fraction(6, 5))
    results = ref.game()
    assert tuple(F(x) for x in sol.game.results) == results
    assert F(sol.game.value) == Fraction(6, 5) * results[0] + results[1] - results[3]
    assert F(sol.game.value) < F(solution(False, naturals, "ev").game.value)
