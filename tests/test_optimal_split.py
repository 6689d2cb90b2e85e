"""Perfect play after a split (bjexact.player.optimal_split) against an independent brute force
(tests/optimal_split_bruteforce.py, which deals the hole card first and decides per information
state), a hand-checked shoe, and the properties the optimum must have."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import optimal_split_bruteforce as bf
import pytest
from clirun import run

from bjexact.apps.sweep import ResultStore
from bjexact.core.cards import counts_of, rank_symbol
from bjexact.core.numbers import fraction_string, mpq
from bjexact.core.rules import GameRules
from bjexact.errors import BjexactError
from bjexact.player.game import hand_moves, solve_game
from bjexact.player.optimal_split import optimal_split

# rule sets, each a keyword set both models take: S17/H17, DAS or not, the doubling rules, hit split
# aces, peek, ENHC and OBO
RULE_SETS = [{}, {"h17": True, "das": False}, {"hole_card": "enhc"}, {"hole_card": "enhc", "obo": True},
             {"double": "9-11"}, {"double": "10-11", "double_soft": False}, {"hit_split_aces": True},
             {"h17": True, "hole_card": "enhc", "das": False, "double": "10-11"}]
RANKS = range(1, 11)


def small_shoe(pair: int, upcard: int, extra: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The pair, the up-card and eleven more cards (seven tens and four others that vary with the
    pair and the up-card), plus ``extra``: fourteen cards or so, every line of the round completes."""
    others = [(pair + upcard) % 9 + 1, (pair * upcard) % 9 + 1, 9, 8]
    return counts_of([pair, pair, upcard, *[10] * 7, *others, *extra])


def both(shoe: tuple[int, ...], pair: int, upcard: int, **rules: object) -> tuple[mpq, mpq]:
    """(bjexact's optimal split value, the brute force's) for one rule set."""
    game = GameRules(shoe=shoe, **{"split_hands": 2, **rules})  # type: ignore[arg-type]
    return optimal_split(game, pair, upcard).value, bf.split_value(shoe, pair, upcard, bf.Rules(**{"split_hands": 2,
                                                                                                   **rules}))


def test_one_ace_among_tens_by_hand():
    """Shoe A + 9T, T,T split once against T under peek: the hole card is a T (the dealer has 20), the
    player draws from the ace and five tens. The hand that takes the ace (a soft 21 after a split, no
    natural) doubles: the next card is a T, hard 21 wins 2. Hand one takes the ace (1/6): +2, and hand
    two's 20 pushes; else hand one stands on 20 (hitting it to fish for the ace loses) and hand two takes
    the ace with 1/5: 2/6 + 5/6 * 2/5 = 2/3. CDZ- plays a split A,T as the unsplit natural, which
    cannot double: 1/3."""
    shoe = (1,) + (0,) * 8 + (9,)
    assert both(shoe, 10, 10) == (mpq(2, 3), mpq(2, 3))
    assert hand_moves(GameRules(shoe=shoe, split_hands=2), (10, 10), 10).values["split"] == mpq(1, 3)


@pytest.mark.parametrize("pair", RANKS)
def test_every_pair_and_upcard_equals_the_brute_force(pair):
    """Split once, each up-card under one of the rule sets in turn (every rule set meets every pair)."""
    for upcard in RANKS:
        rules = RULE_SETS[(pair + upcard) % len(RULE_SETS)]
        ours, brute = both(small_shoe(pair, upcard), pair, upcard, **rules)
        assert ours == brute, (pair, upcard, rules)


@pytest.mark.parametrize("pair", RANKS)
def test_resplits_equal_the_brute_force(pair):
    """Split to three and four hands (aces resplit with RSA), two more pair cards in the shoe."""
    upcard = 10 if pair % 2 else 6
    rules = {"split_hands": 3 + pair % 2, "rsa": pair == 1, "h17": pair > 5, "das": pair % 3 != 0,
             "hole_card": "enhc" if pair in (4, 7) else "peek"}
    shoe = counts_of([pair, pair, upcard, pair, pair, *[10] * 7, 9, 8, (pair + upcard) % 9 + 1])
    ours, brute = both(shoe, pair, upcard, **rules)
    assert ours == brute, rules


def test_a_twenty_card_shoe_equals_the_brute_force():
    shoe = (1, 1, 1, 1, 2, 2, 2, 2, 2, 6)
    assert both(shoe, 9, 1) == (mpq(-946103, 9513504),) * 2


