"""Tables and JSON documents of the full game: house edge, one hand's moves, strategy charts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..core.cards import ACE, UPCARD_ORDER, rank_symbol
from ..core.hand import is_natural
from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules
from ..core.text import decimal_string as _decimal
from ..player.game import (
    MOVES,
    GameSolution,
    MoveValues,
    chart_code,
    even_money,
    hand_moves_and_split_values,
    insurance_value,
)
from ..player.optimal_split import OptimalSplit
from .tables import NumberStyle, Table, render, with_floats

__all__ = ["edge_tables", "edge_json", "edge_headline", "hand_tables", "hand_json", "chart_tables", "chart_json",
           "even_money_tables", "even_money_json", "chart_row_label", "player_game_tables", "player_game_json",
           "CHART_LEGEND"]

CHART_LEGEND = ("H hit, S stand, Dh double else hit, Ds double else stand, P split, "
                "Ph/Pd split if doubling after splitting is allowed, else hit/double, "
                "Rh/Rs/Rp surrender else hit/stand/split")
PERCENT = NumberStyle()  # the default: chances in %, expected results in % of the initial bet

# the exact "p/q" fields of the JSON documents that get a "KEY_float" beside them
_FLOAT_KEYS = ("ev", "house_edge", "by_upcard", "moves", "distribution", "variance", "insurance",
               "dealer_natural_chance", "split_strategies")
_STRATEGY_NAMES = {"optimal": "optimal", "cdz": "CDZ-", "cdp1": "CDP1", "cdp": "CDP"}
_SECTION_TITLES = {"hard": "Hard totals", "soft": "Soft totals", "pairs": "Pairs"}


def _upcard_columns(first: str) -> list[str]:
    return [first] + [rank_symbol(u) for u in UPCARD_ORDER]


def edge_headline(solution: GameSolution, style: NumberStyle = PERCENT) -> list[str]:
    """The round's exact value and the house edge, as people quote them (9 places of a percentage,
    or 11 of a unit with ``style`` per unit), and the exact fraction per unit initial bet."""
    ev = solution.ev
    if style.percent:
        value, edge = f"{_decimal(ev * 100, 9, signed=True)}% of the initial bet", f"{_decimal(-ev * 100, 9)}%"
    else:
        value, edge = f"{_decimal(ev, 11, signed=True)} per unit initial bet", f"{_decimal(-ev, 11)} per unit"
    return [
        f"Expected result of a round: {value}",
        f"  = {fraction_string(ev)} per unit initial bet",
        f"House edge: {edge}",
    ]


def strategy_lines(strategy: str, chart_source: str | None, optimal: GameSolution, played: GameSolution,
                   style: NumberStyle) -> list[str]:
    """Which play the headline is for; for a chart, the optimal play's edge beside it."""
    if strategy == "optimal":
        return ["Strategy: optimal composition-dependent play (each hand's own cards count)."]
    what = "the basic strategy chart of these rules (bjexact chart)" if chart_source == "bjexact chart" \
        else f"the chart {chart_source}"
    cost = replace(style, exact=False, signed=False).value_text(optimal.ev - played.ev, 6 if style.percent else 8)
    return [f"Strategy: every hand played by {what}.",
            f"Optimal composition-dependent play: house edge {_decimal(-optimal.ev * 100, 9)}% "
            f"(the chart costs {cost})."]


def edge_summary_table(solution: GameSolution, style: NumberStyle, chart_ev: mpq | None = None) -> Table:
    """The round's expected result and the house edge as a table (CSV and LaTeX, which have no
    headline); with ``chart_ev`` also the basic strategy chart's."""
    rows = [["expected result", solution.ev], ["house edge", -solution.ev]]
    if chart_ev is not None:
        rows += [["expected result, basic strategy chart", chart_ev], ["house edge, basic strategy chart", -chart_ev]]
    return Table(f"The round: {solution.rules.describe()}", ["quantity", style.value_header("value")], rows,
                 section="summary")


