"""Paired differences with 95% intervals that hold at small samples and stay in range.

``tichu compare`` and ``tichu duel`` play pairs (one deal under A and under B) and
report, per figure, A, B and B − A ("second minus first"). A figure is a smooth
function of sums over the pairs (bombs per hand = all bombs / all hands; the spread
of the score per hand = sqrt(sum of squares / hands − mean²)), so the unit of the
interval is the pair:

1. Per pair ``i`` the figure's linearisation (the delta method) gives one number
   ``z_i`` for A and one for B; their difference ``w_i`` has the mean 0 and the
   spread of the estimate B − A. The gradient is taken numerically, so any figure
   built from sums works the same way.
2. The half-width is Student's t quantile with n − 1 degrees of freedom (n pairs)
   times sd(w)/sqrt(n): the pairs' spread is itself estimated, which the normal
   quantile (1.96) ignores; at 5 pairs t is 2.78, and the normal interval covers
   only about 88% instead of 95%.
3. The interval is built on a scale on which the figure is free, then mapped back,
   so that it never leaves the figure's range:

   - a **share** (calls made of calls, matches won, in [0, 1]): the log odds
     ratio logit(B) − logit(A); mapped back, B − A stays inside
     (−A, 1 − A), within ±100 points;
   - a **count** (per hand, never negative): the log ratio log(B) − log(A);
     mapped back, B − A stays above −A (B cannot go below 0);
   - a **signed** figure (a score per hand, which can be negative): plain.

   Where a share is 0 or 1, or a count 0, the log scale is not defined there: the
   interval is then that of the figures with half an event added to the numerator
   of both variants (and, for a share, half a non-event: the Haldane-Anscombe
   correction); the estimate B − A itself is never corrected.

Below :data:`MIN_PAIRS` pairs the command prints a warning: the approximation of
step 1 needs a few dozen pairs, whatever the t quantile does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

# Fewer pairs than this and the answer is printed with a plain warning.
MIN_PAIRS = 20

# Student's t, 97.5% quantile (two-sided 95%), for 1..30 degrees of freedom.
_T975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip
Z975 = 1.959964

SIGNED = "signed"
COUNT = "count"
SHARE = "share"

Sums = tuple[float, ...]


def t975(df: int) -> float:
    """Student's t quantile of 97.5% with ``df`` degrees of freedom: the table up to 30,
    beyond it the Cornish-Fisher series (Abramowitz and Stegun 26.7.5, within 1e-4)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1 (got {df})")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z975
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def ratio(sums: Sequence[float]) -> float | None:
    """The default figure of two sums: numerator / denominator (None: no denominator)."""
    return sums[0] / sums[1] if sums[1] else None


def spread(sums: Sequence[float]) -> float | None:
    """The standard deviation of a score per hand from (sum, sum of squares, hands)."""
    total, squares, hands = sums
    if not hands:
        return None
    mean = total / hands
    return math.sqrt(max(squares / hands - mean * mean, 0.0))


@dataclass(frozen=True)
class Figure:
    """A figure: ``sums`` reads its sums from one record (or side view), ``value`` makes
    the figure of the sums (added over the pairs); ``scale`` is :data:`SHARE` (shown
    in percent, B − A in points), :data:`COUNT` or :data:`SIGNED`."""

    name: str
    sums: Callable[[Any], Sums]
    value: Callable[[Sequence[float]], float | None] = ratio
    scale: str = COUNT

    @property
    def percent(self) -> bool:
        return self.scale == SHARE


@dataclass(frozen=True)
class Difference:
    """The figure of A and of B (None: no denominator), B − A, its 95% interval, the
    number of pairs, and whether the interval came from the corrected scale. ``low``
    and ``high`` are None where there is no interval (no difference, one pair, or
    nothing seen in A nor B)."""

    first: float | None
    second: float | None
    delta: float | None
    low: float | None
    high: float | None
    pairs: int
    seen: bool = True  # False: a count that is 0 in every pair of A and B

    @property
    def significant(self) -> bool:
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    def relative(self) -> tuple[float, float, float] | None:
        """B − A and its interval in percent of A (None: A is 0 or there is none)."""
        if not self.first or self.delta is None or self.low is None or self.high is None:
            return None
        base = abs(self.first) / 100
        return self.delta / base, self.low / base, self.high / base


def _totals(parts: Sequence[Sums]) -> list[float]:
    return [sum(column) for column in zip(*parts, strict=True)]


