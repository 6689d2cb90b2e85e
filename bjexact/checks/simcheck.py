"""Statistical checks of floating-point simulators against the exact distributions.

The dealer protocol
    A dealer simulator is any callable ``dealer_outcome(upcard, rng) -> outcome``:

    * ``upcard`` is an ``int`` rank, 1 for the ace, 2..9, and 10 for any ten-valued card;
    * ``rng`` is a :class:`random.Random`, seeded by the checker: draw every random
      number from it (a numpy user can seed ``numpy.random.default_rng(rng.getrandbits(64))``)
      and the check is reproducible;
    * each call is one independent round: the dealer holds ``upcard`` and plays out
      the hand from a full shoe of the rules (a fresh shoe each round, the up-card
      already taken out of it), hitting below 17 and on soft 17 under H17;
    * the result is the final outcome: ``"17"`` .. ``"21"``, ``"bust"``, or
      ``"blackjack"`` for a natural (ace and ten-valued card as the first two cards).
      Totals are accepted too: an int 17..21, and any int above 21 for a bust.

    Under ``naturals="as21"`` a reported ``"blackjack"`` counts as a 21; under
    ``separate`` it is its own outcome; under ``peek`` rounds that end in a natural are
    left out, because the exact table is conditioned on the dealer having none.

The test
    Rounds are split evenly over the up-cards. For each up-card the counts of outcomes
    are compared with the exact probabilities by Pearson's chi-square goodness of fit
    (outcomes with an expected count below 5 are pooled); p-values come from the
    regularised upper incomplete gamma function of mpmath (which sympy depends on).
    The p-values are Holm-corrected, which keeps the chance of a false alarm on a
    correct simulator at most ``alpha`` over all up-cards together. An outcome the
    exact rules make impossible fails its up-card at once.

    Too few rounds: when pooling leaves a single cell (every expected count below 5)
    there is no degree of freedom and nothing is tested. Such an up-card is *untested*,
    never a pass; the check says how many rounds a test needs
    (:func:`rounds_for_a_test`) and its verdict is neither PASS nor FAIL.

Power
    A simulator whose distribution differs from the exact one by ``p1 - p0`` is
    caught with probability given by the noncentral chi-square with noncentrality
    ``n * sum((p1 - p0)**2 / p0)``. :func:`rounds_to_detect` inverts that:
    how many rounds per up-card find a given bias with the asked power.

Layout: :mod:`~bjexact.checks.stats` (the statistics), :mod:`~bjexact.checks.simulators` (the
check, its power, reference simulators) and :mod:`~bjexact.checks.gym` (gymnasium); their names
are re-exported here.
"""

from .gym import *  # noqa: F403
from .gym import __all__ as _gym
from .simulators import *  # noqa: F403
from .simulators import __all__ as _simulators
from .stats import *  # noqa: F403
from .stats import __all__ as _stats

__all__ = [*_stats, *_simulators, *_gym]