def edge_tables(solution: GameSolution, style: NumberStyle) -> list[Table]:
    rules = solution.rules.describe()
    rows = [[rank_symbol(u), solution.upcard_chance[u], solution.by_upcard[u]] for u in solution.by_upcard]
    tables = [Table(f"Expected result of a round by up-card: {rules}",
                    ["up-card", style.chance_header("chance"), style.value_header("expected result")],
                    rows, ["Dealer naturals included; weighted by the up-card's chance the expected results "
                           "sum to the round's."], section="by up-card")]
    rows = [[what, p] for what, p in solution.move_chances.items()]
    notes = ["A natural is settled at once; otherwise the chance that the first decision is each move."]
    if solution.distribution is None and solution.distribution_missing:
        notes.append(f"The distribution of the net result is not computed: {solution.distribution_missing}.")
    tables.append(Table(f"How rounds go: {rules}", ["round", style.chance_header("chance")], rows, notes,
                        section="how rounds go"))
    variance = solution.variance
    if solution.distribution is not None and variance is not None:
        rows = [[_result_label(r), p] for r, p in sorted(solution.distribution.items())]
        tables.append(Table(f"Net result of a round: {rules}",
                            ["net result (units)", style.chance_header("chance")], rows,
                            [f"Mean {_decimal(solution.ev, 9, signed=True)}, variance "
                             f"{_decimal(variance, 9)}, standard deviation "
                             f"{float(variance) ** 0.5:.6f} units per unit initial bet."], section="net result"))
    return tables


def _result_label(value: mpq) -> str:
    return fraction_string(value) if value.denominator != 1 else f"{int(value):+d}" if value else "0"


def edge_json(solution: GameSolution) -> dict[str, Any]:
    """``{"rules", "ev", "house_edge", "by_upcard", "moves", "distribution", "variance", "distribution_missing"}``,
    exact values as "p/q" strings (``distribution`` and ``variance`` are null where they are not computed,
    ``distribution_missing`` then says why;
    ``moves``: how rounds go, see :attr:`GameSolution.move_chances`)."""
    distribution = solution.distribution
    return with_floats({
        "rules": solution.rules.to_json(),
        "ev": fraction_string(solution.ev),
        "house_edge": fraction_string(-solution.ev),
        "by_upcard": {rank_symbol(u): fraction_string(v) for u, v in solution.by_upcard.items()},
        "moves": {what: fraction_string(p) for what, p in solution.move_chances.items()},
        "distribution": None if distribution is None else {
            fraction_string(r): fraction_string(p) for r, p in sorted(distribution.items())},
        "variance": None if distribution is None else fraction_string(solution.variance),
        "distribution_missing": solution.distribution_missing or None,
    }, _FLOAT_KEYS)


def _hand_label(cards: tuple[int, ...]) -> str:
    return ",".join(rank_symbol(c) for c in cards)


def _two_card_label(cards: tuple[int, int]) -> str:
    """A two-card hand as charts print it: an ace first, otherwise the higher card first."""
    low, high = sorted(cards)
    return _hand_label((low, high) if low == 1 else (high, low))


def even_money_tables(values: dict[str, mpq], rules_text: str, style: NumberStyle = PERCENT) -> list[Table]:
    best = max(values, key=lambda what: values[what])
    rows = [[what, value, "best" if what == best else values[best] - value] for what, value in values.items()]
    return [Table(f"A,T v A: {rules_text}", ["choice", style.value_header("value"), style.value_header("cost")], rows,
                  ["A natural against an ace: even money is insuring it, a sure 1; without insurance it pays "
                   "the blackjack payout unless the dealer also has a natural (a push)."])]


def even_money_json(values: dict[str, mpq], rules: Any) -> dict[str, Any]:
    return with_floats({"rules": rules.to_json(), "cards": ["A", "T"], "upcard": "A",
                        "moves": {what: fraction_string(v) for what, v in values.items()},
                        "best": max(values, key=lambda what: values[what])}, _FLOAT_KEYS)


def hand_tables(moves: MoveValues, rules_text: str, style: NumberStyle, insurance: mpq | None = None) -> list[Table]:
    values = moves.values
    best = moves.best
    order = sorted(values, key=lambda m: (m != best, -moves.unconditional(m)))
    rows = [[move, values[move], "best" if move == best else _cost(moves, move)] for move in order]
    notes = ["Cost: what the move loses against the best."]
    if moves.peek and moves.natural:
        notes.append("With this up-card the dealer has peeked: values are conditioned on no dealer natural "
                     f"(P(natural | cards seen) = {fraction_string(moves.natural)})"
                     + ("; early surrender, decided before the peek, is not." if "surrender" in values
                        and moves.early_surrender else "."))
    if insurance is not None:
        notes.append(f"Insurance (half the stake, paid 2:1 if the hole card is a ten): worth "
                     f"{replace(style, signed=True, exact=False).value_text(insurance)} "
                     f"({fraction_string(insurance)}); {'take it' if insurance > 0 else 'not worth taking'}.")
    return [Table(f"{_hand_label(moves.cards)} v {rank_symbol(moves.upcard)}: {rules_text}",
                  ["move", style.value_header("value"), style.value_header("cost")], rows, notes)]


