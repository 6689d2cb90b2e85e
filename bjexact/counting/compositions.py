"""The compositions a count implies: exact chances of the running count, the expected cards unseen
given it, and finite mixtures of integer shoes that stand for a composition.

Conventions
    A shoe of ``full`` cards (counts of A..T) has ``seen`` of them dealt, in random order: the
    cards seen are a uniformly random ``seen``-card subset (the cards distinguishable), so each
    composition ``d`` of the cards seen has chance ``prod C(full[r], d[r]) / C(N, seen)``
    (multivariate hypergeometric). The *running count* of the cards seen is the sum of their
    tags. Ranks a count tags alike (a *tag group*) are exchangeable given the count: given that
    ``m`` cards of a group were seen, rank ``r`` of the group is expected ``m x full[r] / full[g]``
    times. Everything here is exact (integers and ``mpq``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import ceil, comb, floor

from ..core.numbers import mpq
from ..errors import BjexactError
from .systems import CountSystem

__all__ = ["TagGroup", "tag_groups", "count_outlook", "count_chances", "expected_unseen", "ShoeMixture",
           "integer_mixture",
           "exact_mixture", "mixture_size"]


@dataclass(frozen=True)
class TagGroup:
    """The ranks (1..10) a count gives the tag ``tag``, and how many cards of them the shoe holds."""

    tag: int
    ranks: tuple[int, ...]
    cards: int


def tag_groups(system: CountSystem, full: Sequence[int]) -> tuple[TagGroup, ...]:
    """The shoe's cards grouped by tag (groups with no card left out), tags in ascending order."""
    groups: dict[int, list[int]] = {}
    for rank, (tag, n) in enumerate(zip(system.tags, full), 1):
        if n:
            groups.setdefault(tag, []).append(rank)
    return tuple(TagGroup(tag, tuple(ranks), sum(full[r - 1] for r in ranks)) for tag, ranks in sorted(groups.items()))


def _ways(groups: Sequence[TagGroup], seen: int) -> dict[int, list[int]]:
    """Running count -> [ways, ways x cards of group 0, ways x cards of group 1, ...] over the subsets
    of exactly ``seen`` cards of ``groups``, each group's cards counted with their number. The
    groups are merged one at a time, the largest last (where only the cards that make up ``seen``
    are taken)."""
    order = sorted(range(len(groups)), key=lambda g: groups[g].cards)
    states: dict[tuple[int, int], list[int]] = {(0, 0): [1] + [0] * len(groups)}
    for position, g in enumerate(order):
        group = groups[g]
        last = position == len(order) - 1
        binomials = [comb(group.cards, m) for m in range(min(group.cards, seen) + 1)]
        merged: dict[tuple[int, int], list[int]] = {}
        for (cards, count), moments in states.items():
            most = min(len(binomials) - 1, seen - cards)
            if last:  # only the cards that make up ``seen``
                taken: Sequence[int] = (seen - cards,) if seen - cards <= most else ()
            else:
                taken = range(most + 1)
            for m in taken:
                key = (cards + m, count + group.tag * m)
                b = binomials[m]
                row = merged.get(key)
                if row is None:
                    row = merged[key] = [0] * (len(groups) + 1)
                row[0] += moments[0] * b
                for i in range(1, len(groups) + 1):
                    row[i] += moments[i] * b
                row[g + 1] += moments[0] * b * m
        states = merged
    return {count: row for (cards, count), row in states.items() if cards == seen and row[0]}


def count_outlook(system: CountSystem, full: Sequence[int],
                  seen: int) -> dict[int, tuple[mpq, tuple[mpq, ...]]]:
    """Running count of ``seen`` random cards of ``full`` -> (its chance, the expected cards unseen of
    each rank A..T given that count), in one pass: the chances are exact and sum to 1; the expected
    cards are ``full[r]`` less the expected cards of rank ``r`` seen (exact conditional means; for
    each count they sum to ``N - seen``)."""
    if not 0 <= seen <= sum(full):
        raise BjexactError(f"{seen} cards seen of a shoe of {sum(full)}: at most the shoe's cards")
    groups = tag_groups(system, full)
    total = comb(sum(full), seen)
    out: dict[int, tuple[mpq, tuple[mpq, ...]]] = {}
    for count, row in sorted(_ways(groups, seen).items()):
        unseen = [mpq(n) for n in full]
        for g, group in enumerate(groups):
            seen_in_group = mpq(row[g + 1], row[0])
            for r in group.ranks:
                unseen[r - 1] -= seen_in_group * full[r - 1] / group.cards
        out[count] = (mpq(row[0], total), tuple(unseen))
    return out


def count_chances(system: CountSystem, full: Sequence[int], seen: int) -> dict[int, mpq]:
    """Running count of ``seen`` random cards of ``full`` -> its chance (:func:`count_outlook`)."""
    return {count: chance for count, (chance, _) in count_outlook(system, full, seen).items()}


