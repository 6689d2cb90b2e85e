"""Reports for people: a LaTeX document (compiled to PDF when TeX is present) and a Markdown page.

A report holds, for one rule set: the rules and conventions; the dealer's table
as decimals and as exact fractions; for the infinite deck the absorbing-chain
matrices T, B and N R of up-card 6; the full game (the house edge, by up-card, the
basic strategy chart and, where computed, the distribution of a round's result); the
effect of each common rule on the house edge (:mod:`bjexact.render.effects`); the
hit/stand game (the player's best moves and the values of standing and hitting); the
effects of removal; diagrams (:mod:`bjexact.render.diagrams`); and a short method
section. It is built once as a :class:`bjexact.render.document.Document` and rendered
as Markdown, as LaTeX and as one self-contained HTML page. The text of ``report.md`` and
``report.tex`` depends only on the rules (never on the machine or the date) and on whether
Graphviz's ``dot`` is installed (without it the diagrams are replaced by a note naming them), so
the reference reports in the repository can be checked for staleness by regenerating them.

The slow sections are enclosed in marker comments (:data:`SUMMARY_BEGIN`, :data:`GAME_BEGIN`,
:data:`EFFECTS_BEGIN`, :data:`PLAYER_BEGIN` and their ends) so that the rest of a report can be
compared on its own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core.cards import rank_symbol
from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules, Rules
from ..dealer.distributions import dealer_table
from ..dealer.matrices import dealer_matrices
from ..errors import BjexactError
from ..files import text_bytes, write_atomically
from ..player import game as game_module
from ..player.game import GameSolution, solve_game
from ..player.outcomes import RESULTS
from ..player.policy import ChartPolicy, evaluate_chart
from ..player.solver import FiniteSolution, InfiniteSolution, solve
from .diagrams import DEALER_STAGES, PLAYER_STAGES, PRINT, dealer_diagram, have_dot, player_diagram
from .diagrams import render as render_diagram
from .document import (
    FIGURES,
    Block,
    Bullets,
    Code,
    Document,
    Figure,
    Heading,
    Marker,
    Math,
    Paragraph,
    TableBlock,
    Values,
    paragraph,
    table_is_wide,
    to_latex,
    to_markdown,
)
from .effects import RuleEffects, remember_house_edge, rule_effects
from .figures import CHART_COLOURS, ev_heatmap_figure, result_distribution_figure, strategy_chart_figure
from .game import CHART_LEGEND, chart_tables
from .html import to_html
from .memory import Memory
from .svg import Drawing
from .symbolic import report_blocks, report_title
from .tables import NumberStyle, Table, dealer_tables, decimal_string, player_tables

__all__ = [
    "REFERENCE_SETS",
    "PLAYER_BEGIN",
    "PLAYER_END",
    "GAME_BEGIN",
    "GAME_END",
    "EFFECTS_BEGIN",
    "EFFECTS_END",
    "EFFECTS_FILE",
    "SUMMARY_BEGIN",
    "SUMMARY_END",
    "rules_in_words",
    "Figure",
    "Report",
    "build_report",
    "game_rules",
    "report_document",
    "report_markdown",
    "report_latex",
    "write_report",
    "compile_latex",
    "write_reference",
]

# The reference rule sets of reports/: directory name -> rules.
REFERENCE_SETS: tuple[tuple[str, Rules], ...] = (
    ("infinite-s17", Rules(decks="inf")),
    ("infinite-h17", Rules(decks="inf", h17=True)),
    ("1-deck-s17", Rules(decks=1)),
    ("2-decks-s17", Rules(decks=2)),
    ("6-decks-s17", Rules(decks=6)),
    ("8-decks-s17", Rules(decks=8)),
)
SUMMARY_BEGIN = "summary: begin"
SUMMARY_END = "summary: end"
PLAYER_BEGIN = "player analysis: begin"
PLAYER_END = "player analysis: end"
GAME_BEGIN = "full game: begin"
GAME_END = "full game: end"
EFFECTS_BEGIN = "effect of each rule: begin"
EFFECTS_END = "effect of each rule: end"
EFFECTS_FILE = "rule-effects.json"
MATRIX_UPCARD = 6
_SOURCE_DATE = "1767225600"  # 2026-01-01: PDFs carry this date, so that they are reproducible


@dataclass(frozen=True)
class Report:
    """Everything a report shows.

    ``solution``: the hit/stand game, ``game``: the full game; either is ``None`` when
    left out (``game_error`` says why when the full game cannot be dealt from the shoe).
    """

    rules: Rules
    objective: str
    dealer: Any
    chain: Any
    solution: Any
    figures: tuple[Figure, ...]
    symbolic: tuple[Block, ...] = ()
    game: GameSolution | None = None
    game_error: str = ""
    full_rules: GameRules | None = None
    """The full game's rules (every option of ``bjexact edge``); ``None``: :func:`game_rules` of ``rules``."""
    chart_game: GameSolution | None = None
    """The full game played by its total-dependent basic strategy chart (the edge published tables quote)."""
    game_figures: tuple[Figure, ...] = ()
    """The full game's figures (:class:`~bjexact.render.svg.Drawing`): the value heat map, the distribution."""
    effects: RuleEffects | None = None
    """The house edge with each common rule changed (:mod:`bjexact.render.effects`); ``None``: left out."""
    spread: SpreadStandIn | None = None
    """Where the full game's variance is not computed (resplits on a finite shoe): the spread split once."""
    effects_left_out: bool = False
    """The effect of each rule was left out on request (``--no-rule-effects``, which the regenerate line repeats)."""

    @property
    def game_rules(self) -> GameRules:
        return self.full_rules if self.full_rules is not None else game_rules(self.rules)


