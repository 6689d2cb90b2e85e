"""``bjexact count indices`` and ``bjexact count betting``: a count's index numbers and betting
figures from exact solves of shoes at given true counts (many independent solves, on Dask)."""

from __future__ import annotations

import argparse
from math import floor
from pathlib import Path
from typing import Any

from ..errors import BjexactError
from .common import (
    add_output_options,
    bounded_int,
    check_workers,
    default_store,
    is_stdout,
    number_style,
    write_output,
)
from .game_options import GAME_RULES_HELP, add_game_rule_options, game_rules_from_args

INDICES_EXAMPLES = """\
examples:
  bjexact count indices --system hi-lo --decks 6
  bjexact count indices --system hi-lo --decks 6 --surrender late --convention published   # with the Fab 4
  bjexact count indices --system hi-lo --decks 6 --left 1/2          # one depth: half the shoe left
  bjexact count indices --system hi-lo --decks 1 --count-at deal --tc-rounding floor
  bjexact count indices --system zen --decks 2 --h17 --span 8 --format json
  bjexact count indices --shoe 2,2,2,2,2,2,2,2,2,8 --method exhaustive --left 23/26 --serial   # 211 shoes

Method. The count is read as counters read it: at the decision, the cards seen before the
round, the player's two cards and the up-card counted, divided by the decks unseen then
(--count-at deal: before the round). Rounds are dealt at every depth up to the cut card
(--penetration); the index averages --depths depths (the midpoints of equal parts of the cards
dealt), each count at each depth weighted by its exact chance. At a depth and a running count
the cards unseen are, with --method expectation (the default), the exact conditional mean
composition given the count (exchangeable ranks within a tag, exact generating-function sums),
which is fractional: it is solved as the mixture of at most ten integer shoes (each rank its
floor or ceiling) with that mean, exact for anything linear in the composition; one such shoe
mixture every two whole true counts, the counts between on the straight line. --method
exhaustive averages every composition with its exact chance instead (small shoes only). Each
chart cell's moves are then averaged over every depth, count and hand of the cell met at each
true count: two-card hands, and for hard 12 to 17 the hands of three or more cards held after
hitting (every card counted); the crossing is the true count where the exact value difference
of two moves is zero; the index is the crossing rounded (--tc-rounding round|floor|truncate,
the decks exact or estimated with --deck-estimate 1|1/2|1/4; --convention published: rounded,
decks to the half deck, as the published tables read). Read an index n as: from true count n
up play the higher-count move (S>=+3); H<-1: below -1 the lower-count move. A cell lists every
change within the span (--span, in true counts) and is followed at every count where it is
dealt. Surrender (with --surrender) has its own indices against the best other move; insurance
is averaged exactly over every composition at every depth (no solve). The Illustrious 18 and,
with surrender, the Fab 4 are marked * and, for Hi-Lo, listed against the published numbers.
Each integer shoe is solved once (split once by default: --split-hands 4 for resplits costs
about five times as much) and stored under its composition in --store, so a run resumes.
"""

BETTING_EXAMPLES = """\
examples:
  bjexact count betting --system hi-lo --decks 6 --penetration 0.75 --ramp=-1:1,1:2,2:4,3:8,4:12 --bank 1000
  bjexact count betting --system hi-lo --decks 2 --kelly --bank 1000 --min-bet 1 --max-bet 16
  bjexact count betting --system zen --decks 1 --split-hands 1 --ramp 0:1,2:4 --format json

Per true count t (the shoes of 'count indices', t from -span to +span): the round's exact
value and variance under the play that is best for the shoe's cards (the value a player
using every index would approach). The share of rounds at each true count is exact: a round
begins at each depth from the first card to the cut card with equal weight, and the running
count of the cards seen there is hypergeometric; the true count is floored and counts beyond
the span are pooled at its ends. With a bet ramp (--ramp t:bet,...: the bet of the largest t
at or below the count; below the first, the first bet) or the Kelly ramp (--kelly: at each
count bank x value / variance, within --min-bet and --max-bet, the minimum where the value
is not positive): win rate, SD per round, N0 = variance / win rate^2 (rounds to overcome one
standard deviation), SCORE = 10^6 / N0, and the risk of ruin of --bank units,
exp(-2 x win rate x bank / variance). Griffin's figures for the count, from the exact effects
of removing one card of each rank (11 more solves): the betting correlation (tags against
the effects on the round's value, over the 13 cards of a deck), the insurance correlation
(tags against the effects on insurance), and the playing efficiency (for every cell, the
gain of acting on the count at each depth, as a share of the gain of acting on the cell's
own effects of removal, by the normal approximation, weighted by the cell's chance).
"""


