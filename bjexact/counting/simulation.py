"""Card counting measured exactly: simulated shoes, and the exact value of every round they deal.

Shoes are shuffled with a seeded generator (shoe ``i`` of seed ``S`` is always the same
shoe) and dealt heads-up to the cut card. Before each round the composition of the
unseen cards is known exactly; a task (a pure function of the rules and that
composition, run on Dask like a rule sweep and stored by content hash) solves the
round exactly for it:

- ``ev``: the round's expected result under the optimal composition-dependent strategy
  for those cards;
- ``ev_basic``: the round's expected result when every decision is made by the full
  shoe's basic strategy: the total-dependent chart of the full shoe
  (:meth:`~bjexact.player.game.GameSolution.chart`), played from the first decision to the
  last and valued exactly for the cards unseen (:func:`~bjexact.player.policy.evaluate_chart`,
  with the optimal solve: :func:`~bjexact.player.policy.solve_game_and_chart`);
- for chosen decisions (16 v T, 15 v T, 12 v 3, 10 v T, ...) the exact value of each
  move and the chance of meeting the decision, and the value of insurance.

The cards a round takes from the shoe are those of a real heads-up round played by that
basic strategy, in the order of the deal (player, up-card, player, hole card; the hole card
after the player's hands with no hole card): splits, doubles and surrenders as the chart
says, the dealer drawing only when a hand is still standing; insurance is never taken.

Balanced counts are read as true counts (running count per deck unseen, floored);
unbalanced ones (KO) as running counts from the initial running count
(:meth:`CountSystem.initial_running_count`), as their players use them, with the key count:
the lowest running count from which the rounds at each count have a positive mean value
under basic strategy. Aggregates are sums of fractions: the mean value at each count is exact for the
rounds simulated; only the correlation (a square root) is a float.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from math import floor, sqrt
from pathlib import Path
from typing import Any

from ..apps.sweep import rules_from_json
from ..core.cards import counts_of
from ..core.choice import best_move
from ..core.hand import hand_value, is_natural
from ..core.numbers import fraction_string, mpq, parse_fraction
from ..core.rules import GameRules
from ..errors import BjexactError
from ..files import write_atomically
from ..player.game import solve_game
from ..player.policy import ChartPolicy, ChartStrategy, solve_game_and_chart
from .systems import SYSTEMS, CountSystem, load_system

__all__ = ["SYSTEMS", "CountSystem", "load_system", "basic_chart", "chart_to_json", "chart_from_json", "deal_shoe",
           "play_round", "Round", "round_tasks", "round_task", "DECISIONS", "CountAnalysis", "analyse"]

ROUND_KIND = "count_round/2"
SYMBOLS = "A23456789T"

# name -> (player's cards, up-card); moves compared are the hand's own
DECISIONS: dict[str, tuple[tuple[int, int], int]] = {
    "16 v T": ((6, 10), 10),
    "15 v T": ((5, 10), 10),
    "12 v 3": ((2, 10), 3),
    "12 v 2": ((2, 10), 2),
    "10 v T": ((4, 6), 10),
    "11 v A": ((5, 6), 1),
    "9 v 2": ((4, 5), 2),
}


# --- dealing shoes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Round:
    """A round about to be dealt: the shoe it came from, its number, the unseen cards (A..T)."""

    shoe: int
    number: int
    unseen: tuple[int, ...]


@cache
def _basic_chart(rules_json: str) -> ChartPolicy:
    solution = solve_game(rules_from_json(json.loads(rules_json)), with_distribution=False, progress=False)
    return ChartPolicy.of_solution(solution)


def basic_chart(rules: GameRules) -> ChartPolicy:
    """The full shoe's basic strategy: its total-dependent chart (one solve per process, kept)."""
    return _basic_chart(json.dumps(rules.to_json(), sort_keys=True))


def _hard(cards: list[int]) -> int:
    return hand_value(cards).total