@pytest.mark.parametrize("pair", RANKS)
def test_the_optimum_is_at_least_every_fixed_strategy(pair):
    """At least CDZ-, CDP1 and CDP, split once and to three hands."""
    upcard = (pair * 7) % 10 + 1
    shoe = small_shoe(pair, upcard, extra=(pair,))
    for hands in (2, 3):
        rules = GameRules(shoe=shoe, split_hands=hands, rsa=hands > 2)
        best = optimal_split(rules, pair, upcard).value
        for strategy in ("cdz", "cdp1", "cdp"):
            fixed = hand_moves(replace(rules, split_strategy=strategy), (pair, pair), upcard).values["split"]
            assert best >= fixed, (hands, strategy)


@pytest.mark.parametrize("pair", RANKS)
def test_on_the_infinite_deck_the_optimum_is_cdz(pair):
    """No card seen changes a chance and the hands' values add up: split once, the optimum is CDZ-."""
    upcard = (pair * 3) % 10 + 1
    rules = GameRules(decks="inf", split_hands=2, hole_card="enhc" if pair % 2 else "peek")
    assert optimal_split(rules, pair, upcard).value == hand_moves(rules, (pair, pair), upcard).values["split"]


def test_resplitting_is_a_choice_where_cdz_always_resplits():
    """CDZ- resplits whenever the rules allow; the optimum resplits only where it pays: 9,9 against
    an ace, infinite deck, is worth the same split to two hands or to four (it never resplits)."""
    once, four = (GameRules(decks="inf", split_hands=n) for n in (2, 4))
    assert optimal_split(four, 9, 1).value == optimal_split(once, 9, 1).value == \
        hand_moves(once, (9, 9), 1).values["split"] > hand_moves(four, (9, 9), 1).values["split"]


@pytest.mark.parametrize("upcard", [6, 10])
def test_split_aces_with_one_card_each_have_no_decision(upcard):
    rules = GameRules(decks=1, split_hands=2)
    assert optimal_split(rules, 1, upcard).value == hand_moves(rules, (1, 1), upcard).values["split"]


def test_a_shoe_that_cannot_complete_the_round_is_refused():
    shoe = counts_of([8, 8, 10, 1, 5])  # the second hand gets no card: the last one is the hole card
    with pytest.raises(BjexactError, match="second card"):
        optimal_split(GameRules(shoe=shoe, split_hands=2), 8, 10)
    with pytest.raises(ValueError):
        bf.split_value(shoe, 8, 10, bf.Rules())
    shoe = counts_of([8, 8, 10, *[2] * 6])  # a line of small cards runs out
    with pytest.raises(BjexactError, match="runs? out"):
        optimal_split(GameRules(shoe=shoe, split_hands=2), 8, 10)
    with pytest.raises(ValueError):
        bf.split_value(shoe, 8, 10, bf.Rules())
    with pytest.raises(BjexactError, match="cannot be split"):
        optimal_split(GameRules(decks=1, split_hands=1), 8, 10)


# --- the round ---------------------------------------------------------------------------------------

def test_the_round_under_optimal_splits_by_hand():
    """An ace and nine tens, split once, peek: the ace is each of the first four cards with chance 1/10:
    a player's card, a natural (+3/2, twice); the up-card or the hole card, a dealer natural (-1, twice);
    else (6/10) T,T against T, split: 2/3 under perfect post-split play (1/3 under CDZ-).
    2/10 * 3/2 - 2/10 + 6/10 * 2/3 = 1/2 (CDZ-: 3/10)."""
    rules = GameRules(shoe=(1,) + (0,) * 8 + (9,), split_hands=2)
    assert solve_game(rules).ev == mpq(3, 10)
    best = solve_game(replace(rules, split_strategy="optimal"))
    assert best.ev == mpq(1, 2) and best.by_upcard == {10: mpq(2, 3), 1: -1}
    assert best.distribution is None and "perfect post-split play" in best.distribution_missing
    assert best.hands[(10, 10, 10)].values["split"] == mpq(2, 3) and best.rules.split_strategy == "optimal"


def test_the_round_adds_each_pairs_gain_where_the_split_is_best():
    """Each pair's deal adds its chance times (the best move with the optimal split - the best under
    CDZ-), and nothing else changes."""
    rules = GameRules(shoe=(1, 0, 0, 1, 0, 0, 2, 3, 0, 7), split_hands=2)
    fixed, best = solve_game(rules, with_distribution=False), solve_game(replace(rules, split_strategy="optimal"))
    gain = _ZERO = mpq(0)
    for key, moves in best.hands.items():
        before = fixed.hands[key]
        assert {m: v for m, v in moves.w.items() if m != "split"} == {m: v for m, v in before.w.items() if m != "split"}
        if key[0] == key[1]:
            assert moves.w["split"] == optimal_split(rules, key[0], key[2]).w >= before.w["split"]
        gain += fixed.upcard_chance[key[2]] * fixed.deal_chance[key] * (moves.round_value - before.round_value)
    assert best.ev - fixed.ev == gain > _ZERO