def expected_unseen(system: CountSystem, full: Sequence[int], seen: int) -> dict[int, tuple[mpq, ...]]:
    """Running count of ``seen`` random cards -> the expected cards unseen given it (:func:`count_outlook`)."""
    return {count: mean for count, (_, mean) in count_outlook(system, full, seen).items()}


# --- mixtures of integer shoes --------------------------------------------------------------------


@dataclass(frozen=True)
class ShoeMixture:
    """A random shoe: ``shoes[i]`` (integer counts of A..T) with chance ``weights[i]`` (summing to 1)."""

    weights: tuple[mpq, ...]
    shoes: tuple[tuple[int, ...], ...]

    @property
    def mean(self) -> tuple[mpq, ...]:
        """The expected cards of each rank."""
        return tuple(sum((w * s[r] for w, s in zip(self.weights, self.shoes)), mpq(0)) for r in range(10))


def integer_mixture(composition: Sequence[mpq]) -> ShoeMixture:
    """Integer shoes whose mixture has the (fractional) ``composition`` as its mean, each rank's count
    its floor or its ceiling and every shoe of the same size: at most ten shoes.

    The fractional parts ``f[r]`` (they add up to a whole number ``m``) are laid end to end on
    ``[0, m)``; for an offset ``u`` in ``[0, 1)`` the shoe takes the ceiling of exactly the ranks whose
    piece holds one of ``u, u + 1, ..., u + m - 1`` (``m`` ranks: no piece is a whole unit long). As
    ``u`` runs over ``[0, 1)`` each rank is rounded up for a length ``f[r]`` of it, so the mixture
    weighted by those lengths has mean ``composition``. The treatment is exact for any value linear
    in the composition, and moves continuously with it (a rank's weight goes to 0 before its floor
    changes); where the composition is whole it is that one shoe.
    """
    floors = [int(floor(x)) for x in composition]
    parts = [mpq(x) - f for x, f in zip(composition, floors)]
    ends = []
    position = mpq(0)
    for part in parts:
        ends.append(position + part)
        position += part
    if position != int(position):
        raise BjexactError("a composition's cards must add up to a whole number")
    cuts = sorted({mpq(0)} | {e - floor(e) for e in ends})
    weights, shoes = [], []
    for i, cut in enumerate(cuts):
        length = (cuts[i + 1] if i + 1 < len(cuts) else mpq(1)) - cut
        if not length:
            continue
        middle = cut + length / 2  # every point of (cut, next cut) picks the same ranks
        shoe = list(floors)
        start = mpq(0)
        for r, end in enumerate(ends):
            # the piece [start, end) holds a point middle + j
            if end > start and floor(end - middle) >= ceil(start - middle):
                shoe[r] += 1
            start = end
        weights.append(length)
        shoes.append(tuple(shoe))
    return _merged(weights, shoes)


def _merged(weights: Sequence[mpq], shoes: Sequence[tuple[int, ...]]) -> ShoeMixture:
    """One entry per distinct shoe, weights added, in the shoes' order."""
    found: dict[tuple[int, ...], mpq] = {}
    for w, s in zip(weights, shoes):
        found[s] = found.get(s, mpq(0)) + w
    return ShoeMixture(tuple(found.values()), tuple(found))


def _compositions(tags: Sequence[int], full: Sequence[int], seen: int,
                  count: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """(ways, cards seen of each rank) for every composition of ``seen`` cards with running ``count``."""

    def ranks_of(index: int, left: int, counted: int, taken: list[int], ways: int) -> Iterator[tuple[int, list[int]]]:
        # over every rank in turn: how many of it were seen
        if index == 10:
            if left == 0 and counted == count:
                yield ways, taken
            return
        for m in range(min(full[index], left) + 1):
            yield from ranks_of(index + 1, left - m, counted + tags[index] * m, taken + [m],
                                ways * comb(full[index], m))

    for ways, taken in ranks_of(0, seen, 0, [], 1):
        yield ways, tuple(taken)


def mixture_size(full: Sequence[int], seen: int) -> int:
    """How many compositions ``seen`` cards of ``full`` can have (every count): the work of
    :func:`exact_mixture` over the counts of one depth."""
    sizes = [1] + [0] * seen
    for n in full:
        sizes = [sum(sizes[c - m] for m in range(min(n, c) + 1)) for c in range(seen + 1)]
    return sizes[seen]


def exact_mixture(system: CountSystem, full: Sequence[int], seen: int, count: int) -> ShoeMixture:
    """The cards unseen when ``seen`` random cards of ``full`` have the running ``count``: every
    composition with its exact conditional chance (the exhaustive average)."""
    found = [(ways, tuple(n - d for n, d in zip(full, taken)))
             for ways, taken in _compositions(system.tags, full, seen, count)]
    if not found:
        raise BjexactError(f"{seen} cards of this shoe cannot have the running count {count:+d}")
    total = sum(w for w, _ in found)
    return ShoeMixture(tuple(mpq(w, total) for w, _ in found), tuple(s for _, s in found))