def play_round(draw: Callable[[], int], strategy: ChartStrategy, rules: GameRules) -> None:
    """Deal one heads-up round with ``draw`` (the next card of the shoe; it raises ``StopIteration``
    when the shoe is out) in the casino's order, the player following ``strategy``."""
    peek = rules.hole_card == "peek"
    first, up, second = draw(), draw(), draw()
    hole = draw() if peek else None
    if is_natural((first, second)) or (peek and hole is not None and is_natural((up, hole))):
        if hole is None:
            draw()
        return
    pair = first if rules.may_split((first, second)) else None
    move = strategy.first_move((min(first, second), max(first, second)), up)
    standing = 0  # hands the dealer plays against
    if move == "split" and pair is not None:
        hands = [[pair], [pair]]
        i = 0
        while i < len(hands):
            card = draw()
            if card == pair and rules.may_split((pair, card), len(hands)):
                hands.append([pair])
                continue
            cards = hands[i] + [card]
            choice = strategy.split_move(counts_of(cards), up, pair)
            if choice in ("hit", "double"):
                cards.append(draw())
            while choice == "hit" and _plays_on(rules, cards) and strategy.split_hits(counts_of(cards), up, pair):
                cards.append(draw())
            standing += _waits_for_the_dealer(rules, cards)
            i += 1
    elif move != "surrender":
        cards = [first, second]
        if move in ("hit", "double"):
            cards.append(draw())
        while move == "hit" and _plays_on(rules, cards) and strategy.continues_hitting(counts_of(cards), up):
            cards.append(draw())
        standing += _waits_for_the_dealer(rules, cards)
    dealer = [up, hole if hole is not None else draw()]
    while standing and not rules.dealer_stands(hand_value(dealer)):
        dealer.append(draw())


def _plays_on(rules: GameRules, cards: list[int]) -> bool:
    """Whether a hand may still draw: under 21 (hard) and not a Charlie (which has won)."""
    return _hard(cards) < 21 and not rules.is_charlie(len(cards), hand_value(cards))


def _waits_for_the_dealer(rules: GameRules, cards: list[int]) -> bool:
    """Whether a finished hand is settled against the dealer's cards: not bust, not a Charlie."""
    return _hard(cards) <= 21 and not rules.is_charlie(len(cards), hand_value(cards))


def _drawing(deck: Iterator[int], taken: list[int]) -> Callable[[], int]:
    """Draw from ``deck``, noting every card in ``taken``."""

    def draw() -> int:
        taken.append(next(deck))
        return taken[-1]

    return draw


def deal_shoe(full: Sequence[int], index: int, seed: int, penetration: mpq,
              rules: GameRules | None = None) -> list[Round]:
    """The rounds of shoe ``index``: shuffled by ``random.Random(f"{seed}/{index}")``, dealt to the cut
    card, every round played by the full shoe's basic strategy (:func:`basic_chart`) under ``rules``
    (the rule options; their shoe is ``full``; S17, DAS, split once, peek by default)."""
    rules = GameRules(shoe=tuple(full), split_hands=2) if rules is None else rules
    strategy = ChartStrategy(rules, basic_chart(rules))
    cards = [rank for rank, n in enumerate(full, 1) for _ in range(n)]
    random.Random(f"{seed}/{index}").shuffle(cards)
    cut = int(len(cards) * penetration)
    position = 0
    rounds: list[Round] = []
    unseen = list(full)
    while position < cut and len(cards) - position >= 4:
        rounds.append(Round(index, len(rounds) + 1, tuple(unseen)))
        taken: list[int] = []
        try:
            play_round(_drawing(iter(cards[position:]), taken), strategy, rules)
        except StopIteration:
            break
        for rank in taken:
            unseen[rank - 1] -= 1
        position += len(taken)
    return rounds


# the most rounds one run of simulated shoes may ask for: each is two exact solves of seconds
MAX_ROUNDS = 200_000
# a heads-up round takes about 5.4 cards; 5 overestimates the rounds a little
CARDS_PER_ROUND = 5