def test_edge_gives_the_rounds_value_under_optimal_splits(capsys):
    status, out, _ = run(capsys, "edge", "--shoe", SHOE, "--split-hands", "2", "--split-strategy", "optimal",
                         "--format", "json")
    document = json.loads(out)
    assert status == 0 and document["ev"] == "1/2" and document["distribution"] is None
    assert document["rules"]["split_strategy"] == "optimal"


# --- the command line ------------------------------------------------------------------------------

SHOE = "1,0,0,0,0,0,0,0,0,9"  # an ace and nine tens: the optimum doubles a split A,T (see above)


def test_hand_shows_the_optimum_beside_the_fixed_strategies(capsys):
    status, out, err = run(capsys, "hand", "T", "T", "--upcard", "T", "--shoe", SHOE, "--split-hands", "2",
                           "--split-strategy", "optimal")
    assert status == 0 and err == "", err
    assert "optimal post-split play" in out and "Splitting T,T v T by post-split play" in out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.split()[:1] in
            (["optimal"], ["CDZ-"], ["CDP1"], ["CDP"])}
    assert rows["optimal"] == ["66.6667", "0.0000"] and rows["CDZ-"] == ["33.3333", "33.3333"], out
    assert "split            66.6667  best" in out


def test_hand_json_gives_every_strategys_split(capsys):
    status, out, _ = run(capsys, "hand", "T", "T", "--upcard", "T", "--shoe", SHOE, "--split-hands", "2",
                         "--split-strategy", "optimal", "--format", "json")
    document = json.loads(out)
    assert status == 0 and document["moves"]["split"] == "2/3" and document["best"] == "split"
    assert document["split_strategies"] == {"optimal": "2/3", "cdz": "1/3", "cdp1": "1/3", "cdp": "1/3"}
    assert document["rules"]["split_strategy"] == "optimal"
    status, out, _ = run(capsys, "hand", "T", "T", "--upcard", "T", "--shoe", SHOE, "--split-hands", "2",
                         "--format", "json")
    assert "split_strategies" not in json.loads(out)  # only where the optimum was asked for


@pytest.mark.parametrize("argv", [["play"], ["count", "--shoes", "1", "--serial"],
                                  ["edge", "--distribution"], ["edge", "--strategy", "chart"],
                                  ["hand", "8", "8", "--upcard", "A", "--split-hands", "1"]])
def test_where_the_optimum_is_not_given_yet_one_line_says_so(capsys, argv):
    status, out, err = run(capsys, *argv, "--decks", "1", "--split-strategy", "optimal")
    assert status == 2 and out == "" and err.count("\n") == 1, err
    expected = "needs splitting" if "--split-hands" in argv else "perfect post-split play"
    assert expected in err


