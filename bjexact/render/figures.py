"""The figures people expect: the dealer's outcomes by up-card, the basic strategy chart,
the value of each decision as a heat map, and the round's result distribution.

Each builder returns a :class:`~bjexact.render.svg.Drawing`: ``drawing.svg()`` is the SVG
text (no dependency), ``drawing.render("png")`` the bytes of a PNG or PDF (matplotlib,
the ``bjexact[plot]`` extra), and :func:`write_figure` writes a file in the format its
name ends with. The numbers are exact until they are drawn: every bar and cell of the
SVG carries its exact value as ``"p/q"`` in its hover text (``<title>``) and in
``data-*`` attributes.

Examples
--------
>>> from bjexact.core.rules import Rules
>>> from bjexact.dealer.distributions import dealer_table
>>> svg = dealer_outcome_figure(dealer_table(Rules(decks="inf"))).svg()
>>> svg.count('class="outcome"')  # 10 up-cards x 6 outcomes
60
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.cards import UPCARD_ORDER, rank_symbol
from ..core.numbers import fraction_string, mpq
from ..core.text import decimal_string
from ..dealer.distributions import DealerTable
from ..errors import BjexactError
from ..files import write_atomically
from ..player.game import MOVES, ChartCell, GameSolution
from .game import chart_row_label
from .svg import Box, Drawing, Label, Line, Shape, figure_format, text_width, wrap

__all__ = ["Chart", "dealer_outcome_figure", "strategy_chart_figure", "ev_heatmap_figure", "result_distribution_figure",
           "write_figure", "row_move_values", "CHART_COLOURS", "OUTCOME_COLOURS", "HEATMAP_MOVES"]

# Okabe-Ito colours (distinguishable with the common colour-vision deficiencies), in the
# places charts usually give them: stand yellow, hit white, double blue, split green,
# surrender vermillion. Keyed by a chart code's first letter.
CHART_COLOURS: Mapping[str, str] = {"S": "#f0e442", "H": "#ffffff", "D": "#56b4e9", "P": "#009e73",
                                    "R": "#d55e00"}
_CHART_MOVES = {"S": "stand", "H": "hit", "D": "double", "P": "split", "R": "surrender"}
_CHART_CODE_WORDS = {
    "S": "S stand", "H": "H hit", "D": "Dh / Ds double, else hit / stand",
    "P": "P split (Ph / Pd: split with DAS, else hit / double)",
    "R": "Rh / Rs / Rp surrender, else hit / stand / split",
}
_WHITE_TEXT = {"#009e73", "#d55e00", "#0072b2", "#08306b", "#08519c"}

# The dealer's totals from light to dark blue, a natural darkest, bust vermillion.
OUTCOME_COLOURS: Mapping[str, str] = {"17": "#deebf7", "18": "#c6dbef", "19": "#9ecae1", "20": "#6baed6",
                                      "21": "#3182bd", "blackjack": "#08306b", "bust": "#d55e00",
                                      "exhausted": "#999999"}
_OUTCOME_NAMES = {"blackjack": "natural", "exhausted": "shoe ran out"}
HEATMAP_MOVES = ("best",) + MOVES
_SECTION_TITLES = {"hard": "Hard totals", "soft": "Soft totals", "pairs": "Pairs"}

_MARGIN = 18
_TITLE_SIZE = 15
_TEXT_SIZE = 11
_LINE = 15


def write_figure(drawing: Drawing, path: str | Path) -> None:
    """Write ``drawing`` to ``path`` as SVG, PNG or PDF by the name's ending, whole or not at all
    (PNG and PDF need matplotlib: ``pip install 'bjexact[plot]'``)."""
    write_atomically(Path(path), drawing.render(figure_format(str(path))))


def _percent(p: mpq, places: int = 1) -> str:
    return decimal_string(p * 100, places) + "%"


def _exact(value: mpq, places: int = 6, signed: bool = False) -> str:
    """A value for hover text: decimals and the exact fraction."""
    return f"{decimal_string(value, places, signed)} = {fraction_string(value)}"


def _heading(title: str, lines: Sequence[str], width: float) -> tuple[list[Shape], float]:
    """A bold title and wrapped lines of explanation at the top; returns the shapes and the y below them."""
    shapes: list[Shape] = []
    y = _MARGIN + _TITLE_SIZE
    for line in wrap(title, width - 2 * _MARGIN, _TITLE_SIZE):
        shapes.append(Label(_MARGIN, y, line, _TITLE_SIZE, bold=True))
        y += _TITLE_SIZE + 5
    for text in lines:
        for line in wrap(text, width - 2 * _MARGIN, _TEXT_SIZE):
            shapes.append(Label(_MARGIN, y, line, _TEXT_SIZE, colour="#333333"))
            y += _LINE
    return shapes, y + 6


def _text_colour(fill: str) -> str:
    return "#ffffff" if fill in _WHITE_TEXT else "#000000"


# --- the dealer's outcomes ----------------------------------------------------------------------------------


def dealer_outcome_figure(table: DealerTable) -> Drawing:
    """The dealer's final outcomes as stacked bars, one bar per up-card (2 .. 10, A).

    Each bar is the row P(outcome | up-card) of ``table``, every outcome of the table
    stacked from 17 at the bottom to bust at the top, so each bar is exactly 1 high
    (up-cards the shoe does not hold keep an empty place).
    Segments: class ``outcome``, ``data-upcard``, ``data-outcome``, ``data-p`` (exact "p/q").
    """
    # the totals, a natural where it is separate, then bust (and a shoe run out) on top
    outcomes = [o for o in table.outcomes if o not in ("bust", "exhausted")]
    outcomes += [o for o in ("bust", "exhausted") if o in table.outcomes]
    bar, gap, plot_height = 44, 14, 380
    axis_left = _MARGIN + 46
    plot_width = len(UPCARD_ORDER) * (bar + gap) + gap
    legend_x = axis_left + plot_width + 24
    width = legend_x + 130
    notes = ["Each bar is P(final outcome | up-card), exact; segments of 4% or more are labelled (in percent), every "
             "segment shows its exact value on hover (SVG)."]
    if table.rules.naturals == "peek":
        notes.append("Naturals peek: the T and A bars are conditioned on the dealer not holding a natural.")
    elif table.rules.naturals == "separate":
        notes.append("Naturals separate: a two-card 21 is its own outcome, 'natural'.")
    if not table.rules.infinite:
        notes.append("The up-card has left the shoe.")
    shapes, top = _heading(f"Dealer's final outcome by up-card: {table.rules.describe()}", notes, width)
    top += 8
    bottom = top + plot_height
    for k in range(6):  # the axis: 0 .. 100% in steps of 20
        y = bottom - plot_height * k / 5
        shapes.append(Line(axis_left - 4, y, axis_left + plot_width, y, "#dddddd" if k else "#000000", 0.8))
        shapes.append(Label(axis_left - 7, y + 4, f"{20 * k}%", 10, anchor="end"))
    shapes.append(Label(_MARGIN + 10, (top + bottom) / 2, "probability", _TEXT_SIZE, anchor="middle", vertical=True))
    for i, upcard in enumerate(UPCARD_ORDER):
        x = axis_left + gap + i * (bar + gap)
        if upcard not in table.rows:  # not in the shoe: an empty place
            shapes.append(Label(x + bar / 2, bottom + 16, rank_symbol(upcard), 12, anchor="middle", colour="#999999"))
            continue
        row = table.rows[upcard]
        below = mpq(0)
        for outcome in outcomes:
            p = row[outcome]
            y0 = bottom - float(below + p) * plot_height
            height = float(p) * plot_height
            below += p
            if not p:
                continue
            fill = OUTCOME_COLOURS.get(outcome, "#cccccc")
            name = _OUTCOME_NAMES.get(outcome, outcome)
            shapes.append(Box(x, y0, bar, height, fill, "#ffffff",
                              f"up-card {rank_symbol(upcard)}: P({name}) = {_exact(p)}",
                              (("upcard", rank_symbol(upcard)), ("outcome", outcome), ("p", fraction_string(p))),
                              role="outcome"))
            if p >= mpq(4, 100):
                shapes.append(Label(x + bar / 2, y0 + height / 2 + 3.5, decimal_string(p * 100, 1), 9,
                                    anchor="middle", colour=_text_colour(fill)))
        shapes.append(Label(x + bar / 2, bottom + 16, rank_symbol(upcard), 12, anchor="middle", bold=True))
    shapes.append(Label(axis_left + plot_width / 2, bottom + 36, "dealer's up-card (bar labels: percent)",
                        _TEXT_SIZE, anchor="middle"))
    y = top + 4
    shapes.append(Label(legend_x, y + 8, "outcome", _TEXT_SIZE, bold=True))
    for outcome in reversed(outcomes):  # top to bottom as stacked
        y += 22
        shapes.append(Box(legend_x, y - 3, 16, 14, OUTCOME_COLOURS.get(outcome, "#cccccc"), "#666666"))
        shapes.append(Label(legend_x + 22, y + 8, _OUTCOME_NAMES.get(outcome, outcome), _TEXT_SIZE))
    return Drawing(width, bottom + 36 + _MARGIN, shapes, "Dealer's final outcome by up-card")


# --- strategy charts ------------------------------------------------------------------------------------------


def row_move_values(solution: GameSolution, hands: Iterable[tuple[int, int]], upcard: int) -> dict[str, mpq]:
    """Each move's value for a chart row's two-card ``hands`` against ``upcard``, per unit initial bet.

    The expected result of the move given that the player holds one of ``hands`` (each
    weighted by its chance of being dealt), as :meth:`MoveValues.value` weighs one hand:
    with the dealer peeking and a ten or ace up, conditioned on no dealer natural (early
    surrender, decided before the check, not); otherwise dealer naturals included. For a
    one-hand row (every pair) it is that hand's :meth:`MoveValues.value`. Moves that some
    hand of the row may not make are left out.
    """
    weighted: dict[str, mpq] = {}
    mass: dict[str, mpq] = {}
    cards_list = list(hands)
    allowed = set(MOVES)
    for a, b in cards_list:
        allowed &= set(solution.hands[(a, b, upcard)].w)
    for a, b in cards_list:
        moves = solution.hands[(a, b, upcard)]
        weight = solution.deal_chance[(a, b, upcard)]
        for move in allowed:
            conditioned = moves.peek and moves.natural and not (move == "surrender" and moves.early_surrender)
            # value = numerator / denominator for one hand; the row's value is the ratio of their weighted sums
            numerator = moves.w[move] if conditioned else moves.unconditional(move)
            denominator = 1 - moves.natural if conditioned else mpq(1)
            weighted[move] = weighted.get(move, mpq(0)) + weight * numerator
            mass[move] = mass.get(move, mpq(0)) + weight * denominator
    return {move: weighted[move] / mass[move] for move in MOVES if move in weighted}


@dataclass(frozen=True)
class _Cell:
    fill: str
    text: str
    title: str
    data: tuple[tuple[str, str], ...]


_CELL_W, _CELL_H, _ROW_LABEL_W = 40, 22, 56


def _grid(x: float, y: float, section: str, rows: Mapping[str, Mapping[int, ChartCell]],
          paint: Callable[[str, str, int, ChartCell], _Cell]) -> tuple[list[Shape], float]:
    """One section of a chart at (x, y): its title, the up-card header, a row per hand; returns the y below."""
    shapes: list[Shape] = [Label(x, y + 13, _SECTION_TITLES[section], 13, bold=True),
                           Label(x + _ROW_LABEL_W + 5 * _CELL_W, y + 13, "dealer's up-card", 10, anchor="middle",
                                 colour="#333333")]
    y += 20
    for i, upcard in enumerate(UPCARD_ORDER):
        shapes.append(Label(x + _ROW_LABEL_W + (i + 0.5) * _CELL_W, y + 14, rank_symbol(upcard), 12,
                            anchor="middle", bold=True))
    y += _CELL_H
    for row, cells in rows.items():
        label = chart_row_label(section, row)
        shapes.append(Label(x + _ROW_LABEL_W - 8, y + 15, label, 12, anchor="end", bold=True))
        for i, upcard in enumerate(UPCARD_ORDER):
            cx = x + _ROW_LABEL_W + i * _CELL_W
            cell = cells.get(upcard)
            if cell is None:
                shapes.append(Box(cx, y, _CELL_W, _CELL_H, "#eeeeee", "#888888", f"{label} v {rank_symbol(upcard)}: "
                                  "not dealt with this shoe"))
                continue
            painted = paint(section, row, upcard, cell)
            shapes.append(Box(cx, y, _CELL_W, _CELL_H, painted.fill, "#555555", painted.title,
                              (("section", section), ("row", row), ("upcard", rank_symbol(upcard))) + painted.data,
                              role="cell"))
            shapes.append(Label(cx + _CELL_W / 2, y + 15, painted.text, 11, anchor="middle",
                                colour=_text_colour(painted.fill)))
        y += _CELL_H
    return shapes, y


Chart = Mapping[str, Mapping[str, Mapping[int, ChartCell]]]


def _chart_layout(chart: Chart, title: str, notes: Sequence[str], paint: Callable[[str, str, int, ChartCell], _Cell],
                  legend: Callable[[float, float, float], tuple[list[Shape], float]]) -> Drawing:
    """Hard totals on the left with the legend below them; soft totals above pairs on the right."""
    panel = _ROW_LABEL_W + len(UPCARD_ORDER) * _CELL_W
    width = 2 * _MARGIN + 2 * panel + 36
    shapes, top = _heading(title, notes, width)
    left, bottom_left = _grid(_MARGIN, top, "hard", chart["hard"], paint)
    right_x = _MARGIN + panel + 36
    soft, y = _grid(right_x, top, "soft", chart["soft"], paint)
    pairs, bottom_right = _grid(right_x, y + 14, "pairs", chart["pairs"], paint)
    key, bottom_key = legend(_MARGIN, bottom_left + 18, panel)
    height = max(bottom_right, bottom_key) + _MARGIN
    return Drawing(width, height, shapes + left + soft + pairs + key, title)


def _value_lines(values: Mapping[str, mpq], best: str) -> str:
    return "\n".join(f"{move}{' (best)' if move == best else ''}: {_exact(value, 6, signed=True)}"
                     for move, value in values.items())


def strategy_chart_figure(solution: GameSolution, chart: Chart | None = None) -> Drawing:
    """The total-dependent basic strategy chart (:meth:`GameSolution.chart`) as a colour-coded grid.

    Colours by a code's first letter (:data:`CHART_COLOURS`): stand yellow, hit white,
    double blue, split green, surrender vermillion; a * marks cells whose two-card hands
    play differently. Each cell (class ``cell``, ``data-code``) shows on hover every move's
    value from :func:`row_move_values`, as decimals and "p/q". ``chart``: the solution's
    ``chart(das_codes=True)`` when it is at hand (it takes a second or two for 6 decks).
    """
    if chart is None:
        chart = solution.chart(das_codes=True)

    def paint(section: str, row: str, upcard: int, cell: ChartCell) -> _Cell:
        fill = CHART_COLOURS[cell.code[0]]
        values = row_move_values(solution, cell.hands, upcard)
        differ = " (its hands differ)" if cell.depends_on_composition else ""
        title = (f"{chart_row_label(section, row)} v {rank_symbol(upcard)}: {cell.code}{differ}\n"
                 + _value_lines(values, cell.best))
        return _Cell(fill, cell.code + ("*" if cell.depends_on_composition else ""), title, (("code", cell.code),))

    def legend(x: float, y: float, width: float) -> tuple[list[Shape], float]:
        shapes: list[Shape] = [Label(x, y + 12, "Codes", 13, bold=True)]
        y += 22
        for letter, words in _CHART_CODE_WORDS.items():
            if letter == "R" and solution.rules.surrender == "none":
                continue
            shapes.append(Box(x, y, 26, 18, CHART_COLOURS[letter], "#555555"))
            shapes.append(Label(x + 13, y + 13, letter, 11, anchor="middle",
                                colour=_text_colour(CHART_COLOURS[letter])))
            for k, line in enumerate(wrap(words, width - 36, _TEXT_SIZE)):
                shapes.append(Label(x + 34, y + 13 + k * _LINE, line, _TEXT_SIZE))
            y += max(24, 9 + _LINE * len(wrap(words, width - 36, _TEXT_SIZE)))
        for line in wrap("* the cell's two-card hands play differently (bjexact chart --by hand)", width, _TEXT_SIZE):
            shapes.append(Label(x, y + 12, line, _TEXT_SIZE))
            y += _LINE
        return shapes, y

    notes = ["Each cell: the move with the largest expected value over the row's two-card hands, each weighted "
             "by its chance of being dealt. Hover a cell (SVG) for every move's exact value per unit initial bet."]
    return _chart_layout(chart, f"Basic strategy: {solution.rules.describe()}", notes, paint, legend)


# --- heat maps of the decisions' values ----------------------------------------------------------------------

_NEGATIVE, _ZERO_COLOUR, _POSITIVE = (0xb2, 0x18, 0x2b), (0xf7, 0xf7, 0xf7), (0x21, 0x66, 0xac)


def _diverging(value: float, limit: float) -> str:
    """Red for losses, white at 0, blue for gains (ColorBrewer RdBu ends), linear up to ``limit``."""
    share = max(-1.0, min(1.0, value / limit))
    end = _POSITIVE if share > 0 else _NEGATIVE
    rgb = [round(z + (e - z) * abs(share)) for z, e in zip(_ZERO_COLOUR, end)]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def ev_heatmap_figure(solution: GameSolution, move: str = "best", chart: Chart | None = None) -> Drawing:
    """The value of a decision for every chart row and up-card, as a heat map.

    ``move``: ``best`` (the chart's move in each cell) or one of stand, hit, double, split,
    surrender (cells where some hand of the row may not make it are grey). Values are
    :func:`row_move_values`, per unit initial bet, shown to two decimals; each cell
    (class ``cell``, ``data-value`` exact "p/q", ``data-move``) shows them exactly on hover.
    ``chart``: the solution's :meth:`~GameSolution.chart` when it is at hand.
    """
    if move not in HEATMAP_MOVES:
        raise BjexactError(f"unknown move {move!r}: use one of {', '.join(HEATMAP_MOVES)}")
    if chart is None:
        chart = solution.chart()  # the cells' best moves and hands: the DAS codes are not drawn
    values: dict[tuple[str, str, int], tuple[str, mpq, dict[str, mpq]]] = {}
    for section, rows in chart.items():
        for row, cells in rows.items():
            for upcard, cell in cells.items():
                row_values = row_move_values(solution, cell.hands, upcard)
                chosen = cell.best if move == "best" else move
                if chosen in row_values:
                    values[(section, row, upcard)] = (chosen, row_values[chosen], row_values)
    if not values:
        raise BjexactError(f"no hand may {move} under these rules: {solution.rules.describe()}")
    biggest = max(abs(float(v)) for _, v, _ in values.values())
    limit = max(0.5, -(-biggest // 0.5) * 0.5)  # a round scale: the next half unit

    def paint(section: str, row: str, upcard: int, cell: ChartCell) -> _Cell:
        found = values.get((section, row, upcard))
        label = f"{chart_row_label(section, row)} v {rank_symbol(upcard)}"
        if found is None:
            return _Cell("#e0e0e0", "", f"{label}: may not {move}", (("move", ""),))
        chosen, value, row_values = found
        title = f"{label}: {chosen} {_exact(value, 6, signed=True)}\n" + _value_lines(row_values, cell.best)
        return _Cell(_diverging(float(value), limit), decimal_string(value, 2, signed=True), title,
                     (("move", chosen), ("value", fraction_string(value))))

    def legend(x: float, y: float, width: float) -> tuple[list[Shape], float]:
        shapes: list[Shape] = [Label(x, y + 12, "Expected result per unit initial bet", 13, bold=True)]
        y += 24
        steps = 40
        bar_width = width - 40
        for k in range(steps):
            value = -limit + 2 * limit * (k + 0.5) / steps
            shapes.append(Box(x + 20 + k * bar_width / steps, y, bar_width / steps + 0.3, 16, _diverging(value, limit)))
        for value in (-limit, -limit / 2, 0.0, limit / 2, limit):
            tx = x + 20 + (value + limit) / (2 * limit) * bar_width
            shapes.append(Line(tx, y + 16, tx, y + 21, "#000000", 0.8))
            shapes.append(Label(tx, y + 33, f"{value:+.2f}" if value else "0", 10, anchor="middle"))
        y += 40
        for line in wrap("Red: the move loses on average; blue: it wins. Grey: not allowed here.", width,
                         _TEXT_SIZE):
            shapes.append(Label(x, y + 12, line, _TEXT_SIZE))
            y += _LINE
        return shapes, y

    what = "the best move" if move == "best" else {"stand": "standing", "hit": "hitting", "double": "doubling",
                                                      "split": "splitting", "surrender": "surrendering"}[move]
    notes = ["Per unit initial bet, given a hand of the row (each of its two-card hands weighted by its chance); "
             "with a ten or ace up and the dealer peeking, given no dealer natural. Hover a cell (SVG) for "
             "every move's exact value."]
    return _chart_layout(chart, f"Expected value of {what}: {solution.rules.describe()}", notes, paint, legend)


# --- the round's result distribution ------------------------------------------------------------------------


def _result_label(value: mpq) -> str:
    return f"{int(value):+d}" if value.denominator == 1 and value else ("0" if not value else
                                                                         "+" * (value > 0) + fraction_string(value))


def _small_percent(p: mpq) -> str:
    """A probability as a percentage people can read, small ones to two significant digits."""
    if p >= mpq(1, 100) or not p:
        return _percent(p, 2)
    places = 1 - math.floor(math.log10(float(p) * 100))  # two significant digits, no exponent
    return _percent(p, places)


def result_distribution_figure(solution: GameSolution) -> Drawing:
    """The distribution of a round's net result (units per unit initial bet) as bars.

    One bar per result in :attr:`GameSolution.distribution` (-8 .. +8 and a natural's
    payout), in order of the result; its height is the exact probability (class ``bar``,
    ``data-result``, ``data-p`` exact "p/q"). The caption gives the mean and standard
    deviation. Needs the distribution (see :func:`~bjexact.player.game.solve_game`: on a
    finite shoe where pairs are split, ``split_lines=True``).
    """
    distribution = solution.distribution
    variance = solution.variance
    if distribution is None or variance is None:
        why = solution.distribution_missing or "it was not computed (with_distribution=False)"
        raise BjexactError(f"no distribution of the net result to draw: {why}")
    results = sorted(distribution)
    gap, plot_height = 8, 300
    plot_width = max(len(results) * 38 + gap, 620)
    bar = (plot_width - gap) / len(results) - gap  # 30 pixels for the 18 results of splits to 4 hands, wider for fewer
    axis_left = _MARGIN + 52
    width = axis_left + plot_width + _MARGIN
    mean = solution.ev
    mean_text = decimal_string(mean, 6, signed=True)
    if len(fraction_string(mean)) <= 40:
        mean_text += f" (= {fraction_string(mean)})"
    notes = [f"Mean {mean_text}, standard deviation {float(variance) ** 0.5:.6f}, variance "
             f"{decimal_string(variance, 6)} units per unit initial bet (house edge {_percent(-mean, 4)}).",
             "Optimal composition-dependent play. Bar labels: probability; hover a bar (SVG) for its exact value."]
    shapes, top = _heading(f"Net result of a round: {solution.rules.describe()}", notes, width)
    highest = max(distribution.values())
    scale_top = -(-float(highest) // 0.1) * 0.1  # the next 10%
    ticks = round(scale_top / 0.1)
    # room above the scale for the vertical labels of bars near its top
    headroom = max(text_width(_small_percent(p), 9) + 8 - (1 - float(p) / scale_top) * plot_height
                   for p in distribution.values())
    top += max(12.0, headroom)
    bottom = top + plot_height
    for k in range(ticks + 1):
        y = bottom - plot_height * k / ticks
        shapes.append(Line(axis_left - 4, y, axis_left + plot_width, y, "#dddddd" if k else "#000000", 0.8))
        shapes.append(Label(axis_left - 7, y + 4, f"{10 * k}%", 10, anchor="end"))
    shapes.append(Label(_MARGIN + 10, (top + bottom) / 2, "probability", _TEXT_SIZE, anchor="middle", vertical=True))
    for i, result in enumerate(results):
        p = distribution[result]
        x = axis_left + gap + i * (bar + gap)
        height = float(p) / scale_top * plot_height
        fill = "#0072b2" if result > 0 else ("#999999" if result == 0 else "#d55e00")
        shapes.append(Box(x, bottom - height, bar, height, fill, None,
                          f"net result {_result_label(result)}: P = {_exact(p, 9)}",
                          (("result", fraction_string(result)), ("p", fraction_string(p))), role="bar"))
        shapes.append(Label(x + bar / 2 + 3.5, bottom - height - 4, _small_percent(p), 9, vertical=True))
        shapes.append(Label(x + bar / 2, bottom + 15, _result_label(result), 10 if result.denominator == 1 else 9,
                            anchor="middle", bold=True))
    shapes.append(Label(axis_left + plot_width / 2, bottom + 34,
                        "net result, units per unit initial bet (red: a loss, grey: a push, blue: a win)",
                        _TEXT_SIZE, anchor="middle"))
    return Drawing(width, bottom + 34 + _MARGIN, shapes, "Net result of a round")
