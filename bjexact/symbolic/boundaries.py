"""Decision boundaries in the ten density: exact real algebraic numbers where hit and stand swap.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ..core.cards import RANKS, rank_symbol
from ..core.choice import hit_or_stand
from ..core.hand import HandValue, add_card
from ..core.numbers import as_rational, fraction_string, mpq
from ..core.rules import Rules
from ..errors import BjexactError
from ..player.outcomes import payoffs, stand_results
from .models import STANDARD_TEN_DENSITY, CardModel, ten_density_model
from .polys import poly_parts
from .table import check_rules, substitution_text, symbolic_dealer_table

__all__ = ["AlgebraicNumber", "Piece", "DecisionBoundaries", "decision_boundaries"]

# --- decision boundaries in the ten density --------------------------------------------------
#
# For one hit/stand decision of the infinite deck, the values are piecewise polynomials in t:
# V = max(stand, hit) switches polynomial where a later decision flips. They are built by
# backward induction over the player's hands (by decreasing hard sum), with every breakpoint
# an exact real algebraic number: an irreducible polynomial over QQ and a rational interval
# isolating one of its roots. All comparisons and signs are decided exactly (by refining
# intervals and counting roots), never by floating point.


@dataclass(frozen=True)
class AlgebraicNumber:
    """The only root of the irreducible ``poly`` (a sympy ``Poly`` over QQ) in ``[lo, hi]``.

    ``lo == hi`` means the rational number ``lo`` (``poly`` then has degree 1).
    """

    poly: Any
    lo: Any
    hi: Any

    @property
    def is_rational(self) -> bool:
        return self.lo == self.hi

    def refined(self, eps: Any) -> AlgebraicNumber:
        """The same number with an isolating interval narrower than ``eps``."""
        if self.is_rational or self.hi - self.lo < eps:
            return self
        lo, hi = self.poly.refine_root(self.lo, self.hi, eps=eps)
        return AlgebraicNumber(self.poly, lo, hi)

    def index(self) -> int:
        """Its position among the real roots of ``poly`` (0 = the smallest), as in ``CRootOf``."""
        return 0 if self.is_rational else int(self.poly.count_roots(None, self.lo))

    def integer_poly(self) -> Any:
        """``poly`` with coprime integer coefficients (the same roots)."""
        return self.poly.clear_denoms(convert=True)[1].primitive()[1]

    def expression(self) -> str:
        """``p/q`` for a rational, else ``CRootOf(poly, k)`` with integer coefficients (sympy reads
        either back exactly)."""
        if self.is_rational:
            return str(self.lo)
        return f"CRootOf({self.integer_poly().as_expr()}, {self.index()})"

    def decimals(self, digits: int) -> str:
        """The first ``digits`` decimals, truncated, each one certain (the interval is refined until
        both ends agree on them)."""
        from sympy import floor

        scale = 10**digits
        number = self
        for _ in range(10 * digits + 200):
            low, high = floor(number.lo * scale), floor(number.hi * scale)
            if low == high or number.is_rational:
                text = str(int(low)).rjust(digits + 1, "0")
                return f"{text[:-digits]}.{text[-digits:]}"
            number = number.refined((number.hi - number.lo) / 16)
        raise BjexactError("could not separate the root from a decimal boundary")  # pragma: no cover

    def bounds(self) -> tuple[mpq, mpq]:
        return as_rational(self.lo), as_rational(self.hi)


def _less(a: AlgebraicNumber, b: AlgebraicNumber) -> bool:
    """``a < b`` exactly."""
    return _order(a, b) < 0


@cache
def _order(a: AlgebraicNumber, b: AlgebraicNumber) -> int:
    """-1, 0 or 1 as ``a`` is below, equal to or above ``b`` (memoised: refinements are not cheap)."""
    if a.is_rational and b.is_rational:
        return (a.lo > b.lo) - (a.lo < b.lo)
    if a.poly == b.poly and not (a.hi < b.lo or b.hi < a.lo):
        # each interval isolates one root of the same polynomial: equal iff they share it
        lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
        if a.poly.count_roots(lo, hi):
            return 0
    while not (a.hi < b.lo or b.hi < a.lo):
        width = max(a.hi - a.lo, b.hi - b.lo) / 4
        a, b = a.refined(width), b.refined(width)
    return -1 if a.hi < b.lo else 1


def _between(left: AlgebraicNumber | None, right: AlgebraicNumber | None) -> Any:
    """A rational strictly between ``left`` and ``right`` (``None``: 0 and 1), which must differ."""
    from sympy import Rational

    while True:
        a = Rational(0) if left is None else left.hi
        b = Rational(1) if right is None else right.lo
        if a < b:
            q = (a + b) / 2
            if (left is None or _compare_rational(q, left) > 0) and (
                right is None or _compare_rational(q, right) < 0
            ):
                return q
        if left is not None:
            left = left.refined((left.hi - left.lo) / 4)
        if right is not None:
            right = right.refined((right.hi - right.lo) / 4)


@cache
def _compare_rational(q: Any, x: AlgebraicNumber) -> int:
    """The sign of ``q - x`` for a rational ``q``."""
    if x.is_rational:
        return (q > x.lo) - (q < x.lo)
    if not x.poly.eval(q):
        return 0
    while x.lo <= q <= x.hi:
        x = x.refined((x.hi - x.lo) / 4)
    return 1 if q > x.hi else -1


def _sign_changes(poly: Any) -> list[AlgebraicNumber]:
    """The points of (0, 1) where ``poly`` changes sign: its roots of odd multiplicity, sorted."""
    from sympy import Rational

    if poly.is_zero:
        return []
    points = []
    for factor, multiplicity in poly.factor_list()[1]:
        if multiplicity % 2 == 0 or factor.degree() < 1:
            continue
        factor = factor.monic()
        for (lo, hi), _ in factor.intervals(inf=0, sup=1):
            x = AlgebraicNumber(factor, Rational(lo), Rational(hi))
            if x.is_rational and x.lo in (0, 1):
                continue
            if not x.is_rational and factor.degree() == 1:  # a rational root: make it exact
                root = -factor.nth(0) / factor.nth(1)
                x = AlgebraicNumber(factor, root, root)
            if x.is_rational and x.lo in (0, 1):
                continue
            points.append(x)
    return _sorted_points(points)


def _sorted_points(points: list[AlgebraicNumber]) -> list[AlgebraicNumber]:
    import functools

    unique: list[AlgebraicNumber] = []
    for x in sorted(points, key=functools.cmp_to_key(_order)):
        if not unique or _order(unique[-1], x) != 0:
            unique.append(x)
    return unique


@dataclass(frozen=True)
class Piece:
    """On ``left < t < right`` (``None``: 0 or 1) the best move is ``best`` and the value ``value``."""

    left: AlgebraicNumber | None
    right: AlgebraicNumber | None
    best: str
    value: Any  # sympy Poly in t (scaled by the row's common denominator)
    hit: Any
    stand: Any


def _find_piece(pieces: list[Piece], q: Any) -> Piece:
    for piece in pieces:
        if piece.right is None or _compare_rational(q, piece.right) < 0:
            return piece
    raise AssertionError("unreachable: the pieces cover (0, 1)")  # pragma: no cover


@dataclass(frozen=True)
class DecisionBoundaries:
    """Where the best move of one infinite-deck decision flips as the ten density ``t`` varies.

    ``stand`` is the value of standing and ``pieces`` the best move and the value of
    hitting on each interval of (0, 1) (hitting: one card, then the best play at that
    ``t``). ``boundaries`` are the points where the best move flips, in increasing
    order, each with the moves below and above. Values are rational functions of ``t``
    (polynomials unless ``peek`` conditions the A and T rows). Ties go to standing.
    """

    rules: Rules
    model: CardModel
    total: int
    soft: bool
    upcard: int
    objective: str
    denominator: Any  # sympy Poly: every value is (polynomial) / denominator
    stand: Any
    pieces: tuple[Piece, ...]

    @property
    def boundaries(self) -> tuple[tuple[AlgebraicNumber, str, str], ...]:
        found: list[tuple[AlgebraicNumber, str, str]] = []
        for before, after in zip(self.pieces, self.pieces[1:], strict=False):
            if before.best != after.best:
                assert before.right is not None  # only the last piece reaches t = 1
                found.append((before.right, before.best, after.best))
        return tuple(found)

    def label(self) -> str:
        return f"{'soft' if self.soft else 'hard'} {self.total} v {rank_symbol(self.upcard)}"

    def value_string(self, poly: Any) -> str:
        """A value as a string sympy parses back: ``poly / denominator``."""
        if self.denominator.as_expr() == 1:
            return str(poly.as_expr())
        return f"({poly.as_expr()})/({self.denominator.as_expr()})"

    def at(self, t: Any) -> tuple[mpq, mpq]:
        """(stand, hit) at a rational ``t`` in (0, 1) that is not a breakpoint."""
        from sympy import Rational

        q = Rational(int(as_rational(t).numerator), int(as_rational(t).denominator))
        piece = _find_piece(list(self.pieces), q)
        d = self.denominator.eval(q)
        return as_rational(self.stand.eval(q) / d), as_rational(piece.hit.eval(q) / d)

    def to_json(self, digits: int = 15) -> dict[str, Any]:
        from sympy import Rational

        standard = self.at(Rational(fraction_string(STANDARD_TEN_DENSITY)))
        return {
            "rules": self.rules.to_json(),
            "variable": self.model.variables[0],
            "substitution": substitution_text(self.model),
            "hand": {"total": self.total, "soft": self.soft, "upcard": rank_symbol(self.upcard)},
            "objective": self.objective,
            "stand": self.value_string(self.stand),
            "pieces": [
                {"from": None if p.left is None else p.left.expression(),
                 "to": None if p.right is None else p.right.expression(),
                 "best": p.best, "hit": self.value_string(p.hit)}
                for p in self.pieces
            ],
            "boundaries": [
                {"root": x.expression(), "interval": [fraction_string(b) for b in narrow_root(x, digits).bounds()],
                 "decimal": x.decimals(digits), "below": below, "above": above}
                for x, below, above in self.boundaries
            ],
            "standard": {"stand": fraction_string(standard[0]), "hit": fraction_string(standard[1])},
        }


def narrow_root(x: AlgebraicNumber, digits: int) -> AlgebraicNumber:
    from sympy import Rational

    return x.refined(Rational(1, 10**digits))


def decision_boundaries(
    rules: Rules, total: int, soft: bool, upcard: int, *, variable: str = "t", objective: str = "ev"
) -> DecisionBoundaries:
    """Stand and hit values of (``total``, ``soft``) against ``upcard`` as functions of the ten density,
    and the exact points of (0, 1) where the best move flips (infinite deck)."""
    from sympy import QQ, Poly, Symbol, lcm


    check_rules(rules)
    if soft and not 12 <= total <= 21 or not soft and not 4 <= total <= 21:
        raise BjexactError(f"no such hand: {'soft' if soft else 'hard'} {total} (hard 4-21, soft 12-21)")
    if upcard not in RANKS:
        raise BjexactError(f"unknown up-card {upcard!r}")
    model = ten_density_model(variable)
    table = symbolic_dealer_table(rules, model, [upcard])
    row = table[upcard]
    t = Symbol(variable)
    weights = payoffs(rules, objective)

    def as_poly(element):
        numer, denom = poly_parts(element)
        poly = Poly(numer.as_expr(), t, domain=QQ)
        return poly, (Poly(1, t, domain=QQ) if denom is None else Poly(denom.as_expr(), t, domain=QQ))

    # the common denominator of the row (1 except for the A and T rows under peek); it is positive on (0, 1)
    denominator = Poly(1, t, domain=QQ)
    for cell in row.values():
        denominator = Poly(lcm(denominator.as_expr(), as_poly(cell)[1].as_expr()), t, domain=QQ)

    def scaled(element) -> Any:
        poly, denom = as_poly(element)
        factor, remainder = denominator.div(denom)
        assert remainder.is_zero
        return poly * factor

    def stand_value(hand: HandValue) -> Any:
        results = stand_results(hand.total, row, blackjack_loses=rules.naturals != "peek")
        return scaled(sum((w * r for w, r in zip(weights, results, strict=True) if r), model.domain.zero))

    probabilities = [Poly((1 - t) / 9, t, domain=QQ)] * 9 + [Poly(t, t, domain=QQ)]
    bust = Poly(weights[3], t, domain=QQ) * denominator
    start = HandValue(total, soft)
    reachable = {start}
    frontier = [start]
    while frontier:
        hand = frontier.pop()
        for rank in RANKS:
            new = add_card(hand, rank)
            if not new.bust and new not in reachable:
                reachable.add(new)
                frontier.append(new)
    values: dict[HandValue, list[Piece]] = {}
    for hand in sorted(reachable, key=lambda h: h.total - (10 if h.soft else 0), reverse=True):
        stand = stand_value(hand)
        children = [None if add_card(hand, r).bust else values[add_card(hand, r)] for r in RANKS]
        cuts = _sorted_points([p.right for c in children if c for p in c if p.right is not None])
        pieces: list[Piece] = []
        for left, right in zip([None, *cuts], [*cuts, None], strict=True):
            q = _between(left, right)
            hit = Poly(0, t, domain=QQ)
            for p, child in zip(probabilities, children, strict=True):
                hit += p * (bust if child is None else _find_piece(child, q).value)
            roots = [x for x in _sign_changes(hit - stand)
                     if (left is None or _less(left, x)) and (right is None or _less(x, right))]
            for a, b in zip([left, *roots], [*roots, right], strict=True):
                difference = hit - stand
                sample = _between(a, b)
                while not difference.is_zero and not difference.eval(sample):  # a root of even multiplicity
                    sample = _between(a, AlgebraicNumber(difference, sample, sample))
                best = hit_or_stand(stand.eval(sample), hit.eval(sample))
                pieces.append(Piece(a, b, best, hit if best == "hit" else stand, hit, stand))
        values[hand] = _merge(pieces)
    return DecisionBoundaries(rules, model, total, soft, upcard, objective, denominator,
                              stand_value(start), tuple(values[start]))


def _merge(pieces: list[Piece]) -> list[Piece]:
    """Join neighbouring pieces with the same best move and the same polynomials."""
    merged: list[Piece] = []
    for piece in pieces:
        last = merged[-1] if merged else None
        if last and last.best == piece.best and last.hit == piece.hit and last.stand == piece.stand:
            merged[-1] = Piece(last.left, piece.right, last.best, last.value, last.hit, last.stand)
        else:
            merged.append(piece)
    return merged