def register(subparsers) -> None:
    """Add ``indices`` and ``betting`` under ``count``."""
    indices = _subcommand(subparsers, "indices", run_indices, 10, INDICES_EXAMPLES,
                          "index numbers for every decision of the chart, from exact values at each true count",
                          "Index numbers of a count for every chart decision, from exact solves of the shoes "
                          "each true count implies, with the Illustrious 18 and Fab 4 against the published "
                          "Hi-Lo numbers.", left_default=None, store="count-indices.store")
    indices.add_argument("--penetration", default="0.75", metavar="P",
                         help="share of the shoe dealt before the cut card (default: 0.75); --left: one depth")
    indices.add_argument("--depths", type=bounded_int(1, 64), default=4, metavar="N",
                         help="depths averaged over the penetration (default: 4)")
    indices.add_argument("--method", choices=("expectation", "exhaustive"), default="expectation",
                         help="the cards unseen at a count: the expected composition (default) or every composition")
    indices.add_argument("--count-at", choices=("decision", "deal"), default="decision",
                         help="read the count at the decision (default) or before the deal")
    indices.add_argument("--convention", choices=("exact", "published"), default="exact",
                         help="exact: exact decks, crossings rounded; published: rounded, decks to the half deck")
    indices.add_argument("--tc-rounding", choices=("round", "floor", "truncate"), default=None,
                         help="how the index is read from the crossing (default: the convention's)")
    indices.add_argument("--deck-estimate", choices=("exact", "1", "1/2", "1/4"), default=None,
                         help="the decks unseen exact or to the nearest 1, 1/2 or 1/4 deck (default: the convention's)")
    betting = _subcommand(subparsers, "betting", run_betting, 6, BETTING_EXAMPLES,
                          "EV and variance by true count, win rate, SD, N0, SCORE, risk of ruin for a ramp",
                          "A count's betting figures from exact solves at each true count and the exact "
                          "frequencies of the true counts at a penetration.")
    betting.add_argument("--penetration", default="0.75", metavar="P",
                         help="share of the shoe dealt before the cut card (default: 0.75)")
    betting.add_argument("--ramp", default=None, metavar="T:BET,...",
                         help="bets by true count, e.g. --ramp=-1:1,1:2,2:4,3:8 (default: flat 1)")
    betting.add_argument("--kelly", action="store_true", help="the Kelly ramp for --bank instead of --ramp")
    betting.add_argument("--bank", default="1000", metavar="UNITS", help="the bank, in units (default: 1000)")
    betting.add_argument("--min-bet", default="1", metavar="UNITS", help="with --kelly: the smallest bet (default: 1)")
    betting.add_argument("--max-bet", default="16", metavar="UNITS", help="with --kelly: the largest bet (default: 16)")
    betting.add_argument("--no-griffin", action="store_true",
                         help="leave out the betting correlation, insurance correlation and playing efficiency")