def test_a_sweep_and_a_chart_under_optimal_splits_give_edges_values_and_best_moves(capsys, tmp_path):
    """On a 14-card shoe: the sweep's house edges are solve_game's (a task has no variance: no
    distribution is computed under perfect post-split play; the base task's result read from the store,
    where the sweep put what solve_task gave), and the chart's pair cells split (P, Ph, Pd) exactly
    where the optimal splits are the best move."""
    shoe = (2, 1, 1, 1, 1, 1, 1, 1, 1, 4)
    base = GameRules(shoe=shoe, split_hands=2, split_strategy="optimal")
    (tmp_path / "grid.toml").write_text(f'[base]\nshoe = {list(shoe)}\nsplit_hands = 2\n'
                                        'split_strategy = "optimal"\n[grid]\nh17 = [false, true]\n')
    status, out, err = run(capsys, "sweep", str(tmp_path / "grid.toml"), "--serial", "--quiet", "--store",
                           str(tmp_path / "store"), "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    solution = solve_game(base)
    assert document["base_house_edge"] == fraction_string(-solution.ev)
    assert document["effects"][0]["house_edge"] == fraction_string(-solve_game(replace(base, h17=True)).ev)
    stored = ResultStore(tmp_path / "store").get(base.to_json())
    assert stored is not None and stored["variance"] is None and stored["ev"] == fraction_string(solution.ev)
    status, out, err = run(capsys, "chart", "--shoe", ",".join(map(str, shoe)), "--split-hands", "2",
                           "--split-strategy", "optimal", "--format", "json")
    assert status == 0, err
    pairs = json.loads(out)["pairs"]
    split_cells = {(row, up) for row, cells in pairs.items() for up, code in cells.items() if code.startswith("P")}
    expected = {(rank_symbol(a), rank_symbol(u)) for (a, b, u), moves in solution.hands.items()
                if a == b and moves.best == "split"}
    assert split_cells == expected and expected


# --- where the optimum departs from CDZ- -------------------------------------------------------------

def test_the_departures_on_one_ace_among_tens_by_hand():
    """The hand that draws the ace doubles its soft 21 where CDZ- stands: the first hand with chance 1/6,
    the second (after a first hand of 20) with chance 5/6 * 1/5; each adds 1/6 (twice the stake won
    instead of once, times its chance)."""
    split = optimal_split(GameRules(shoe=(1,) + (0,) * 8 + (9,), split_hands=2), 10, 10, departures=True)
    assert [(d.hand, d.cards, d.before, d.move, d.cdz, d.chance, d.gain) for d in split.departures] == [
        (1, (10, 1), (), "double", "stand", mpq(1, 6), mpq(1, 6)),
        (2, (10, 1), (((10, 10), 20, 1),), "double", "stand", mpq(1, 6), mpq(1, 6))]


@pytest.mark.parametrize("pair", [2, 5, 8, 9])
def test_the_optimum_gains_exactly_where_it_departs_from_cdz(pair):
    """No departure at any position the optimum reaches: it plays CDZ- there, so it is worth CDZ-'s
    value; worth more: some departure gains. Every gain is at least 0 (0: a tie)."""
    for upcard in (2, 6, 10):
        rules = GameRules(shoe=small_shoe(pair, upcard), split_hands=2)
        split = optimal_split(rules, pair, upcard, departures=True)
        cdz = hand_moves(rules, (pair, pair), upcard).values["split"]
        assert all(d.gain >= 0 and 0 < d.chance <= 1 for d in split.departures)
        assert (split.value > cdz) == any(d.gain for d in split.departures), (pair, upcard)
        assert split.departures or split.value == cdz


def test_show_play_lists_the_departures(capsys):
    status, out, err = run(capsys, "hand", "T", "T", "--upcard", "T", "--shoe", SHOE, "--split-hands", "2",
                           "--split-strategy", "optimal", "--show-play")
    assert status == 0 and "where perfect post-split play departs from CDZ-" in out
    assert "second hand    T,A  T,T 20  double   stand     16.6667          16.6667" in out, out
    status, out, _ = run(capsys, "hand", "T", "T", "--upcard", "T", "--shoe", SHOE, "--split-hands", "2",
                         "--split-strategy", "optimal", "--show-play", "--format", "json")
    second = json.loads(out)["departures"][1]
    assert second == {"hand": 2, "cards": ["T", "A"], "before": [{"cards": ["T", "T"], "result": 20, "stake": 1}],
                      "move": "double", "cdz": "stand", "tie": False, "chance": "1/6", "chance_float": 1 / 6,
                      "gain": "1/6", "gain_float": 1 / 6}
    status, out, err = run(capsys, "hand", "T", "T", "--upcard", "T", "--shoe", SHOE, "--show-play")
    assert status == 2 and err.count("\n") == 1 and "--split-strategy optimal" in err


def test_a_split_past_the_positions_bound_is_refused_in_one_line(capsys, monkeypatch):
    import bjexact.player.optimal_split as module

    monkeypatch.setattr(module, "MAX_POSITIONS", 50)
    with pytest.raises(BjexactError, match="more than 50 positions"):
        optimal_split(GameRules(shoe=(1, 1, 1, 1, 2, 2, 2, 2, 2, 6), split_hands=2), 8, 10)
    status, out, err = run(capsys, "hand", "8", "8", "--upcard", "T", "--shoe", "1,1,1,1,2,2,2,2,2,6",
                           "--split-strategy", "optimal")
    assert status == 2 and out == "" and err.count("\n") == 1 and "--split-hands 2" in err, err


def test_a_play_log_under_optimal_splits_is_refused_in_one_line(capsys, monkeypatch, tmp_path):
    """play refuses the strategy on its command line, and so in a log it replays (each hint would be a
    split valued under perfect play)."""
    log = tmp_path / "session.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("10\ns\nq\n"))
    assert run(capsys, "play", "--decks", "1", "--log", str(log))[0] == 0
    log.write_text(log.read_text().replace('"split_strategy": "cdz"', '"split_strategy": "optimal"'))
    status, out, err = run(capsys, "play", "--replay", str(log))
    assert status == 2 and err.count("\n") == 1 and "--split-strategy optimal" in err, err