@dataclass(frozen=True)
class SpreadStandIn:
    """The spread of a round where the report's rules resplit on a finite shoe, so that following every line
    of the split hands is beyond the work limit (:data:`bjexact.player.game.SPLIT_WORK_LIMIT`): the exact
    variance of the round with pairs split once instead (``split_once``, per unit initial bet squared), and,
    to show what resplitting does to it, the infinite deck's variance split once and as the rules say."""

    split_once: mpq
    infinite_split_once: mpq
    infinite: mpq
    split_hands: int

    def words(self) -> str:
        """The standard deviation with pairs split once, and what resplitting does to it on the infinite deck."""
        return (f"standard deviation {decimal_string(_sqrt(self.split_once), 4)} units with pairs split once (exact "
                f"for these rules but one split: on a finite shoe the lines of hands resplit to {self.split_hands} "
                f"are too many to follow; on the infinite deck resplitting takes it from "
                f"{decimal_string(_sqrt(self.infinite_split_once), 4)} to {decimal_string(_sqrt(self.infinite), 4)} "
                "units)")


def game_rules(rules: Rules) -> GameRules:
    """The full game's rules of a report: its shoe, H17/S17 and payout; everything else the
    defaults of :class:`GameRules` (double any two, DAS, split to 4 hands, no RSA, one card to
    split aces, no surrender, peek, CDZ-)."""
    if rules.shoe is not None:
        return GameRules(shoe=rules.shoe, h17=rules.h17, bj_pays=rules.bj_pays)
    return GameRules(decks=rules.decks, h17=rules.h17, bj_pays=rules.bj_pays)


def build_report(rules: Rules, objective: str = "ev", *, player: bool = True,
                 progress: bool | None = None, full_rules: GameRules | None = None, effects: bool = True) -> Report:
    """Compute what a report shows. ``player=False`` leaves out the slow sections, the summary,
    the full game and the hit/stand game (for finite shoes they take seconds each); ``effects=False``
    the effect of each rule (one solve of the full game per rule changed). ``full_rules``:
    the full game's rules (default :func:`game_rules` of ``rules``); its shoe, H17 and payout
    must be those of ``rules``."""
    full = full_rules if full_rules is not None else game_rules(rules)
    if (full.decks, full.shoe, full.h17, full.bj_pays) != (rules.decks, rules.shoe, rules.h17, rules.bj_pays):
        raise BjexactError("the full game's shoe, H17 and payout must be the report's")

    dealer = dealer_table(rules)
    chain = dealer_matrices(rules, MATRIX_UPCARD) if rules.infinite else None
    solution = _solved_hit_stand(rules, objective, progress=progress) if player else None
    game, chart_game, game_error = None, None, ""
    if player:
        try:
            # on a finite shoe the split hands' lines are followed (split_lines): exact where pairs are split
            # once; with resplits the work bound is reached at once and the distribution given up
            game = _solved_game(full, split_lines=not rules.infinite, progress=progress)
            chart_game = evaluate_chart(full, ChartPolicy.of_solution(game), with_distribution=False,
                                        progress=progress)
        except BjexactError as exc:
            game_error = str(exc)
    figures = _diagram_figures(rules, objective)
    game_figures = []
    if game is not None:
        game_figures.append(Figure("ev-heatmap", "The value of the best move of each chart cell, per unit initial "
                                   "bet (its two-card hands weighted by their chances).", ev_heatmap_figure(game),
                                   landscape=True))
        if game.distribution is not None:
            game_figures.append(Figure("distribution", "The net result of a round, per unit initial bet: each "
                                       "bar is its exact chance.", result_distribution_figure(game), landscape=True))
    changed = rule_effects(full, base_edge=-game.ev, progress=progress) if game is not None and effects else None
    stand_in = (spread_stand_in(full, progress=progress)
                if game is not None and game.variance is None and full.split_hands > 2 else None)
    return Report(rules, objective, dealer, chain, solution, tuple(figures), report_blocks(rules), game, game_error,
                  full_rules, chart_game, tuple(game_figures), changed, stand_in, effects_left_out=not effects)


def spread_stand_in(rules: GameRules, *, progress: bool | None = None) -> SpreadStandIn | None:
    """The exact spread of a round of ``rules`` with pairs split once instead (see :class:`SpreadStandIn`);
    ``None`` where even that is beyond the work limit."""
    once = replace(rules, split_hands=2, rsa=False)
    variance = _solved_game(once, split_lines=True, progress=progress).variance
    if variance is None:
        return None
    infinite, infinite_once = (replace(r, shoe=None, decks="inf") for r in (rules, once))
    return SpreadStandIn(variance, _variance(infinite_once), _variance(infinite), rules.split_hands)


def _variance(rules: GameRules) -> mpq:
    variance = _solved_game(rules, split_lines=False, progress=False).variance
    assert variance is not None  # the infinite deck's distribution is always exact
    return variance


def _solved_game(rules: GameRules, *, split_lines: bool, progress: bool | None = None) -> GameSolution:
    """:func:`~bjexact.player.game.solve_game` of ``rules`` with the distribution of the net result, the
    last few remembered for the next reports of the process (a report of rules split to four hands and one
    of the same rules split once, or the same report again, solve the same games). Keyed by the rules,
    ``split_lines`` and the work limit in force, which decides whether the split hands' lines are followed.
    Its house edge is noted for the effect of each rule (:func:`~bjexact.render.effects.house_edge`): a
    report of other rules that changes one rule to these does not solve the game again."""
    solution = _GAMES.recall((rules, split_lines, game_module.SPLIT_WORK_LIMIT),
                             lambda: solve_game(rules, with_distribution=True, split_lines=split_lines,
                                                progress=progress))
    remember_house_edge(rules, -solution.ev)
    return solution


_GAMES: Memory[tuple[GameRules, bool, int], GameSolution] = Memory(8)


def _solved_hit_stand(rules: Rules, objective: str, *,
                      progress: bool | None = None) -> InfiniteSolution | FiniteSolution:
    """:func:`~bjexact.player.solver.solve` of the hit/stand game, the last few remembered like the full
    games of :func:`_solved_game` (reports of the same rules with other full-game rules, or the same report
    again, solve the same hit/stand game; the infinite deck's solves are remembered by the solver itself)."""
    return _HIT_STAND.recall((rules, objective), lambda: solve(rules, objective, progress=progress))


_HIT_STAND: Memory[tuple[Rules, str], InfiniteSolution | FiniteSolution] = Memory(8)


_CONTINUES = "dashed: hands whose own edges are in another of these diagrams"
_BUNDLES = "k × p: k edges of p each, to the states the dot fans out to"


