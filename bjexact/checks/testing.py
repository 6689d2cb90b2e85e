"""Assertion helpers for other projects' test suites, in the style of ``numpy.testing``.

    from bjexact.checks.testing import assert_dealer_table_matches
    from bjexact import Rules

    def test_my_dealer_table():
        assert_dealer_table_matches(my_float_table(), Rules(decks=6))   # {upcard: {outcome: p}}

Each helper returns ``None`` when the values agree with the exact ones and raises
``AssertionError`` otherwise, with a message that names the offending cells, the exact
values (as decimals and fractions) and the errors. ``actual`` may be a table as text (any
layout :mod:`bjexact.checks.verify` reads), a path to such a file, or values in memory: floats
are compared with ``rtol``/``atol`` (or ``max_ulps``) as ``numpy.testing.assert_allclose``
does, printed decimals within half a unit of their last digit.

Up-cards in mappings may be ``1``/``11``/``"A"`` for the ace and ``10``/``"T"``/``"J"``... for
ten-valued cards; player states are ``(total, soft, upcard)`` tuples.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.cards import parse_rank
from ..core.rules import Rules
from ..errors import BjexactError
from ..player.states import player_states
from . import simcheck
from .dealer_tables import Tolerance, check_dealer_table
from .messages import format_cell
from .player_tables import MOVES, VALUE_BLOCKS, PlayerCell, PrintedPlayerTable, check_player_table, read_player_table
from .printed import dealer_table_from_values, float_number, parse_number, read_dealer_table
from .rounds import assert_round_simulator_matches

__all__ = [
    "assert_dealer_table_matches",
    "assert_policy_matches",
    "assert_values_match",
    "assert_simulator_matches",
    "assert_gym_blackjack_matches",
    "assert_round_simulator_matches",
]

MAX_LISTED = 20


def _rules(rules: Rules | None, options: Mapping[str, Any]) -> Rules:
    if rules is not None and options:
        raise TypeError("give either rules or decks/h17/naturals, not both")
    return rules if rules is not None else Rules(**options)


def _text_of(actual: Any) -> str | None:
    if isinstance(actual, os.PathLike):
        with open(actual, encoding="utf-8-sig") as handle:
            return handle.read()
    if isinstance(actual, str):
        if "\n" not in actual and os.path.isfile(actual):
            with open(actual, encoding="utf-8-sig") as handle:
                return handle.read()
        return actual
    return None


def _listing(lines: Sequence[str]) -> str:
    shown = list(lines[:MAX_LISTED])
    if len(lines) > MAX_LISTED:
        shown.append(f"... and {len(lines) - MAX_LISTED} more")
    return "\n".join("  " + line for line in shown)


def assert_dealer_table_matches(
    actual: Any,
    rules: Rules | None = None,
    *,
    columns: Sequence[str] = ("17", "18", "19", "20", "21", "bust"),
    scale: str = "auto",
    rtol: float = 1e-9,
    atol: float = 1e-15,
    max_ulps: int | None = None,
    **rule_options: Any,
) -> None:
    """Assert that a dealer table equals the exact one for ``rules`` (or ``decks=``, ``h17=``, ``naturals=``).

    ``actual``: text or a path (any layout), a mapping ``{upcard: {outcome: value}}``, or a
    sequence of rows in the order 2..9, T, A with the values of ``columns``.
    """

    rules = _rules(rules, rule_options)
    text = _text_of(actual)
    try:
        if text is not None:
            table = read_dealer_table(text, scale=scale)
        else:
            if hasattr(actual, "tolist"):  # a numpy array
                actual = actual.tolist()
            table = dealer_table_from_values(actual, columns, scale="probability" if scale == "auto" else scale)
    except BjexactError as exc:
        raise AssertionError(f"cannot read the dealer table: {exc}") from None
    check = check_dealer_table(table, rules, Tolerance(rtol=rtol, atol=atol, max_ulps=max_ulps))
    if check.consistent:
        return
    bad = check.inconsistent_cells
    lines = [format_cell(r, c).replace(f"line {r.row.line}, ", "" if text is None else f"line {r.row.line}, ")
             for r, c in bad]
    raise AssertionError(
        f"dealer table differs from the exact values for {rules.describe()} in {len(bad)} of "
        f"{len(check.cells)} cells:\n{_listing(lines)}"
    )


def _upcard(key: Any) -> int:
    """The up-card of a key: ``1``/``11``/``"A"``, ``2``..``9``, ``10``/``"T"``/``"J"``... (:func:`parse_rank`)."""

    if isinstance(key, bool):
        raise BjexactError(f"{key!r} is not an up-card")
    return parse_rank(str(key))


def _player_cells(actual: Any, kind: str, block: str):
    cells = []
    if callable(actual) and not isinstance(actual, Mapping):

        items = [((h.total, h.soft, u), actual(h.total, h.soft, u)) for h in player_states() for u in range(1, 11)]
    else:
        items = list(actual.items())
    for n, (key, value) in enumerate(items, start=1):
        try:
            total, soft, upcard = key
            upcard = _upcard(upcard)
        except (TypeError, ValueError, BjexactError):
            raise AssertionError(f"states are (total, soft, upcard) tuples, not {key!r}") from None
        label = f"{'soft' if soft else 'hard'} {total}"
        column = "A" if upcard == 1 else ("T" if upcard == 10 else str(upcard))
        if kind == "policy":
            move = value if value in ("hit", "stand") else MOVES.get(str(value).strip().lower())
            if isinstance(value, bool):
                move = "hit" if value else "stand"
            if move is None:
                raise AssertionError(f"{label} v {column}: {value!r} is not a move (H/S, hit/stand, True = hit)")
            cells.append(PlayerCell(n, label, column, int(total), bool(soft), upcard, "policy", move=move))
        else:
            number = parse_number(value) if isinstance(value, str) else float_number(float(value))
            if number is None:
                raise AssertionError(f"{label} v {column}: {value!r} is not a number")
            cells.append(PlayerCell(n, label, column, int(total), bool(soft), upcard, block, number=number))
    return PrintedPlayerTable(kind, tuple(cells), "<values>")


def _player_assert(actual: Any, kind: str, rules: Rules, objective: str, tolerance, block: str,
                   blocks: Sequence[str]) -> None:
    text = _text_of(actual)
    try:
        table = (read_player_table(text, kind, blocks=blocks) if text is not None
                 else _player_cells(actual, kind, block))
        check = check_player_table(table, rules, objective=objective, tolerance=tolerance)
    except BjexactError as exc:
        raise AssertionError(str(exc)) from None
    if check.consistent:
        return
    lines = []
    for c in check.inconsistent_cells:
        cell = c.cell
        where = (f"line {cell.line}, " if text is not None else "") + f"{cell.row} v {cell.column}"
        if kind == "policy":
            assert c.stand is not None and c.hit is not None  # a policy cell of a reachable state
            lines.append(f"{where}: actual {cell.move}, best {c.exact_move} (stand {float(c.stand):.6f}, "
                         f"hit {float(c.hit):.6f})")
        else:
            assert cell.number is not None and c.exact is not None and c.error is not None  # a value cell
            lines.append(f"{where} ({cell.block}): actual {cell.number.text}, exact {float(c.exact):.10f} "
                         f"(= {c.exact.numerator}/{c.exact.denominator}), error {float(c.error):+.3g}")
    what = "the policy differs" if kind == "policy" else "the values differ"
    raise AssertionError(f"{what} from the exact solution for {rules.describe()} in "
                         f"{len(lines)} of {len(check.cells)} cells:\n{_listing(lines)}")


def assert_policy_matches(
    actual: Any, rules: Rules | None = None, *, objective: str = "ev", **rule_options: Any
) -> None:
    """Assert that a hit/stand policy is optimal in every state it gives (infinite deck).

    ``actual``: a grid as text or a path, a mapping ``{(total, soft, upcard): move}`` with
    moves ``"H"``/``"S"``/``"hit"``/``"stand"`` (or ``True`` for hit), or a callable
    ``policy(total, soft, upcard) -> move`` asked about every state.
    """

    rules = _rules(rules, rule_options or {"decks": "inf"})
    _player_assert(actual, "policy", rules, objective, Tolerance(), "policy", ())


def assert_values_match(
    actual: Any,
    rules: Rules | None = None,
    *,
    block: str = "value",
    blocks: Sequence[str] = (),
    objective: str = "ev",
    rtol: float = 1e-9,
    atol: float = 1e-15,
    max_ulps: int | None = None,
    **rule_options: Any,
) -> None:
    """Assert that values per state equal the exact ones (infinite deck).

    ``actual``: value tables as text or a path (``blocks`` names untitled blocks), or a
    mapping ``{(total, soft, upcard): value}`` of the values of ``block``: ``"stand"``,
    ``"hit"`` or ``"value"`` (the optimal value).
    """

    if block not in VALUE_BLOCKS:
        raise ValueError(f"block must be one of {VALUE_BLOCKS}, not {block!r}")
    rules = _rules(rules, rule_options or {"decks": "inf"})
    _player_assert(actual, "values", rules, objective, Tolerance(rtol=rtol, atol=atol, max_ulps=max_ulps),
                   block, blocks)


def assert_simulator_matches(
    dealer_outcome: Callable[[int, Any], Any],
    rules: Rules | None = None,
    *,
    rounds: int | None = None,
    seed: int = 0,
    alpha: float | None = None,
    **rule_options: Any,
) -> None:
    """Assert that a dealer simulator passes :func:`bjexact.checks.simcheck.check_dealer_simulator`.

    The protocol is that of :mod:`bjexact.checks.simcheck`: ``dealer_outcome(upcard, rng)``. A
    correct simulator fails with probability at most ``alpha`` (default 0.01); with a fixed
    ``seed`` the outcome is reproducible.
    """

    rules = _rules(rules, rule_options)
    try:
        check = simcheck.check_dealer_simulator(
            dealer_outcome, rules, rounds=rounds or simcheck.DEFAULT_ROUNDS, seed=seed,
            alpha=simcheck.DEFAULT_ALPHA if alpha is None else alpha,
        )
    except BjexactError as exc:
        raise AssertionError(f"the simulator cannot be checked: {exc}") from None
    if not check.passed:
        raise AssertionError("the simulator's dealer disagrees with the exact distribution:\n"
                             + simcheck.format_simulator_check(check, shift=None))


def assert_gym_blackjack_matches(
    env: Any = None, policy: Any = "stick20", *, episodes: int = 20_000, seed: int = 0,
    alpha: float | None = None,
) -> None:
    """Assert that a gymnasium Blackjack environment agrees with the exact values under ``policy``."""

    check = simcheck.check_gym_blackjack(policy, episodes=episodes, seed=seed, env=env,
                                         alpha=simcheck.DEFAULT_ALPHA if alpha is None else alpha)
    if not check.passed:
        raise AssertionError(simcheck.format_gym_check(check))
