"""What the web application answers, as the text the command line writes.

Each function here takes a rule set (and a hand, a chart cell) and returns the text of one answer
in one format: the same functions of :mod:`bjexact.render` the commands call, with the commands'
default number style, so that a download from the page is byte for byte what ``bjexact edge``,
``chart``, ``hand`` and ``dealer`` write with the same rules and ``--format``.

They run in the server's worker processes (:mod:`bjexact.web.service`), which keep the solutions
of the rule sets they solved most recently: the chart, a cell's hands and the house edge of one
rule set come from one solve.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..core.cards import parse_rank, rank_symbol
from ..core.numbers import fraction_string
from ..core.rules import GameRules
from ..dealer.distributions import dealer_table
from ..errors import BjexactError
from ..player.game import GameSolution, solve_game
from ..player.policy import ChartPolicy, evaluate_chart
from ..render.effects import house_edge, remember_house_edge
from ..render.figures import strategy_chart_figure
from ..render.game import chart_json, chart_tables, edge_output, hand_parts
from ..render.tables import NumberStyle, dealer_tables, render, with_floats

__all__ = ["DEFAULT_STYLE", "TABLE_FORMATS", "solution", "edge_answer", "chart_answer", "hand_answer",
           "cell_answer", "dealer_answer", "house_edge_answer"]

DEFAULT_STYLE = NumberStyle(decimals=4, percent=True, exact=False)
"""The commands' number style without --units, --exact or --decimals."""

TABLE_FORMATS = ("json", "csv", "text", "md", "latex")
"""The formats of every answer (the chart is an SVG figure too)."""

# the rule sets a worker keeps solved (up to about 100 MB each): a page asks for the edge, the chart and
# cells of the same rules
_SOLUTIONS_KEPT = 4


@lru_cache(maxsize=_SOLUTIONS_KEPT)
def solution(rules: GameRules) -> GameSolution:
    """The round solved under optimal play, as ``bjexact edge`` solves it (the distribution of the net
    result where it comes without following split lines)."""
    solved = solve_game(rules, progress=False)
    remember_house_edge(rules, -solved.ev)  # the table of rule effects asks for the edges of the rules solved
    return solved


@lru_cache(maxsize=_SOLUTIONS_KEPT)
def _chart_solution(rules: GameRules) -> GameSolution:
    """The round played by the basic strategy chart of ``rules`` (``bjexact edge --strategy chart``)."""
    return evaluate_chart(rules, ChartPolicy.of_solution(solution(rules)), split_lines=False, progress=False)


def edge_answer(rules: GameRules, strategy: str, fmt: str) -> str:
    """``bjexact edge`` (``--strategy optimal`` or ``chart``) in ``fmt``."""
    optimal = solution(rules)
    played = optimal if strategy == "optimal" else _chart_solution(rules)
    chart_source = None if strategy == "optimal" else "bjexact chart"
    return edge_output(played, optimal, fmt, DEFAULT_STYLE, strategy, chart_source)


def chart_answer(rules: GameRules, fmt: str) -> str:
    """``bjexact chart`` in ``fmt``; ``svg``: the colour chart, each cell carrying its place
    (``data-section``, ``data-row``, ``data-upcard``) and every move's exact value on hover."""
    solved = solution(rules)
    if fmt == "svg":
        return strategy_chart_figure(solved).svg()
    return render(chart_tables(solved), fmt, NumberStyle(), chart_json(solved))


def hand_answer(rules: GameRules, cards: Sequence[str], upcard: str, fmt: str) -> str:
    """``bjexact hand CARDS --upcard U`` in ``fmt`` (``--split-strategy optimal`` is not served)."""
    tables, document = hand_parts(rules, [parse_rank(card) for card in cards], parse_rank(upcard), DEFAULT_STYLE)
    return render(tables, fmt, DEFAULT_STYLE, document)


def cell_answer(rules: GameRules, section: str, row: str, upcard: str) -> str:
    """One cell of the chart, as JSON: ``{"section", "row", "upcard", "code", "hands": [hand JSON, ...]}``,
    each of the cell's two-card hands with every move's exact value (``bjexact hand``'s JSON)."""
    chart = solution(rules).chart(das_codes=True)
    up = parse_rank(upcard)
    cell = chart.get(section, {}).get(row, {}).get(up)
    if cell is None:
        raise BjexactError(f"no chart cell {section} {row!r} v {upcard!r} under these rules "
                           f"(sections: {', '.join(chart)})")
    hands = [hand_parts(rules, [a, b], up, DEFAULT_STYLE)[1] for a, b in cell.hands]
    return json.dumps({"section": section, "row": row, "upcard": rank_symbol(up), "code": cell.code,
                       "hands": hands}, indent=2)


def dealer_answer(rules: GameRules, fmt: str) -> str:
    """The dealer's final-outcome table for the rules' shoe and S17/H17, naturals kept apart: what
    ``bjexact dealer --naturals separate`` writes."""
    table = dealer_table(rules.dealer_rules())
    return render(dealer_tables(table, DEFAULT_STYLE, rank_rows=False), fmt, DEFAULT_STYLE, table.to_json())


def house_edge_answer(rules: GameRules) -> dict[str, Any]:
    """``{"house_edge": "p/q", "house_edge_float"}`` of ``rules`` under optimal play (a rule change's
    edge, for the table of rule effects)."""
    return with_floats({"house_edge": fraction_string(house_edge(rules, progress=False))}, ("house_edge",))