def _diagram_figures(rules: Rules, objective: str) -> list[Figure]:
    """The report's diagrams, each on a turned page and cut in stages (:data:`DEALER_STAGES`,
    :data:`PLAYER_STAGES`) so that every label prints at 6 pt or more: the dealer's chain from
    up-cards 6 and A, and (infinite deck) the player's hit chain against a 6."""
    shoe = rules.make_shoe()
    figures = []
    for upcard in (6, 1):
        if not shoe.has(upcard):
            continue
        symbol = rank_symbol(upcard)
        what = ("every state; edges: P(next state | state), exact" if rules.infinite else
                "hands merged by (total, soft), each with the chance of reaching it; an edge's label (4 places) is "
                "the average of P(next state | hand) over the hands merged, weighted by the chance of reaching "
                "each; the merged chain is not Markov, so multiplying these averages does not give the dealer "
                "table")
        for stage, words in DEALER_STAGES.items():
            graph = dealer_diagram(rules, [upcard], stage=stage, look=PRINT)
            if not any(edge.get("label") for edge in graph.get_edges()):
                continue
            name = f"dealer-{symbol}" + ("" if stage == "opening" else f"-{stage}")
            figures.append(Figure(name, f"The dealer's chain from up-card {symbol}, {words} ({what}; {_BUNDLES}; "
                                        f"{_CONTINUES}).", graph, landscape=True))
    if rules.infinite:
        for stage, words in PLAYER_STAGES.items():
            name = "player-6" + ("" if stage == "hard" else "-" + stage.replace(" ", "-"))
            figures.append(Figure(name, f"The player's hit chain against up-card 6 in the hit/stand game, under "
                                        f"the best play, {words}: each state with its best move and value; edges "
                                        f"(P(next state | hit), exact) leave the states where hitting is best "
                                        f"({_BUNDLES}; {_CONTINUES}).",
                                  player_diagram(rules, 6, objective=objective, stage=stage, look=PRINT),
                                  landscape=True))
    return figures


# --- the document -----------------------------------------------------------------------


def _title(report: Report) -> str:
    return f"Exact blackjack: {rules_in_words(report.game_rules)}"


def rules_in_words(rules: GameRules) -> str:
    """The rules as players say them: ``6 decks, H17, 3:2, peek, DAS, split to 4 hands, late surrender``."""
    shoe = rules.describe().split(",")[0]
    words = [shoe, "H17" if rules.h17 else "S17", fraction_string(rules.bj_pays).replace("/", ":"),
             "peek" if rules.hole_card == "peek" else "ENHC" + (", OBO" if rules.obo else "")]
    if rules.double != "any" or not rules.double_soft:
        words.append(f"double {rules.double}" + ("" if rules.double_soft else ", not soft"))
    words.append("DAS" if rules.das else "no DAS")
    words.append("no splitting" if rules.split_hands < 2 else f"split to {rules.split_hands} hands")
    words += ["RSA"] if rules.rsa else []
    words += ["hit split aces"] if rules.hit_split_aces else []
    words += [f"{rules.surrender} surrender"] if rules.surrender != "none" else []
    words += ["double after hitting"] if rules.double_after_hit else []
    words += [f"{rules.charlie}-card Charlie"] if rules.charlie is not None else []
    words += [rules.split_strategy.upper()] if rules.split_strategy != "cdz" else []
    return ", ".join(words)


_NATURALS = {
    "as21": "A dealer natural (ace and ten-valued card as the first two cards) counts as a final 21, "
            "and a player natural is simply a 21.",
    "separate": "A dealer natural is its own outcome, 'blackjack'; the 21 column holds 21s of three or more "
                "cards. A player natural is not played: it wins the blackjack payout, or pushes against "
                "a dealer natural.",
    "peek": "The dealer checks for a natural first: the dealer table and the player's values are "
            "conditioned on the dealer not holding a natural (the A and T rows are renormalised).",
}


def _shoe_words(rules: Rules) -> str:
    if rules.shoe is None:
        return f"{rules.describe().split(',')[0]} of 52 cards"
    return f"A shoe of {sum(rules.shoe)} cards (A,2,...,9,T: {','.join(map(str, rules.shoe))})"


def _conventions(rules: Rules, objective: str) -> list[Paragraph]:
    if rules.infinite:
        shoe = paragraph("The infinite deck: every card is drawn with replacement, so aces and 2 to 9 each have "
                         "probability ", Math(r"1/13"), " and ten-valued cards ", Math(r"4/13"),
                         ", whatever has been dealt.")
    else:
        shoe = paragraph(f"{_shoe_words(rules)}, drawn without replacement. A dealer row is "
                         "conditioned on the up-card alone (it has left the shoe). The player's values are "
                         "composition-dependent: the player's cards and the up-card have left the shoe, and the "
                         "dealer's hole card is one of the unseen cards.")
    dealer = ("The dealer hits soft 17 (H17) and stands on hard 17 and on 18 or more." if rules.h17 else
              "The dealer draws to 16 and stands on every 17 (S17), soft or hard.")
    value = ("Values are expected results per unit bet: +1 for a win, 0 for a push, -1 for a loss."
             if objective == "ev" else
             "Values of the hit/stand game are the chance of winning, a push counted as half a win; the "
             "full game's are expected results per unit initial bet.")
    return [
        shoe,
        paragraph(dealer),
        paragraph("An ace counts 11 unless that would take the hand over 21; at most one ace counts 11."),
        paragraph("Dealer tables and the hit/stand game: " + _NATURALS[rules.naturals]),
        paragraph("The player is analysed twice: in the full game (doubling, splitting; the house edge and "
                  "the basic strategy chart), and in the hit/stand game, where the player may only hit or "
                  "stand (no doubling, splitting, insurance or surrender); going over 21 loses at once, before "
                  "the dealer plays."),
        paragraph(value),
        paragraph("Every number is computed as an exact fraction; decimals are rounded (half away from zero) "
                  "only when printed."),
    ]