def estimated_rounds(shoes: int, cards: int, penetration: mpq) -> int:
    """About how many rounds ``shoes`` shoes of ``cards`` cards dealt to ``penetration`` hold (a
    little more than they do: :data:`CARDS_PER_ROUND`), known before any is dealt."""
    return shoes * (int(floor(cards * penetration)) // CARDS_PER_ROUND + 1)


def check_work(shoes: int, cards: int, penetration: mpq) -> None:
    """Refuse, before dealing, a run of more than :data:`MAX_ROUNDS` rounds, naming the bound."""
    rounds = estimated_rounds(shoes, cards, penetration)
    if rounds > MAX_ROUNDS:
        raise BjexactError(f"--shoes {shoes:,}: about {rounds:,} rounds to solve exactly (two solves each), more "
                           f"than the bound of {MAX_ROUNDS:,} rounds a run: fewer --shoes")


def true_count(system: CountSystem, full: Sequence[int], unseen: Sequence[int]) -> mpq:
    """Running count / decks unseen (52 cards a deck), exactly."""
    seen = [f - u for f, u in zip(full, unseen)]
    return mpq(system.running(seen) * 52, sum(unseen))


# --- the task -----------------------------------------------------------------------------------


_UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def chart_to_json(chart: ChartPolicy) -> dict[str, str]:
    """A chart in a task: ``"section row"`` -> its codes against 2..9, T, A, space-separated (``-``: none)."""
    rows = sorted({(section, row) for section, row, _ in chart.codes})
    return {f"{section} {row}": " ".join(chart.codes.get((section, row, up), "-") for up in _UPCARDS)
            for section, row in rows}


def chart_from_json(document: Mapping[str, str]) -> ChartPolicy:
    codes = {}
    for key, line in document.items():
        section, row = key.split(" ")
        for up, code in zip(_UPCARDS, line.split(" "), strict=True):
            if code != "-":
                codes[(section, row, up)] = code
    return ChartPolicy(codes)


def round_tasks(rules: GameRules, rounds: Sequence[Round]) -> list[dict[str, Any]]:
    """The tasks of ``rounds``: the rules, the cards unseen, and the full shoe's basic strategy chart
    (solved once here, not once per worker)."""
    rules_json = rules.to_json()
    chart = chart_to_json(basic_chart(rules))
    return [{"rules": rules_json, "unseen": list(r.unseen), "basic": chart} for r in rounds]


def round_task(task: Mapping[str, Any]) -> dict[str, Any]:
    """The exact values of a round dealt from ``task["unseen"]`` under ``task["rules"]`` (full shoe in the rules).

    Pure: a function of the rules and the composition only (``task["basic"]``, the full shoe's basic
    strategy chart, is a function of the rules; without it the task solves the full shoe for it).
    """
    rules = dict(task["rules"])
    chart = chart_from_json(task["basic"]) if "basic" in task else basic_chart(rules_from_json(rules))
    rules.pop("decks", None)
    composition = rules_from_json(rules | {"shoe": list(task["unseen"])})
    solution, basic = solve_game_and_chart(composition, chart)
    decisions = {}
    for name, ((a, b), up) in DECISIONS.items():
        key = (a, b, up)
        if key not in solution.hands:
            continue
        moves = solution.hands[key]
        weight = solution.upcard_chance[up] * solution.deal_chance[key]
        decisions[name] = {"weight": fraction_string(weight), "basic": basic.hands[key].best,
                           "values": {m: fraction_string(moves.unconditional(m)) for m in moves.w}}
    unseen = task["unseen"]
    n = sum(unseen)
    insurance = None
    if unseen[0] and n > 1:  # an ace up: insuring half the bet is worth (3 P(ten) - 1) / 2
        p_ten = mpq(unseen[9], n - 1)
        insurance = {"weight": fraction_string(mpq(unseen[0], n)), "value": fraction_string((3 * p_ten - 1) / 2)}
    return {"ev": fraction_string(solution.ev), "ev_basic": fraction_string(basic.ev),
            "decisions": decisions, "insurance": insurance}


# --- the analysis -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bin:
    """The rounds at one count (a floored true count, or a running count for an unbalanced system)."""

    count: int
    rounds: int
    ev: mpq          # mean over the rounds, exact
    ev_basic: mpq


@dataclass(frozen=True)
class Index:
    """An index number: play ``move`` instead of the basic ``basic`` when the count (true, or
    running for an unbalanced system) is ``>= threshold`` (``direction`` "+") or ``<= threshold`` ("-")."""

    decision: str
    basic: str
    move: str
    threshold: int | None
    direction: str
    rounds: int
    gain: mpq            # mean gain per round over the rounds, exact
    agreement: mpq       # share of rounds where the index plays the composition's best move


@dataclass(frozen=True)
class CountAnalysis:
    """``by``: "true" (balanced systems: floored true counts) or "running" (unbalanced: running
    counts from ``initial_running_count``); ``key_count``: unbalanced systems, the lowest running
    count from which the rounds at each count have a positive mean value under basic strategy."""

    system: CountSystem
    rounds: int
    shoes: int
    bins: list[Bin]
    betting_correlation: float | None
    playing_efficiency: mpq | None
    indices: list[Index]
    ev: mpq
    ev_basic: mpq
    by: str = "true"
    initial_running_count: int = 0
    key_count: int | None = None

    def to_json(self) -> dict[str, Any]:
        name = f"{self.by}_count"
        return {
            "system": {"name": self.system.name, "tags": list(self.system.tags), "balanced": self.system.balanced},
            "shoes": self.shoes, "rounds": self.rounds, "count": self.by,
            "ev": fraction_string(self.ev), "ev_basic": fraction_string(self.ev_basic),
            f"by_{name}": [{name: b.count, "rounds": b.rounds, "ev": fraction_string(b.ev),
                            "ev_basic": fraction_string(b.ev_basic)} for b in self.bins],
            "betting_correlation": self.betting_correlation,
            "playing_efficiency": None if self.playing_efficiency is None else fraction_string(self.playing_efficiency),
            "indices": [{"decision": i.decision, "basic": i.basic, "move": i.move, "threshold": i.threshold,
                         "direction": i.direction, "rounds": i.rounds, "gain": fraction_string(i.gain),
                         "agreement": fraction_string(i.agreement)} for i in self.indices],
        } | ({} if self.by == "true" else {"initial_running_count": self.initial_running_count,
                                            "key_count": self.key_count})


def running_count(system: CountSystem, full: Sequence[int], unseen: Sequence[int]) -> int:
    """The running count of the cards seen, from the system's initial running count."""
    seen = [f - u for f, u in zip(full, unseen)]
    return system.initial_running_count(sum(full)) + system.running(seen)


def analyse(system: CountSystem, full: Sequence[int], rounds: Sequence[Round],
            results: Sequence[Mapping[str, Any]]) -> CountAnalysis:
    """EV by count (true count, or running count for an unbalanced system), betting correlation,
    playing efficiency and index numbers, from exact per-round values."""
    if not rounds:
        raise BjexactError("no rounds were dealt: more shoes or a deeper penetration are needed")
    counts = [true_count(system, full, r.unseen) if system.balanced else mpq(running_count(system, full, r.unseen))
              for r in rounds]
    evs = [parse_fraction(r["ev"]) for r in results]
    basics = [parse_fraction(r["ev_basic"]) for r in results]
    groups: dict[int, list[int]] = {}
    for i, tc in enumerate(counts):
        groups.setdefault(int(floor(tc)), []).append(i)
    bins = [Bin(tc, len(ix), sum((evs[i] for i in ix), mpq(0)) / len(ix),
                sum((basics[i] for i in ix), mpq(0)) / len(ix)) for tc, ix in sorted(groups.items())]
    found = [_index(name, counts, results) for name in DECISIONS]
    indices = [i for i in found if i is not None]
    insurance = _insurance_index(counts, results)
    if insurance is not None:
        indices.append(insurance)
    gain_optimal = sum((e - b for e, b in zip(evs, basics)), mpq(0))
    gain_index = sum((i.gain * len(rounds) for i in indices if i.decision != "insurance"), mpq(0))
    efficiency = gain_index / gain_optimal if gain_optimal else None
    return CountAnalysis(system, len(rounds), len({r.shoe for r in rounds}), bins,
                         _correlation(counts, evs), efficiency, indices,
                         sum(evs, mpq(0)) / len(evs), sum(basics, mpq(0)) / len(basics),
                         "true" if system.balanced else "running", system.initial_running_count(sum(full)),
                         None if system.balanced else _key_count(bins))


def _key_count(bins: Sequence[Bin]) -> int | None:
    """The lowest count from which the rounds at each count have a positive mean basic-strategy value
    (the top run of positive counts; ``None`` when the highest count is not positive)."""
    key = None
    for b in reversed(bins):
        if b.ev_basic <= 0:
            break
        key = b.count
    return key


def _correlation(xs: Sequence[mpq], ys: Sequence[mpq]) -> float | None:
    n = len(xs)
    mx, my = sum(xs, mpq(0)) / n, sum(ys, mpq(0)) / n
    sxy = sum(((x - mx) * (y - my) for x, y in zip(xs, ys)), mpq(0))
    sxx = sum(((x - mx) ** 2 for x in xs), mpq(0))
    syy = sum(((y - my) ** 2 for y in ys), mpq(0))
    if not sxx or not syy:
        return None
    return float(sxy) / sqrt(float(sxx) * float(syy))


def _threshold(counts: Sequence[mpq], gains: Sequence[mpq], best_alt: Sequence[bool]):
    """The threshold and direction that maximise the summed exact gain of playing the alternative."""
    n = len(counts)
    candidates = sorted({int(floor(c)) for c in counts})
    best: tuple[mpq, int | None, str] = (mpq(0), None, "+")
    for t in candidates:
        for direction in ("+", "-"):
            chosen = [(c >= t) if direction == "+" else (floor(c) <= t) for c in counts]
            gain = sum((g for g, ch in zip(gains, chosen) if ch), mpq(0))
            if gain > best[0]:
                best = (gain, t, direction)
    gain, threshold, direction = best
    if threshold is None:
        agree = sum(1 for b in best_alt if not b)
    else:
        agree = sum(1 for c, b in zip(counts, best_alt)
                    if b == ((c >= threshold) if direction == "+" else (floor(c) <= threshold)))
    return threshold, direction, gain, mpq(agree, n)


def _index(name: str, counts: Sequence[mpq], results: Sequence[Mapping[str, Any]]) -> Index | None:
    seen = [(tc, r["decisions"][name]) for tc, r in zip(counts, results) if name in r["decisions"]]
    if not seen:
        return None
    basic = seen[0][1]["basic"]
    alternatives: dict[str, int] = {}
    for _, d in seen:
        values = {m: parse_fraction(v) for m, v in d["values"].items()}
        best = best_move(values)
        if best != basic:
            alternatives[best] = alternatives.get(best, 0) + 1
    move = max(alternatives, key=lambda m: alternatives[m]) if alternatives else _runner_up(basic, seen)
    if move is None:
        return None
    gains, best_alt = [], []
    for _, d in seen:
        values = {m: parse_fraction(v) for m, v in d["values"].items()}
        weight = parse_fraction(d["weight"])
        gains.append(weight * (values.get(move, values[basic]) - values[basic]))
        best_alt.append(best_move(values) == move)
    counts_seen = [tc for tc, _ in seen]
    t, direction, gain, agreement = _threshold(counts_seen, gains, best_alt)
    return Index(name, basic, move, t, direction, len(seen), gain / len(counts), agreement)


def _runner_up(basic: str, seen: Sequence[tuple[mpq, Mapping[str, Any]]]) -> str | None:
    """The move other than ``basic`` that comes closest to it, summed over the rounds meeting the
    decision with their weights (exact); ``None`` when the hand has no other move.

    Used when no round favours a deviation: the index is then "none" for the true runner-up
    (11 v A: double, else hit), never an invented move such as standing."""
    totals: dict[str, mpq] = {}
    for _, d in seen:
        weight = parse_fraction(d["weight"])
        for m, v in d["values"].items():
            if m != basic:
                totals[m] = totals.get(m, mpq(0)) + weight * parse_fraction(v)
    return best_move(totals) if totals else None


def _insurance_index(counts: Sequence[mpq], results: Sequence[Mapping[str, Any]]) -> Index | None:
    seen = [(tc, r["insurance"]) for tc, r in zip(counts, results) if r.get("insurance")]
    if not seen:
        return None
    gains = [parse_fraction(d["weight"]) * parse_fraction(d["value"]) for _, d in seen]
    best_alt = [parse_fraction(d["value"]) > 0 for _, d in seen]
    t, direction, gain, agreement = _threshold([tc for tc, _ in seen], gains, best_alt)
    return Index("insurance", "no insurance", "insure", t, direction, len(seen), gain / len(counts), agreement)


def plot_by_true_count(analysis: CountAnalysis, path: str | Path) -> None:
    """Draw the mean exact value at each true count (optimal and basic), over the share of rounds at each count.

    The format follows the file's suffix (.svg, .pdf, .png); needs matplotlib (``bjexact[plot]``).
    """
    write_atomically(Path(path), count_plot(analysis, Path(path)))


def count_plot(analysis: CountAnalysis, path: str | Path) -> bytes:
    """The bytes of :func:`plot_by_true_count`'s figure for the file ``path`` (its suffix: the format)."""
    path = Path(path)
    if path.suffix not in (".svg", ".pdf", ".png"):
        raise BjexactError(f"a plot file must end in .svg, .pdf or .png, not {str(path)!r}")
    try:
        import matplotlib
    except ImportError:
        raise BjexactError("plots need matplotlib: pip install 'bjexact[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = [b.count for b in analysis.bins]
    figure, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 5), height_ratios=(3, 1))
    top.plot(counts, [float(b.ev) * 100 for b in analysis.bins], "o-", label="optimal for the cards unseen")
    top.plot(counts, [float(b.ev_basic) * 100 for b in analysis.bins], "s--", label="basic strategy")
    top.axhline(0, color="grey", linewidth=0.8)
    top.set_ylabel("expected result (%)")
    top.set_title(f"{analysis.system.name}: exact value of the round by {analysis.by} count ({analysis.rounds} rounds)")
    top.legend()
    bottom.bar(counts, [100 * b.rounds / analysis.rounds for b in analysis.bins], color="#888888")
    bottom.set_ylabel("rounds (%)")
    bottom.set_xlabel("true count (floored)" if analysis.by == "true"
                      else f"running count (from {analysis.initial_running_count:+d})")
    figure.tight_layout()
    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format=path.suffix[1:])
    finally:
        plt.close(figure)
    return buffer.getvalue()