def split_strategy_table(moves: MoveValues, values: Mapping[str, mpq], style: NumberStyle) -> Table:
    """The value of splitting under perfect post-split play and under each fixed strategy
    (:func:`~bjexact.player.optimal_split.split_values`), with what the optimum gains over each."""
    rows = [[_STRATEGY_NAMES[s], v, values["optimal"] - v] for s, v in values.items()]
    return Table(f"Splitting {_hand_label(moves.cards)} v {rank_symbol(moves.upcard)} by post-split play",
                 ["post-split play", style.value_header("value"), style.value_header("optimum gains")], rows,
                 ["optimal: every split hand's every move chosen knowing every card seen in the round and the "
                  "totals (and stakes) the finished hands stand on; CDZ-: as the unsplit hand; CDP1: the first "
                  "split hand's optimal strategy; CDP: optimal with the other hands' pair cards gone."])


_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth"}
# the departures of perfect post-split play from CDZ- shown as text (JSON gives every one)
SHOWN_DEPARTURES = 20


def departures_table(split: OptimalSplit, style: NumberStyle, limit: int = SHOWN_DEPARTURES) -> Table:
    """Where perfect post-split play departs from CDZ- (:attr:`OptimalSplit.departures`), the
    ``limit`` largest gains first."""
    found = split.departures or ()
    rows = [[f"{_ORDINALS.get(d.hand, d.hand)} hand", _hand_label(d.cards), _finished_hands(d.before) or "-",
             d.move + (" (a tie)" if d.tie else ""), d.cdz, d.chance, d.gain] for d in found[:limit]]
    notes = [f"{len(found)} positions in all where the optimum's move is not CDZ-'s"
             + (f"; the {limit} of largest gain shown (JSON: every one)." if len(found) > limit else "."),
             "before: the hands finished before it (cards, what they ended on, D: doubled); chance: of "
             "reaching the position, given the split; gain: what the optimum's move adds there to the "
             "split's value, against CDZ-'s move followed by perfect play."]
    title = (f"Splitting {_hand_label((split.pair, split.pair))} v {rank_symbol(split.upcard)}: where perfect "
             "post-split play departs from CDZ-")
    columns = ["hand", "cards", "before", "optimal", "CDZ-", style.chance_header("chance"), style.value_header("gain")]
    return Table(title, columns, rows, notes)


def _finished_hands(before: tuple[tuple[tuple[int, ...], int | str, int], ...]) -> str:
    return "; ".join(f"{_hand_label(cards)} {result}{' D' if stake == 2 else ''}" for cards, result, stake in before)


def departures_json(split: OptimalSplit) -> list[dict[str, Any]]:
    """Every departure of perfect post-split play from CDZ-, largest gain first: exact values as "p/q",
    each with the nearest float beside it (``chance_float``, ``gain_float``)."""
    return [{"hand": d.hand, "cards": [rank_symbol(c) for c in d.cards],
             "before": [{"cards": [rank_symbol(c) for c in cards], "result": result, "stake": stake}
                        for cards, result, stake in d.before],
             "move": d.move, "cdz": d.cdz, "tie": d.tie, "chance": fraction_string(d.chance),
             "chance_float": float(d.chance), "gain": fraction_string(d.gain), "gain_float": float(d.gain)}
            for d in split.departures or ()]


def _cost(moves: MoveValues, move: str) -> mpq:
    """What ``move`` loses against the best, in the units its value is shown in (a cost involving
    early surrender, which is shown unconditional, is unconditional)."""
    best = moves.best
    if moves.early_surrender and "surrender" in (move, best):
        return moves.unconditional(best) - moves.unconditional(move)
    return moves.value(best) - moves.value(move)


def hand_json(moves: MoveValues, rules: Any, insurance: mpq | None = None,
              split_strategies: Mapping[str, mpq] | None = None,
              split: OptimalSplit | None = None) -> dict[str, Any]:
    """``{"cards", "upcard", "moves", "best"}`` (and the rules, P(dealer natural), whether conditioned,
    with an ace up the value of insurance; under perfect post-split play ``split_strategies``, the
    split's value by post-split play: ``optimal``, ``cdz``, ``cdp1``, ``cdp``, and with the departures
    from CDZ- asked for (``split``), ``departures``: :func:`departures_json`)."""
    extra: dict[str, Any] = {} if insurance is None else {"insurance": fraction_string(insurance)}
    if split_strategies is not None:
        extra["split_strategies"] = {s: fraction_string(v) for s, v in split_strategies.items()}
    if split is not None and split.departures is not None:
        extra["departures"] = departures_json(split)
    return with_floats({
        "rules": rules.to_json(),
        "cards": [rank_symbol(c) for c in moves.cards],
        "upcard": rank_symbol(moves.upcard),
        "moves": {m: fraction_string(v) for m, v in moves.values.items()},
        "best": moves.best,
        "conditioned_on_no_dealer_natural": bool(moves.peek and moves.natural),
        "dealer_natural_chance": fraction_string(moves.natural),
    } | extra, _FLOAT_KEYS)