def _subcommand(subparsers, name: str, run, span: int, examples: str, summary: str,
                description: str, left_default: str | None = "1/2",
                store: str = "count-betting.store") -> argparse.ArgumentParser:
    parser = subparsers.add_parser(name, help=summary, description=description,
                                   epilog=GAME_RULES_HELP + "\n" + examples,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.set_defaults(run=run)
    parser.add_argument("--system", default="hi-lo", metavar="hi-lo|ko|hi-opt-1|hi-opt-2|omega-2|zen|FILE",
                        help="the count system (default: hi-lo)")
    parser.add_argument("--span", type=bounded_int(1, 20), default=span, metavar="N",
                        help=f"true counts from -N to +N (default: {span})")
    parser.add_argument("--left", default=left_default, metavar="SHARE",
                        help="the share of the shoe left when the count is read"
                             + (f" (default: {left_default})" if left_default else " (one depth; default: every depth "
                                "to the cut card)"))
    parser.add_argument("--store", default=None, metavar="DIR",
                        help=f"the results store (default: bjexact/{store} in the user's cache directory, "
                             "$XDG_CACHE_HOME or else ~/.cache)")
    parser.set_defaults(store_name=store)
    add_game_rule_options(parser, split_hands_help="(default: 2 = split once; 4: resplits, slower)")
    where = parser.add_argument_group("execution")
    where.add_argument("--workers", type=bounded_int(1, 10**6), default=None, metavar="N",
                       help="worker processes of the local cluster (default: one per core; at most 4 a core)")
    where.add_argument("--scheduler", default=None, metavar="ADDRESS", help="use the Dask cluster at ADDRESS")
    where.add_argument("--serial", action="store_true", help="solve in this process, without Dask")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_output_options(parser, formats=("text", "md", "json"))
    return parser


def share(text: str, option: str):
    """A share from 0 (excluded) to 1, exactly."""
    from ..core.numbers import parse_fraction

    try:
        value = parse_fraction(text)
    except ValueError:
        value = None
    if value is None or not 0 < value <= 1:
        raise BjexactError(f"{option} must be more than 0 and at most 1 (such as 0.75 or 1/2), not {text!r}")
    return value


def _setup(args: argparse.Namespace):
    from ..counting.indices import MAX_DECKS
    from ..counting.paths import count_shoes
    from ..counting.simulation import load_system

    _store(args)
    check_workers(args)
    left = share(args.left, "--left")
    system = load_system(args.system)
    rules = game_rules_from_args(args, split_hands=2)
    if rules.infinite:
        raise BjexactError("counting needs a finite shoe: --decks N or --shoe")
    cards = sum(rules.make_shoe().counts)
    if cards > 52 * MAX_DECKS:
        raise BjexactError(f"a shoe of {cards:,} cards: betting figures are computed for at most {MAX_DECKS} decks")
    shoes = count_shoes(system, rules.make_shoe().counts, args.span, left)
    return system, rules, shoes


def _solve(args: argparse.Namespace, tasks: list[dict[str, Any]], function, kind: str, label: str):
    from ..apps.sweep import ResultStore, RunStats, run_tasks

    stats = RunStats()
    results = run_tasks(tasks, store=ResultStore(Path(args.store), kind=kind), kind=kind, function=function,
                        executor="serial" if args.serial else "dask", scheduler=args.scheduler,
                        workers=args.workers, progress=False if args.quiet else None, stats=stats, label=label)
    return results, stats


def _run_note(stats, args) -> str:
    return (f"{stats.computed} solved on {stats.workers} worker(s) in {stats.seconds:.1f} s, "
            f"{stats.stored} from the store {args.store}")


def _store(args: argparse.Namespace) -> None:
    """The results store: the one given, else its place in the user's cache directory; never the
    output file."""
    import os

    if args.store is None:
        args.store = str(default_store(args.store_name))
    output = getattr(args, "output", None)
    if output and not is_stdout(output) and os.path.realpath(output) == os.path.realpath(args.store):
        raise BjexactError(f"-o and --store name the same path {str(output)[:60]}: give each its own")


def indices_plan(args: argparse.Namespace):
    """The shoes an index run solves (every check before any work)."""
    from ..core.numbers import mpq
    from ..counting.indices import CONVENTIONS, CountConvention, depth_nodes, plan_indices
    from ..counting.systems import load_system

    check_workers(args)
    system = load_system(args.system)
    rules = game_rules_from_args(args, split_hands=2)
    if rules.infinite:
        raise BjexactError("counting needs a finite shoe: --decks N or --shoe")
    cards = sum(rules.make_shoe().counts)
    preset = CONVENTIONS[args.convention]
    if args.deck_estimate is None:
        step = preset.deck_step
    else:
        step = None if args.deck_estimate == "exact" else mpq(args.deck_estimate)
    convention = CountConvention(args.count_at, args.tc_rounding or preset.rounding, step)
    if args.left is not None:
        left = share(args.left, "--left")
        depths: tuple[int, ...] = (cards - int(floor(left * cards)),)
        insurance = depths
    else:
        penetration = share(args.penetration, "--penetration")
        depths = depth_nodes(cards, penetration, args.depths)
        insurance = depth_nodes(cards, penetration, 64)
    if not depths:
        raise BjexactError("--penetration deals no card before the cut card: a larger share")
    return plan_indices(system, rules, depths, args.span, args.method, convention, insurance_depths=insurance)


def run_indices(args: argparse.Namespace) -> int:
    from ..counting.indices import INDEX_KIND, hands_task, index_chart

    _store(args)
    plan = indices_plan(args)
    results, stats = _solve(args, plan.tasks(), hands_task, INDEX_KIND, "solving shoes")
    chart = index_chart(plan, results, progress=False if args.quiet else None)
    from ..render.tables import render
    from .count_tables import index_tables

    tables = index_tables(chart, number_style(args, percent=False), _run_note(stats, args))
    write_output(render(tables, args.format, number_style(args), chart.to_json()), args.output)
    return 0


def run_betting(args: argparse.Namespace) -> int:
    from ..core.numbers import parse_fraction
    from ..counting.betting import (
        BETTING_KIND,
        MAX_UNITS,
        betting_task,
        count_frequencies,
        griffin_figures,
        kelly_ramp,
        parse_ramp,
        ramp_figures,
        values_by_count,
        variance_within_reach,
    )
    from ..counting.paths import REMOVAL_KIND, removal_task, shoe_tasks

    def fraction(text: str, what: str):
        try:
            value = parse_fraction(text)
        except ValueError:
            raise BjexactError(f"{what} must be a number such as 1000, not {text!r}") from None
        return value

    penetration = share(args.penetration, "--penetration")
    bank, low, high = (fraction(args.bank, "--bank"), fraction(args.min_bet, "--min-bet"),
                       fraction(args.max_bet, "--max-bet"))
    if bank <= 0 or low <= 0 or high < low:
        raise BjexactError("--bank and --min-bet must be positive and --max-bet at least --min-bet")
    for option, value, text in (("--bank", bank, args.bank), ("--min-bet", low, args.min_bet),
                                ("--max-bet", high, args.max_bet)):
        if value > MAX_UNITS:
            raise BjexactError(f"{option} must be at most {MAX_UNITS:,} units, not {text[:30]}")
    if args.kelly and args.ramp:
        raise BjexactError("--kelly makes the ramp: it takes no --ramp")
    ramp = parse_ramp(args.ramp) if args.ramp else None
    system, rules, shoes = _setup(args)
    if args.kelly and not variance_within_reach(rules):
        raise BjexactError("--kelly needs the round's variance, which is not computed with resplits on a finite "
                           "shoe: --split-hands 2, or a --ramp")
    from ..counting.paths import CountShoe
    from ..counting.simulation import removal_shoes

    full = rules.make_shoe().counts
    frequencies = count_frequencies(system, full, penetration, args.span)
    results, stats = _solve(args, shoe_tasks(rules, shoes), betting_task, BETTING_KIND, "solving true counts")
    values = values_by_count([(s.true_count, r) for s, r in zip(shoes, results)], args.span)
    if args.kelly:
        ramp = kelly_ramp(values, bank, low, high)
    figures = ramp_figures(values, frequencies, ramp or {0: parse_fraction("1")}, bank)
    griffin = None
    if not args.no_griffin:
        removal = [CountShoe(0, 0, shoe, parse_fraction("0")) for shoe in removal_shoes(full)]
        removed, more = _solve(args, shoe_tasks(rules, removal), removal_task, REMOVAL_KIND, "effects of removal")
        stats.computed += more.computed
        stats.stored += more.stored
        griffin = griffin_figures(system, full, removed, penetration)
    from ..render.tables import render
    from .count_tables import betting_tables

    tables = betting_tables(system, rules, figures, griffin, number_style(args), args, _run_note(stats, args))
    document = figures.to_json() | {"system": {"name": system.name, "tags": list(system.tags)},
                                    "rules": rules.to_json(), "penetration": args.penetration,
                                    "griffin": None if griffin is None else griffin.to_json()}
    write_output(render(tables, args.format, number_style(args), document), args.output)
    return 0