def _gradient(value: Callable[[Sequence[float]], float | None], point: list[float]) -> list[float]:
    """The gradient of ``value`` at ``point`` by central differences."""
    gradient = []
    for k, x in enumerate(point):
        step = 1e-6 * max(1.0, abs(x))
        up, down = list(point), list(point)
        up[k] += step
        down[k] -= step
        high, low = value(up), value(down)
        assert high is not None and low is not None  # the denominators are well above 0
        gradient.append((high - low) / (2 * step))
    return gradient


def _transform(scale: str) -> tuple[Callable[[float], float], Callable[[float], float]]:
    """The scale's map and its derivative."""
    if scale == SHARE:
        return (lambda p: math.log(p / (1 - p))), (lambda p: 1 / (p * (1 - p)))
    if scale == COUNT:
        return math.log, (lambda x: 1 / x)
    return (lambda x: x), (lambda x: 1.0)


def _inverse(scale: str, u: float) -> float:
    if scale == SHARE:
        return 1 / (1 + math.exp(-u)) if u > -700 else 0.0
    if scale == COUNT:
        return math.exp(min(u, 700))
    return u


def _inside(scale: str, x: float) -> bool:
    return 0 < x < 1 if scale == SHARE else x > 0 if scale == COUNT else True


def paired_difference(
    first: Sequence[Sums], second: Sequence[Sums], figure: Figure | None = None
) -> Difference:
    """B − A of ``figure`` over the pairs (``first``: A's sums per pair, ``second``:
    B's), with its 95% interval (the module's docstring says how). Without a figure:
    a count, the ratio of the first sum to the second."""
    figure = figure or Figure("ratio", lambda sums: sums)
    n = len(first)
    if len(second) != n:
        raise ValueError(f"paired figures need as many pairs of A as of B ({n}, {len(second)})")
    value = figure.value
    sums_a, sums_b = _totals(first), _totals(second)
    a, b = value(sums_a), value(sums_b)
    if a is None or b is None:
        return Difference(a, b, None, None, None, n)
    delta = b - a
    # A share exists wherever it has a denominator (0 of 3 calls made is a finding);
    # a count that is 0 in every pair of A and B was never seen.
    seen = figure.scale == SHARE or any(x[0] for x in first) or any(x[0] for x in second)
    if n < 2 or not seen:
        return Difference(a, b, delta, None, None, n, seen)
    scale = figure.scale
    forward, slope = _transform(scale)
    # Off the scale's domain (a share of 0 or 1, a count of 0): half an event more.
    if not (_inside(scale, a) and _inside(scale, b)):
        sums_a, sums_b = [sums_a[0] + 0.5, *sums_a[1:]], [sums_b[0] + 0.5, *sums_b[1:]]
        first = [(x[0] + 0.5 / n, *x[1:]) for x in first]
        second = [(x[0] + 0.5 / n, *x[1:]) for x in second]
        if scale == SHARE:  # and half a non-event: the share moves towards one half
            sums_a[1] += 1
            sums_b[1] += 1
            first = [(x[0], x[1] + 1 / n, *x[2:]) for x in first]
            second = [(x[0], x[1] + 1 / n, *x[2:]) for x in second]
    centre_a, centre_b = value(sums_a), value(sums_b)
    assert centre_a is not None and centre_b is not None
    means_a, means_b = [s / n for s in sums_a], [s / n for s in sums_b]
    grad_a, grad_b = _gradient(value, means_a), _gradient(value, means_b)
    w = []
    for pa, pb in zip(first, second, strict=True):
        za = sum(g * (x - m) for g, x, m in zip(grad_a, pa, means_a, strict=True))
        zb = sum(g * (x - m) for g, x, m in zip(grad_b, pb, means_b, strict=True))
        w.append(slope(centre_b) * zb - slope(centre_a) * za)
    mean_w = sum(w) / n
    sd = math.sqrt(sum((x - mean_w) ** 2 for x in w) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    if half == 0:  # every pair moved by the same (linearised) amount: no spread at all
        return Difference(a, b, delta, delta, delta, n)
    if scale == SIGNED:
        return Difference(a, b, delta, delta - half, delta + half, n)
    # On the free scale: A's figure moved by the (corrected) shift and its half-width,
    # mapped back, less A's figure: inside the range. Where A's own figure is off the
    # scale's domain (a share of 0 or 1, a count of 0), the corrected one stands in.
    shift = forward(centre_b) - forward(centre_a)
    origin = a if _inside(scale, a) else centre_a
    base = forward(origin)
    low = _inverse(scale, base + shift - half) - origin
    high = _inverse(scale, base + shift + half) - origin
    # The corrected figures may leave the estimate outside: the interval is widened to
    # hold it (never narrowed, never out of range: the estimate is in range).
    return Difference(a, b, delta, min(low, delta), max(high, delta), n)