def _method(rules: Rules) -> list[Paragraph]:
    finite = not rules.infinite
    return [
        paragraph("The dealer's play is a directed acyclic graph: its start states are the up-cards, its absorbing "
                  "states the outcomes 17 to 21 and bust, and every other state a hand still drawing"
                  + (" (for a finite shoe, the multiset of the dealer's cards, since the chance of the next card "
                     "depends on which cards are gone)" if finite else " (its total and whether it is soft)")
                  + ". Each edge carries the exact chance of the card or cards that take it."),
        paragraph("The absorption probabilities are solved exactly over the rationals in topological order; in "
                  "matrix form, with ", Math("T"), " the transitions among the drawing states and ", Math("R"),
                  " those into the outcomes, ", Math(r"N = (I - T)^{-1}"), " and ", Math("NR"), " gives ",
                  Math(r"P(\text{outcome} \mid \text{state})"), ", whose start row is the dealer-table row."),
        paragraph("The player's decisions are solved by backward induction: the value of standing compares the "
                  "player's total with the dealer's outcome distribution"
                  + (" computed for exactly the cards left (once per multiset of the player's cards)" if finite
                     else "")
                  + "; the value of hitting averages the best values of the next states, a bust losing at once. "
                  "Because drawing always raises the hard sum, the recursion is finite and exact. The full game "
                  "adds doubling (one card, twice the stake) and splitting, whose hands are played by the "
                  "CDZ- strategy: each split hand is played as a two-card hand would be, given the cards "
                  "removed before the split."),
        paragraph("Conditioning: a dealer row is ", Math(r"P(\text{outcome} \mid \text{up-card})"),
                  "; a player value is conditioned on the player's cards and the up-card"
                  + (" (and on no dealer natural under 'peek')" if rules.naturals == "peek" else "")
                  + ". The values of a round from the deal are unconditional."),
    ]


def _rule_flags(report: Report) -> str:
    rules, full = report.rules, report.game_rules
    flags = ["--decks inf" if rules.infinite else f"--decks {rules.decks}" if rules.shoe is None else
             "--shoe " + ",".join(map(str, rules.shoe))]
    if rules.h17:
        flags.append("--h17")
    if rules.naturals != "as21":
        flags.append(f"--naturals {rules.naturals}")
    if rules.bj_pays != mpq(3, 2):
        flags.append(f"--bj-pays {fraction_string(rules.bj_pays)}")
    flags += full.rule_options()
    if report.effects_left_out:
        flags.append("--no-rule-effects")
    return " ".join(flags)


def _short_state(state: str) -> str:
    """``hard 12`` -> ``h12``, ``soft 15`` -> ``s15``: matrix headers stay narrow."""
    kind, _, total = state.partition(" ")
    return {"hard": "h", "soft": "s"}.get(kind, kind) + total if total else f"up {state}"


def _table(table: Table, style: NumberStyle, size: str = "small", **options: Any) -> TableBlock:
    """A table that gets a landscape page only when it is too wide for a portrait one."""
    return TableBlock(table, style, size=size, wide=table_is_wide(table, style, size), **options)


def _dealer_blocks(report: Report) -> list[Block]:
    decimal = NumberStyle(decimals=4, percent=True)
    exact = NumberStyle(exact=True)
    return [
        Heading("The dealer's final outcome"),
        paragraph("Each row is ", Math(r"P(\text{final outcome} \mid \text{up-card})"),
                  ", first as percentages rounded to 4 places, then exactly."),
        _table(dealer_tables(report.dealer, decimal)[0], decimal, notes=_dealer_note(report.rules)),
        _table(dealer_tables(report.dealer, exact)[0], exact, "footnotesize", notes=_dealer_note(report.rules)),
    ]


def _dealer_note(rules: Rules) -> tuple[Paragraph, ...]:
    """What a dealer row is conditioned on, and what a dealer natural counts as."""
    if rules.naturals == "peek":
        return (paragraph("Rows are ", Math(r"P(\text{outcome} \mid \text{up-card}, \text{no dealer natural})"),
                          ": the dealer has peeked (A and T rows renormalised)."),)
    natural = ("a dealer natural counts as a final 21" if rules.naturals == "as21" else
               "a dealer natural is the outcome 'blackjack', not a 21")
    return (paragraph("Rows are ", Math(r"P(\text{outcome} \mid \text{up-card})"), f"; {natural}."),)


def _chain_blocks(report: Report) -> list[Block]:
    chain = report.chain
    blocks: list[Block] = [Heading("The dealer's absorbing chain")]
    if chain is None:
        return blocks + [paragraph(
            "For a finite shoe the chain's states are the multisets of the dealer's cards (hundreds per "
            "up-card); ", Code("bjexact matrix --decks N --upcard 6 --format json"), " prints ", Math("T"), ", ",
            Math("R"), ", ", Math("B"), ", ", Math("N"), " and ", Math("NR"), " exactly.")]
    exact = NumberStyle(exact=True)
    states = list(chain.transient)
    short = [_short_state(s) for s in states]
    up = rank_symbol(MATRIX_UPCARD)
    return blocks + [
        paragraph("States: ", Code("up 6"), " is the up-card alone, ", Code("h12"), " hard 12, ", Code("s15"),
                  " soft 15. ", Math("T"), " is strictly upper triangular in this order; ",
                  Math(r"N = (I - T)^{-1}"), "."),
        _table(Table("", ["from/to", *short], [[s, *row] for s, row in zip(short, chain.T)]), exact, "footnotesize",
               caption=(Math("T"), f" for up-card {up}: ", Math(r"P(\text{next state} \mid \text{state})"),
                        " among the drawing states (row: from, column: to)")),
        _table(Table("", ["state", "B"], [[s, b] for s, b in zip(short, chain.B)]), exact, "footnotesize",
               caption=(Math("B"), f" for up-card {up}: ", Math(r"P(\text{bust on the next card} \mid \text{state})"))),
        _table(Table("", ["state", *chain.absorbing], [[s, *row] for s, row in zip(short, chain.absorption)]),
               exact, "footnotesize",
               caption=(Math("NR"), f" for up-card {up}: ", Math(r"P(\text{final outcome} \mid \text{state})"),
                        "; the first row is the dealer-table row")),
    ]


def _percent(value: mpq, places: int = 6, signed: bool = True) -> str:
    return f"{decimal_string(value * 100, places, signed=signed)}%"


