"""``bjexact sweep``: a grid of rule sets solved exactly on a Dask cluster, and the rule-effects table."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import BjexactError
from ..files import text_bytes
from .common import add_output_options, bounded_int, check_output_files, check_workers, number_style, write_outputs

EXAMPLES = """\
grid file (TOML): [base] holds the rules every rule set shares, [grid] one list per rule
varied; the first value of each list is the base's. Rule names are those of the full
game (decks, shoe, h17, bj_pays, double, double_soft, das, split_hands, rsa,
hit_split_aces, surrender, hole_card, obo, split_strategy, double_split_aces,
double_after_hit, charlie; charlie = [false, 5]: no Charlie, then a 5-card Charlie):

  [base]
  decks = 6
  split_hands = 2
  [grid]
  h17 = [false, true]
  bj_pays = ["3/2", "6/5"]
  das = [true, false]
  surrender = ["none", "late"]

examples:
  bjexact sweep rules.toml                       # local cluster, one worker process per core
  bjexact sweep rules.toml --effects-only        # the base and each single change: 5 solves, not 16
  bjexact sweep rules.toml --workers 2 --rows out.csv --format md
  bjexact sweep rules.toml --scheduler tcp://10.0.0.5:8786   # an existing Dask cluster
  bjexact sweep rules.toml --serial              # no Dask: this process only

Writes one row per rule set to --rows (default: the grid file's name with .csv; .parquet
needs pyarrow): the rules, the exact expected result "p/q" with its percentage, the
same per up-card, the variance (empty where it is not computed: finite shoes with
splits). Prints the rule-effects table: the exact house edge of the base and the change
each single rule change makes to it (percentage points; positive favours the house).
Each result is stored under its content hash in --store (default: the grid file's name
with .store/) as soon as it is computed: an interrupted sweep resumes, a repeated one
costs nothing. Rule sets the engine refuses (late surrender with enhc, ...) are skipped
and counted. JSON: {"base", "base_house_edge", "effects": [{"rule", "value", "house_edge",
"effect"}], "rule_sets", "computed", "stored"}, exact "p/q" strings.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "sweep", help="a grid of rule sets solved exactly (Dask), and the rule-effects table",
        description="Solve a grid of rule sets exactly, in parallel on Dask, and tabulate what each rule is worth.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("grid", metavar="GRID.toml", help="the grid of rule sets")
    parser.add_argument("--effects-only", action="store_true",
                        help="solve the base and each single change only, not the whole grid")
    parser.add_argument("--rows", default=None, metavar="FILE.csv|FILE.parquet",
                        help="where to write one row per rule set (default: GRID.csv)")
    parser.add_argument("--store", default=None, metavar="DIR", help="the results store (default: GRID.store/)")
    where = parser.add_argument_group("execution")
    where.add_argument("--workers", type=bounded_int(1, 10**6), default=None, metavar="N",
                       help="worker processes of the local cluster (default: one per core)")
    where.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="use the Dask cluster at ADDRESS (tcp://HOST:PORT) instead of a local one")
    where.add_argument("--serial", action="store_true", help="solve in this process, without Dask")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..apps.sweep import (
        ResultStore,
        RunStats,
        effects,
        load_grid,
        result_rows,
        rules_from_json,
        run_tasks,
        scheduler_address,
        task_key,
    )
    from ..core.numbers import fraction_string
    from ..core.rules import GameRules
    from ..render.tables import NumberStyle, Table, render

    check_workers(args)
    if args.scheduler is not None and args.workers:
        raise BjexactError("--workers sizes the local cluster: an existing cluster (--scheduler) has its own")
    scheduler = scheduler_address(args.scheduler) if args.scheduler is not None else None
    grid_path = Path(args.grid)
    grid = load_grid(grid_path)
    refused: list = []
    if args.effects_only:
        points = grid.effect_points()
    else:
        points, refused = grid.points()
        points += [p for p in grid.effect_points(strict=False) if p not in points]
    rows_path = Path(args.rows) if args.rows else grid_path.with_suffix(".csv")
    check_output_files([("-o", args.output), ("--rows", str(rows_path))])  # before hours of solving, not after
    if rows_path.suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise BjexactError("writing Parquet needs pyarrow: pip install 'bjexact[parquet]'") from None
    store = ResultStore(args.store if args.store else grid_path.with_suffix(".store"))
    stats = RunStats()
    results = run_tasks(points, store=store, executor="serial" if args.serial else "dask",
                        scheduler=scheduler, workers=args.workers, progress=False if args.quiet else None,
                        stats=stats)
    by_key = {task_key(p): r for p, r in zip(points, results)}
    rows_file = _rows_file(rows_path, result_rows(points, results))

    base_edge, rows = effects(grid, by_key)
    base_rules = rules_from_json(grid.base_point())
    style = number_style(args)
    signed = NumberStyle(style.decimals, style.percent, style.exact, signed=True)
    notes = [f"{len(points)} rule sets: {stats.computed} solved on {stats.workers} worker(s), "
             f"{stats.stored} from the store {store.directory}; rows in {rows_path}"]
    if refused:
        notes.append(f"{len(refused)} rule sets of the grid skipped, refused by the engine, e.g. "
                     f"{refused[0][1]}")
    table = Table(
        f"Rule effects on the house edge ({signed.value_units}), from the base: {base_rules.describe()}",
        ["rules", "house edge", "effect"],
        [["base", base_edge, ""]] + [[e.label, e.house_edge, e.effect] for e in rows],
        notes + ["effect: the change in the house edge, " + ("percentage points of the initial bet"
                 if signed.percent and not signed.exact else signed.value_units) + "; positive favours the house"],
    )
    document = {
        "base": GameRules.to_json(base_rules),
        "base_house_edge": fraction_string(base_edge),
        "effects": [{"rule": e.rule, "value": e.value, "house_edge": fraction_string(e.house_edge),
                     "effect": fraction_string(e.effect)} for e in rows],
        "rule_sets": len(points), "computed": stats.computed, "stored": stats.stored,
        "refused": [{"rules": r, "reason": why} for r, why in refused],
    }
    write_outputs(render([table], args.format, signed, document), args.output, [rows_file])
    return 0


def _rows_file(path: Path, rows: list[dict]) -> tuple[Path, bytes]:
    """(path, the bytes of the rows file): Parquet for a .parquet path, else CSV."""
    import csv
    import io

    if path.suffix == ".parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise BjexactError("writing Parquet needs pyarrow: pip install 'bjexact[parquet]'") from None
        sink = pa.BufferOutputStream()
        pq.write_table(pa.Table.from_pylist(rows), sink)
        return path, sink.getvalue().to_pybytes()
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["key"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return path, text_bytes(buffer.getvalue())