def chart_tables(solution: GameSolution, by_hand: bool = False, das_codes: bool = True) -> list[Table]:
    """The basic strategy chart; ``das_codes``: Ph/Pd where a split is best only thanks to DAS
    (one more valuation of those splits: seconds for finite shoes)."""
    rules = solution.rules.describe()
    chart = solution.chart(das_codes=das_codes)
    if by_hand:
        return _chart_by_hand(solution, chart, rules)
    tables = []
    for section, rows in chart.items():
        body = []
        for row, cells in rows.items():
            label = chart_row_label(section, row)
            body.append([label] + [(cells[u].code + ("*" if cells[u].depends_on_composition else ""))
                                   if u in cells else "" for u in UPCARD_ORDER])
        tables.append(Table(f"Basic strategy, {_SECTION_TITLES[section].lower()}: {rules}",
                            _upcard_columns("player"), body, section=section, notes=
                            [CHART_LEGEND + ". Total-dependent: each cell is the move with the largest expected "
                             "value summed over its two-card hands, each weighted by its chance; * its hands "
                             "disagree (see --by hand)."]))
    return tables


def chart_row_label(section: str, row: str) -> str:
    """How a chart row is printed: hard totals as the total, soft totals as ``A,x``, pairs as ``x,x``."""
    if section == "pairs":
        return f"{row},{row}"
    if section == "soft":
        return f"A,{int(row) - 11}"
    return row


def _chart_by_hand(solution: GameSolution, chart: Any, rules: str) -> list[Table]:
    hands = _ordered_hands(solution)
    rows = []
    exceptions = []
    for a, b in hands:
        row = [_two_card_label((a, b))]
        for u in UPCARD_ORDER:
            moves = solution.hands.get((a, b, u))
            if moves is None:
                row.append("")
                continue
            code = chart_code({m: moves.unconditional(m) for m in moves.w})
            row.append(code)
        rows.append(row)
    for section_rows in chart.values():
        for cells in section_rows.values():
            for u, cell in cells.items():
                for cards, best in cell.hands.items():
                    if best != cell.best:
                        moves = solution.hands[(cards[0], cards[1], u)]
                        exceptions.append([f"{_two_card_label(cards)} v {rank_symbol(u)}", cell.code,
                                           chart_code({m: moves.unconditional(m) for m in moves.w})])
    tables = [Table(f"Best move by two-card hand (composition-dependent): {rules}", _upcard_columns("hand"), rows,
                    [CHART_LEGEND + "."], section="by hand")]
    tables.append(Table(f"Hands that play differently from their chart cell: {rules}",
                        ["hand", "chart", "this hand"], exceptions or [["(none)", "", ""]], section="exceptions"))
    return tables


def chart_json(solution: GameSolution) -> dict[str, Any]:
    """``{"rules", "hard": {"16": {"2": "S", ..., "A": "Rh"}}, "soft": {...}, "pairs": {"8": {...}}}``."""
    chart = solution.chart(das_codes=True)
    document: dict[str, Any] = {"rules": solution.rules.to_json()}
    for section, rows in chart.items():
        document[section] = {row: {rank_symbol(u): cell.code for u, cell in cells.items()}
                             for row, cells in rows.items()}
    return document


def _ordered_hands(solution: GameSolution) -> list[tuple[int, int]]:
    """The two-card hands of a solution in chart order: hard, soft, then pairs."""
    return sorted({(a, b) for a, b, _ in solution.hands}, key=lambda h: (h[0] == h[1], h[0] == 1, h))


def move_value_tables(solution: GameSolution, style: NumberStyle = PERCENT) -> list[Table]:
    """Every move's value for every two-card hand, one table per up-card."""
    rules = solution.rules.describe()
    moves = [m for m in MOVES if any(m in v.w for v in solution.hands.values())]
    tables = []
    for upcard in UPCARD_ORDER:
        rows = []
        for a, b in _ordered_hands(solution):
            hand = solution.hands.get((a, b, upcard))
            if hand is None:
                continue
            values = hand.values
            rows.append([_two_card_label((a, b))] + [values.get(m, "") for m in moves] + [hand.best])
        if not rows:
            continue
        conditioned = solution.rules.hole_card == "peek" and upcard in (1, 10)
        note = ("Conditioned on no dealer natural (the dealer has peeked)"
                + ("; early surrender, decided before the peek, is not." if solution.rules.surrender == "early"
                   else ".") if conditioned else "Dealer naturals included.")
        tables.append(Table(f"Values of the moves v {rank_symbol(upcard)} ({style.value_units}): {rules}",
                            ["hand"] + moves + ["best"], rows,
                            [note + " Composition-dependent: each hand's own cards have left the shoe."],
                            section=f"v {rank_symbol(upcard)}"))
    return tables