def _game_blocks(report: Report) -> list[Block]:
    rules = report.game_rules
    blocks: list[Block] = [
        Marker(GAME_BEGIN),
        Heading("The full game"),
        paragraph("The full game is played under these rules:"),
        Bullets(tuple(paragraph(line) for line in _game_rules_words(rules))),
    ]
    game = report.game
    if game is None:
        text = (f"The full game cannot be dealt from this shoe: {report.game_error}." if report.game_error
                else "(left out)")
        return blocks + [paragraph(text), Marker(GAME_END)]
    percent = NumberStyle(decimals=6, percent=True, signed=True)
    edge = -game.ev
    blocks += [
        paragraph(("The house edge is " if edge >= 0 else "The game favours the player: the house edge is ")
                  + f"{_percent(edge, 6, signed=False)} of the initial bet. The expected result of a round, dealt "
                  "from the full shoe and played by the best composition-dependent strategy (CDZ- after splits), "
                  f"is {_percent(game.ev)} per unit initial bet. Exactly:"),
        Values((("expected result", game.ev), ("house edge", edge))),
        _table(Table("Expected result by up-card", ["up-card", "chance", "expected result (%)"],
                     [[rank_symbol(u), fraction_string(game.upcard_chance[u]), percent.plain(game.by_upcard[u])]
                      for u in game.by_upcard]), percent,
               notes=(paragraph("Per unit initial bet, dealer naturals included; weighted by the up-card's "
                                "chance they sum to the round's expected result."),)),
        _table(Table("How rounds go", ["round", "chance (%)", "exactly"],
                     [[what, _percent(p, 4, signed=False), fraction_string(p)]
                      for what, p in game.move_chances.items()]), NumberStyle(),
               notes=(paragraph("A natural is settled at once (the dealer peeks under a ten or an ace); "
                                "otherwise the chance that the first decision is each move."),)),
    ]
    variance = game.variance
    if game.distribution is not None and variance is not None:
        blocks += [
            _table(Table("Net result of a round", ["net result", "chance (%)"],
                         [[_result_label(r), _percent(p, 6, signed=False)] for r, p in game.distribution.items()]),
                   NumberStyle(),
                   notes=(paragraph("Per unit initial bet: a double or a split can win or lose several units. "
                                    "The exact chances: ", Code("bjexact edge --format json"), "."),)),
            paragraph(f"The variance of a round's net result is {decimal_string(variance, 6)} squared units "
                      f"(standard deviation {decimal_string(_sqrt(variance), 6)} units), per unit initial bet; "
                      "exactly:"),
            Values((("variance", variance),)),
        ]
    else:
        blocks.append(paragraph(
            "The distribution of a round's net result (and so its variance) is not computed for these rules: on a "
            "finite shoe the split hands share the cards left, so every line of their play must be followed, "
            f"which resplitting to {rules.split_hands} hands takes beyond the work limit. ", Code("bjexact edge "
            "--distribution"), " computes it where pairs are split once. The expected values above are "
            "exact all the same."))
        if report.spread is not None:
            once = report.spread.split_once
            blocks += [paragraph(f"With pairs split once and every other rule the same, the variance is "
                                 f"{decimal_string(once, 6)} squared units (standard deviation "
                                 f"{decimal_string(_sqrt(once), 6)} units), per unit initial bet; exactly:"),
                       Values((("variance, split once", once),))]
    blocks.append(paragraph(
        "Every two-card hand's best move (composition-dependent: the hand's own cards have left the shoe), "
        "as a chart code: the move the code names first is the best. The chart on the first page gives each "
        "row the move with the largest expected value summed over the two-card hands of its row, each "
        "weighted by its chance; ", Code("bjexact hand CARD CARD --upcard U"), " prints every move's value."))
    by_hand, exceptions = chart_tables(game, by_hand=True)
    blocks.append(_table(Table("Best move of every two-card hand", by_hand.columns, by_hand.rows), NumberStyle(),
                         "footnotesize", notes=(), centred=True, colours=CHART_COLOURS))
    if exceptions.rows and exceptions.rows[0][0] != "(none)":
        blocks.append(_table(Table("Hands that play differently from their chart cell", exceptions.columns,
                                   exceptions.rows), NumberStyle(), notes=()))
    return blocks + list(report.game_figures) + [Marker(GAME_END)]


def _effects_blocks(report: Report) -> list[Block]:
    """The effect of each rule: the house edge with one common rule changed at a time."""
    blocks: list[Block] = [Marker(EFFECTS_BEGIN), Heading("Effect of each rule")]
    effects = report.effects
    if effects is None:
        return blocks + [paragraph("(left out)"), Marker(EFFECTS_END)]
    places = 4
    rows = [["these rules", _percent(effects.house_edge, places, signed=False), ""]]
    rows += [[effect.change.label, _percent(effect.house_edge, places, signed=False),
              _percent(effect.change_in_edge, places)] for effect in effects.effects]
    blocks += [
        paragraph(f"For these rules ({rules_in_words(effects.rules)}) the house edge is "
                  f"{_percent(effects.house_edge, places, signed=False)} of the initial bet. Each row below changes "
                  "one rule and keeps every other; its house edge is solved exactly in the same way (the best "
                  "composition-dependent play, dealt from the full shoe), and the change is the difference of the "
                  "two exact edges, in percent of the initial bet: positive when the change favours the house. "
                  "The exact fractions (p/q per unit initial bet) are in ", Code(EFFECTS_FILE),
                  " beside this report; ", Code("bjexact edge"), " with the row's rule options gives each edge "
                  "on its own."),
        _table(Table("The house edge with one rule changed", ["rule changed", "house edge (%)", "change (%)"],
                     rows), NumberStyle(), notes=(paragraph(
                         "Published rule-effect tables quote such changes for the basic strategy and for "
                         "a typical shoe (6 or 8 decks); these are the best play's, for this shoe and these "
                         "rules, so the two agree in sign and size, not to the last digit."),)),
    ]
    blocks += [paragraph(f"Not solved, {change.label}: {reason}.") for change, reason in effects.unsolved]
    return blocks + [Marker(EFFECTS_END)]