# --- the classic betting correlation: tags against effects of removal ---------------------------


def removal_shoes(full: Sequence[int]) -> list[tuple[int, ...]]:
    """The full shoe, then the full shoe less one card of each rank A, 2, ..., T it holds."""
    shoes = [tuple(full)]
    for rank in range(1, 11):
        if full[rank - 1]:
            shoes.append(tuple(n - (r == rank) for r, n in enumerate(full, 1)))
    return shoes


def effects_of_removal(full: Sequence[int], evs: Sequence[mpq]) -> dict[int, mpq]:
    """rank -> the exact change of the round's value when one card of it leaves the shoe
    (``evs``: the values of :func:`removal_shoes`, in order)."""
    ranks = [rank for rank in range(1, 11) if full[rank - 1]]
    return {rank: ev - evs[0] for rank, ev in zip(ranks, evs[1:])}


def eor_betting_correlation(system: CountSystem, eors: Mapping[int, mpq]) -> float | None:
    """The betting correlation as counters define it: the correlation of the tags with the
    effects of removal over the 13 cards of a deck (ten, jack, queen and king: four tens)."""
    weights = {rank: 4 if rank == 10 else 1 for rank in eors}
    total = sum(weights.values())
    tags = {rank: mpq(system.tags[rank - 1]) for rank in eors}
    mt = sum(weights[r] * tags[r] for r in eors) / total
    me = sum(weights[r] * eors[r] for r in eors) / total
    sxy = sum(weights[r] * (tags[r] - mt) * (eors[r] - me) for r in eors)
    sxx = sum(weights[r] * (tags[r] - mt) ** 2 for r in eors)
    syy = sum(weights[r] * (eors[r] - me) ** 2 for r in eors)
    if not sxx or not syy:
        return None
    return float(sxy) / sqrt(float(sxx) * float(syy))