def player_game_tables(solution: GameSolution, style: NumberStyle, *, by_hand: bool = False,
                       values: bool = False) -> list[Table]:
    """``bjexact player`` for the full game: the chart (by total, or by hand) and, with ``values``,
    every move's value hand by hand."""
    return chart_tables(solution, by_hand=by_hand) + (move_value_tables(solution, style) if values else [])


def player_game_json(solution: GameSolution) -> dict[str, Any]:
    """``{"rules", "moves": "full", "ev", "house_edge", "chart": {"hard", "soft", "pairs"}, "hands": [{"cards",
    "upcard", "moves", "best"}, ...]}``, values exact "p/q" strings (as :func:`hand_json`: conditioned on no
    dealer natural where the dealer has peeked)."""
    chart = chart_json(solution)
    hands = [with_floats({"cards": [rank_symbol(a), rank_symbol(b)], "upcard": rank_symbol(u),
                          "moves": {m: fraction_string(v) for m, v in solution.hands[(a, b, u)].values.items()},
                          "best": solution.hands[(a, b, u)].best}, _FLOAT_KEYS)
             for a, b in _ordered_hands(solution) for u in UPCARD_ORDER if (a, b, u) in solution.hands]
    return with_floats({"rules": chart.pop("rules"), "moves": "full", "ev": fraction_string(solution.ev),
                        "house_edge": fraction_string(-solution.ev), "chart": chart, "hands": hands},
                       ("ev", "house_edge"))


def strategy_json(strategy: str, chart_source: str | None, optimal: GameSolution) -> dict[str, Any]:
    """Which play the document's numbers are for: ``{"strategy": "optimal"}`` (composition-dependent),
    or ``{"strategy": "chart", "chart": source, "optimal_ev", "optimal_house_edge"}`` (and their floats)."""
    if strategy == "optimal":
        return {"strategy": "optimal"}
    return with_floats({"strategy": "chart", "chart": chart_source, "optimal_ev": fraction_string(optimal.ev),
                        "optimal_house_edge": fraction_string(-optimal.ev)}, ("optimal_ev", "optimal_house_edge"))


def edge_output(played: GameSolution, optimal: GameSolution, fmt: str, style: NumberStyle,
                strategy: str = "optimal", chart_source: str | None = None) -> str:
    """What ``bjexact edge`` writes in ``fmt``: the round ``played`` (the ``optimal`` one, or under
    ``strategy`` chart, a chart's from ``chart_source``), with the optimum beside a chart's; text and
    Markdown open with the headline."""
    tables = edge_tables(played, style)
    if fmt in ("csv", "latex"):
        tables = [edge_summary_table(optimal, style, None if strategy == "optimal" else played.ev)] + tables
    document = edge_json(played) | strategy_json(strategy, chart_source, optimal)
    text = render(tables, fmt, style, document)
    if fmt in ("text", "md"):
        head = edge_headline(played, style) + strategy_lines(strategy, chart_source, optimal, played, style)
        text = "\n".join(head) + "\n\n" + text
    return text


def hand_parts(rules: GameRules, cards: list[int], upcard: int, style: NumberStyle,
               split: OptimalSplit | None = None) -> tuple[list[Table], dict[str, Any]]:
    """What ``bjexact hand`` shows of ``cards`` (ranks) against ``upcard``: its tables and its JSON
    document. Every move's value, insurance with an ace up, and under perfect post-split play the split by
    post-split strategy (and the departures of ``split`` from CDZ-, when given); a natural against an ace:
    even money against playing on."""
    if is_natural(cards) and upcard == ACE:
        values = even_money(rules)
        return even_money_tables(values, rules.describe(), style), even_money_json(values, rules)
    moves, by_strategy = hand_moves_and_split_values(rules, cards, upcard, split=split)
    insurance = insurance_value(rules, cards) if upcard == ACE and len(cards) == 2 else None
    tables = hand_tables(moves, rules.describe(), style, insurance)
    if by_strategy is not None:
        tables.append(split_strategy_table(moves, by_strategy, style))
    if split is not None:
        tables.append(departures_table(split, style))
    return tables, hand_json(moves, rules, insurance, by_strategy, split)