def _sqrt(value: mpq, places: int = 8) -> mpq:
    """The square root of ``value`` rounded down to ``places`` decimals, exactly (integer root)."""
    from math import isqrt

    scale = 10**places
    return mpq(isqrt(value.numerator * scale * scale // value.denominator), scale)


def _result_label(value: mpq) -> str:
    return fraction_string(value) if value.denominator != 1 else f"{int(value):+d}" if value else "0"


def _game_rules_words(rules: GameRules) -> list[str]:
    payout = fraction_string(rules.bj_pays).replace("/", ":")
    shoe = "the infinite deck" if rules.infinite else (
        f"{rules.decks} deck{'s' if rules.decks != 1 else ''} of 52 cards" if rules.shoe is None
        else f"a shoe of {sum(rules.shoe)} cards")
    hole = ("The dealer peeks under a ten or an ace: a dealer natural takes the initial bet only; a player "
            "natural against it pushes." if rules.hole_card == "peek" else
            "No hole card (ENHC): the dealer's second card comes after the player's play; a dealer natural takes "
            + ("the initial bet only (OBO)." if rules.obo else "every bet, doubles and splits included."))
    double = {"any": "any two cards", "9-11": "totals 9 to 11", "10-11": "totals 10 and 11"}[rules.double]
    double += "" if rules.double_soft else " (not soft totals)"
    aces = ("aces may be resplit" if rules.rsa else "split aces are not resplit") + (
        " and may be hit" if rules.hit_split_aces else " and get one card each (a split ace and a ten is 21, "
        "not a natural)")
    split = ("No splitting." if rules.split_hands < 2 else
             f"Split any pair, to {rules.split_hands} hands" + (f"; {aces}." if rules.split_hands > 2 or
                                                                  rules.hit_split_aces else f"; {aces}."))
    surrender = {"none": "No surrender", "late": "Late surrender (after the peek)",
                 "early": "Early surrender (before the dealer checks for a natural)"}[rules.surrender]
    strategy = {"cdz": "CDZ-: as the best composition-dependent two-card play, given the cards gone before "
                       "the split",
                "cdp1": "CDP1: the first split hand's optimal strategy, applied to every split hand",
                "cdp": "CDP: optimal with the other split hands' pair cards gone",
                "optimal": "perfect play: every split hand knows every card seen in the round"}[rules.split_strategy]
    return [
        f"Dealt from {shoe}; the dealer {'hits' if rules.h17 else 'stands on'} soft 17; a natural pays {payout}.",
        hole,
        f"Double down on {double}" + (", also after splitting (DAS)." if rules.das else "; not after splitting."),
        split,
        f"{surrender}; no insurance.",
        f"Split hands are played by {strategy}.",
    ]


def _summary_blocks(report: Report) -> list[Block]:
    """The first page: the rules in words, the house edge (optimal play and the basic strategy chart),
    the result's mean and standard deviation, and the colour chart."""
    rules = report.game_rules
    blocks: list[Block] = [Marker(SUMMARY_BEGIN), Heading("Summary"),
                           paragraph(f"Rules: {rules_in_words(rules)}.")]
    game = report.game
    if game is None:
        text = (f"The full game cannot be dealt from this shoe: {report.game_error}." if report.game_error
                else "(left out)")
        return blocks + [paragraph(text), Marker(SUMMARY_END)]
    edge = -game.ev
    lines = [f"House edge with the best composition-dependent play: {_percent(edge, 4, signed=False)} of the "
             "initial bet."]
    values = [("house edge", edge)]
    if report.chart_game is not None:
        chart_edge = -report.chart_game.ev
        lines.append(f"House edge playing the basic strategy chart below (as published tables quote it): "
                     f"{_percent(chart_edge, 4, signed=False)}; the chart costs "
                     f"{_percent(chart_edge - edge, 4, signed=False)}.")
        values.append(("house edge, chart", chart_edge))
    variance = game.variance
    if variance is not None:
        lines.append(f"A round's net result: mean {decimal_string(game.ev, 4, signed=True)} units, standard "
                     f"deviation {decimal_string(_sqrt(variance), 4)} units (per unit initial bet).")
    elif report.spread is not None:
        lines.append(f"A round's net result: mean {decimal_string(game.ev, 4, signed=True)} units per unit initial "
                     f"bet; {report.spread.words()}.")
        values.append(("variance, split once", report.spread.split_once))
    else:
        lines.append(f"A round's net result: mean {decimal_string(game.ev, 4, signed=True)} units per unit initial "
                     f"bet; its standard deviation is not computed here: {game.distribution_missing}.")
    blocks += [Bullets(tuple(paragraph(line) for line in lines)), paragraph("Exactly, per unit initial bet:"),
               Values(tuple(values))]
    blocks.append(paragraph("The basic strategy chart (total-dependent): " + CHART_LEGEND + "."
                            + ("" if rules.infinite else " A * marks a cell whose two-card hands disagree.")))
    for table in chart_tables(game):
        title = table.title.split(":")[0].replace("Basic strategy, ", "Basic strategy: ")
        blocks.append(_table(Table(title, table.columns, table.rows), NumberStyle(), notes=(), centred=True,
                             colours=CHART_COLOURS))
    return blocks + [Marker(SUMMARY_END)]


def _player_blocks(report: Report) -> list[Block]:
    blocks: list[Block] = [
        Marker(PLAYER_BEGIN),
        Heading("The hit/stand game: the player's best play"),
        paragraph("In the hit/stand game the player may only hit or stand: the game of the dealer tables, in which "
                  "each decision's value can be followed by hand, and the one the diagrams draw. Ties between "
                  "hitting and standing go to standing."),
    ]
    solution = report.solution
    if solution is None:
        return blocks + [paragraph("(left out)"), Marker(PLAYER_END)]
    game = solution.game
    what = "expected result per unit bet" if report.objective == "ev" else "chance of winning (push = 1/2)"
    shares = ", ".join(f"{name} {decimal_string(p * 100, 4)}%" for name, p in zip(RESULTS, game.results))
    blocks += [
        paragraph(f"The game's value from the deal ({what}) is "
                  f"{_percent(game.value, 6, signed=report.objective == 'ev')}; the player's results: {shares}. "
                  "Exactly:"),
        Values((("value", game.value),)),
    ]
    moves = NumberStyle()
    values = NumberStyle(decimals=4, percent=False, signed=report.objective == "ev")
    for table in player_tables(solution, moves, "policy"):
        left = (2,) if list(table.columns[-1:]) == ["hands"] else ()
        blocks.append(_table(_untitled(table), moves, left=left))
    for table in player_tables(solution, values, "values"):
        blocks.append(_table(_untitled(table), values, "footnotesize" if len(table.rows) > 30 else "small"))
    return blocks + [Marker(PLAYER_END)]


def _untitled(table: Table) -> Table:
    """The table without the rules after its title's colon (the report's title names them)."""
    return Table(table.title.split(": ")[0], table.columns, table.rows, table.notes)


def report_document(report: Report, *, drawn: bool = True) -> Document:
    """The report as one document, for :func:`bjexact.render.document.to_markdown` and ``to_latex``: the
    summary (first page), the full game, then the method as an appendix (conventions, the dealer's table
    and chain, the hit/stand game, removal, diagrams and how it is computed).

    ``drawn=False`` (Graphviz's ``dot`` missing): the diagrams are not shown, and a paragraph names them
    and the command that draws them, so that no file of the report refers to a figure never drawn.
    """
    rules = report.rules
    blocks: list[Block] = _summary_blocks(report) + _game_blocks(report) + _effects_blocks(report)
    blocks += [Heading("Appendix: the method"),
               paragraph("The rest of the report shows how the numbers are computed: the dealer's final outcome, "
                         "its absorbing chain (the matrices T, B, N and R), the hit/stand game the dealer tables "
                         "come from, the effects of removing cards as polynomials, and diagrams."),
               Heading("Rules and conventions"), Bullets(tuple(_conventions(rules, report.objective)))]
    blocks += _dealer_blocks(report)
    blocks += _chain_blocks(report)
    blocks += _player_blocks(report)
    if report.symbolic:
        blocks += [Heading(report_title(rules)), *report.symbolic]
    if report.figures and not drawn:
        names = ", ".join(f"{FIGURES}/{figure.name}.dot" for figure in report.figures)
        blocks += [Heading("Diagrams"),
                   paragraph("The diagrams of the dealer's chain were not drawn: Graphviz's dot program is not "
                             f"installed. Their sources are written ({names}); install Graphviz (apt-get install "
                             "graphviz, brew install graphviz), then ",
                             Code(f"bjexact report -o DIR {_rule_flags(report)}"), " draws them.")]
    elif report.figures:
        blocks += [Heading("Diagrams"),
                   paragraph("Each diagram is cut in stages, a turned page each, so that its labels print at 6 points "
                             "or more; the diagrams are vector graphics, and bjexact graph draws a chain whole."),
                   *report.figures]
    blocks += [Heading("Method"), *_method(rules),
               paragraph("Regenerate: ", Code(f"bjexact report -o DIR {_rule_flags(report)}"), ".")]
    return Document(_title(report), tuple(blocks))


def report_markdown(report: Report, *, drawn: bool = True) -> str:
    """The Markdown report; figures are ``figures/NAME.svg`` beside it (``drawn``: see :func:`report_document`)."""
    return to_markdown(report_document(report, drawn=drawn))


def report_latex(report: Report, *, drawn: bool = True) -> str:
    """The LaTeX report (article, booktabs); figures are ``figures/NAME.pdf`` beside it."""
    return to_latex(report_document(report, drawn=drawn))


def report_html(report: Report, *, drawn: bool | None = None) -> str:
    """The report as one self-contained HTML page (:mod:`bjexact.render.html`): the colour chart, the heat
    map and the other drawings inline as SVG, each exact number's fraction on hover, and the diagrams inline
    where Graphviz's ``dot`` draws them (``drawn``: default, whether it is installed)."""
    drawn = have_dot() if drawn is None else drawn
    document = report_document(report, drawn=drawn)
    blocks = list(document.blocks)
    svgs: dict[str, str | None] = {}
    if report.game is not None:  # the colour chart as a picture, after the chart's tables
        end = blocks.index(Marker(SUMMARY_END))
        chart = Figure("strategy-chart", "The basic strategy chart in colour (hover a cell: the value of each move, "
                       "exactly).", strategy_chart_figure(report.game))
        blocks.insert(end, chart)
    for block in blocks:
        if isinstance(block, Figure):
            if isinstance(block.graph, Drawing):
                svgs[block.name] = block.graph.svg()
            elif drawn:
                svgs[block.name] = render_diagram(block.graph, "svg").decode()
    return to_html(Document(document.title, tuple(blocks)), svgs)


# --- files ------------------------------------------------------------------------------


def _say(message: str, quiet: bool) -> None:
    if not quiet:
        import sys

        print(message, file=sys.stderr)


def write_report(report: Report, directory: Path, *, compile_pdf: bool = True, quiet: bool = False,
                 shown_as: Path | None = None) -> list[Path]:
    """Write report.md, report.html, report.tex, the figures and (with TeX) report.pdf into ``directory``.

    Without Graphviz the diagrams are written as .dot only, and the reports say so instead of showing
    them; without TeX the .tex is written and a message says how to get a PDF. A TeX error raises
    :class:`BjexactError` naming the log. ``shown_as``: the directory the messages name (where the files
    end up, when ``directory`` is a staging folder that is moved there afterwards).
    """
    if directory.exists() and not directory.is_dir():
        raise BjexactError(f"cannot write the report into {directory}: it is a file, not a directory")
    directory.mkdir(parents=True, exist_ok=True)
    figures = directory / FIGURES
    figures.mkdir(exist_ok=True)
    written = []
    dot = have_dot()
    for figure in report.figures:
        for fmt in ("dot", "svg", "pdf") if dot else ("dot",):
            path = figures / f"{figure.name}.{fmt}"
            write_atomically(path, render_diagram(figure.graph, fmt))
            written.append(path)
    for figure in report.game_figures:  # drawings: SVG, and PDF where matplotlib is installed
        for fmt in ("svg", "pdf"):
            try:
                data = figure.graph.render(fmt)
            except BjexactError:
                _say(f"note: figures/{figure.name}.pdf needs matplotlib (pip install 'bjexact[plot]')", quiet)
                continue
            write_atomically(figures / f"{figure.name}.{fmt}", data)
            written.append(figures / f"{figure.name}.{fmt}")
    if not dot and report.figures:
        _say("note: Graphviz's 'dot' is not installed: the diagrams are written as .dot only and the reports "
             "say so (apt-get install graphviz, brew install graphviz), then run the report again", quiet)
    if report.effects is not None:
        data = json.dumps(report.effects.to_json(), indent=2) + "\n"
        write_atomically(directory / EFFECTS_FILE, text_bytes(data))
        written.append(directory / EFFECTS_FILE)
    texts = (("report.md", report_markdown(report, drawn=dot)), ("report.html", report_html(report, drawn=dot)),
             ("report.tex", report_latex(report, drawn=dot)))
    for name, text in texts:
        write_atomically(directory / name, text_bytes(text))
        written.append(directory / name)
    if compile_pdf:
        pdf = compile_latex(directory / "report.tex", quiet=quiet, shown_as=shown_as)
        if pdf is not None:
            written.append(pdf)
    return written


def _tex_command() -> list[str] | None:
    if shutil.which("latexmk"):
        return ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", "-quiet"]
    if shutil.which("pdflatex"):
        return ["pdflatex", "-interaction=nonstopmode", "-halt-on-error"]
    return None


def compile_latex(tex: Path, *, quiet: bool = False, shown_as: Path | None = None) -> Path | None:
    """Compile ``tex`` (with its figures/) in a temporary directory; the PDF lands beside it.

    Returns the PDF's path, or ``None`` when no TeX is installed (with a message naming ``tex`` in
    ``shown_as``, its folder once the report is in place, when given).
    """
    command = _tex_command()
    if command is None:
        folder = shown_as if shown_as is not None else tex.parent
        _say(f"note: no latexmk or pdflatex: {folder / tex.name} is written; for a PDF install TeX Live "
             f"(apt-get install texlive-latex-recommended latexmk) and run 'latexmk -pdf {tex.name}' "
             f"in {folder}", quiet)
        return None
    env = dict(os.environ, SOURCE_DATE_EPOCH=_SOURCE_DATE, FORCE_SOURCE_DATE="1")
    with tempfile.TemporaryDirectory(prefix="bjexact-tex-") as tmp:
        work = Path(tmp)
        shutil.copy(tex, work / tex.name)
        if (tex.parent / FIGURES).is_dir():
            shutil.copytree(tex.parent / FIGURES, work / FIGURES)
        runs = 1 if command[0] == "latexmk" else 2  # pdflatex: twice, for the references
        for _ in range(runs):
            done = subprocess.run([*command, tex.name], cwd=work, env=env, capture_output=True,
                                  stdin=subprocess.DEVNULL, check=False)
            if done.returncode != 0:
                log = tex.with_suffix(".log")
                produced = work / log.name
                if produced.exists():
                    shutil.copy(produced, log)
                raise BjexactError(f"LaTeX failed on {tex.name}: {_first_error(log)} (log: {log})")
        pdf = tex.with_suffix(".pdf")

        write_atomically(pdf, (work / pdf.name).read_bytes())
    return pdf


def _first_error(log: Path) -> str:
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return "no log was written"
    for line in lines:
        if line.startswith("!"):
            return line.lstrip("! ").strip()
    return "see the log"


# --- the reference set ------------------------------------------------------------------


def reference_texts(rules: Rules, *, player: bool = True, effects: bool = True) -> dict[str, str]:
    """The Markdown and LaTeX of one reference report (no files written); ``effects=False`` leaves out
    the effect of each rule but keeps the reference reports' regenerate line (a check of the rest)."""
    report = replace(build_report(rules, player=player, progress=False, effects=effects), effects_left_out=False)
    return {"report.md": report_markdown(report), "report.tex": report_latex(report)}


def index_markdown(reports: Sequence[tuple[str, Report]], *, pdf: bool = True) -> str:
    """The index page of the reference reports: one line per rule set (``pdf``: with a column of PDFs)."""

    columns = ["rules", "page", "Markdown", "LaTeX", *(["PDF"] if pdf else []), "house edge, full game",
               "hit/stand game value"]
    lines = [
        "# Reference reports",
        "",
        "Exact dealer tables, absorbing-chain matrices, the full game's house edge and basic strategy, the",
        "player's best hit/stand play and diagrams for the reference rule sets (naturals as21, values +1 win,",
        "0 push, -1 loss; the full game: 3:2, double any two, DAS, split to 4 hands, peek). Regenerate them",
        "all with `bjexact report --reference reports/`; a test fails when they are stale.",
        "",
        "| " + " | ".join(columns) + " |",
        "|" + "|".join(":---" if k < len(columns) - 2 else "---:" for k in range(len(columns))) + "|",
    ]
    for slug, report in reports:
        edge = f"{decimal_string(-report.game.ev * 100, 4)}%" if report.game is not None else ""
        value = (f"{decimal_string(report.solution.game.value * 100, 4, signed=True)}%"
                 if report.solution is not None else "")
        links = [f"[{name}]({slug}/{name})" for name in ("report.html", "report.md", "report.tex",
                                                          *(["report.pdf"] if pdf else []))]
        lines.append(f"| {report.rules.describe()} | " + " | ".join(links) + f" | {edge} | {value} |")
    return "\n".join(lines) + "\n"


def write_reference(directory: Path, *, compile_pdf: bool = True, quiet: bool = False,
                    progress: bool | None = None, announce: Callable[[str], None] | None = None,
                    shown_as: Path | None = None) -> list[Path]:
    """Regenerate every reference report under ``directory`` and its index page (``shown_as``: as in
    :func:`write_report`)."""

    written = []
    reports = []
    for slug, rules in REFERENCE_SETS:
        if announce:
            announce(f"{slug}: {rules.describe()}")
        report = build_report(rules, progress=progress)
        written += write_report(report, directory / slug, compile_pdf=compile_pdf, quiet=quiet,
                                shown_as=None if shown_as is None else shown_as / slug)
        reports.append((slug, report))
    index = directory / "index.md"
    write_atomically(index, text_bytes(index_markdown(reports, pdf=compile_pdf and _tex_command() is not None)))
    return [*written, index]
