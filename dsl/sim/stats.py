"""Interval math for ``cardscript analyze`` (docs/scale.md#analyze): pure Python, 95 %.

* :func:`wilson` — the Wilson score interval of one proportion (Wilson 1927).
* :func:`newcombe` — the difference of two independent proportions, Newcombe's hybrid
  score interval built from the two Wilson intervals (Newcombe 1998, method 10).
* :func:`mh_difference` — the difference adjusted for a stratifying variable (the seat):
  the Cochran-Mantel-Haenszel-weighted risk difference with Sato's (1989) variance, a
  normal interval.

Counts may be fractional: a game with k winners counts 1/k of a win for each.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: the two-sided 95 % normal quantile
Z95 = 1.959963984540054


def wilson(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``wins / n``.

    Returns:
        ``(low, high)`` within [0, 1]; ``(0.0, 1.0)`` when ``n`` is 0 (nothing is known).

    Raises:
        ValueError: ``wins`` is negative or more than ``n``.
    """
    if n <= 0:
        return 0.0, 1.0
    if wins < 0 or wins > n + 1e-9:
        raise ValueError(f"{wins} wins out of {n}")
    p = min(wins / n, 1.0)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(wins1: float, n1: float, wins2: float, n2: float, z: float = Z95) -> tuple[float, float, float]:
    """The difference ``wins1/n1 - wins2/n2`` with Newcombe's hybrid score interval.

    Returns:
        ``(difference, low, high)``.

    Raises:
        ValueError: a group is empty (``n1`` or ``n2`` is 0), or as :func:`wilson`.
    """
    if n1 <= 0 or n2 <= 0:
        raise ValueError("a difference of proportions needs both groups")
    p1, p2 = wins1 / n1, wins2 / n2
    l1, u1 = wilson(wins1, n1, z)
    l2, u2 = wilson(wins2, n2, z)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def mh_difference(strata: Sequence[tuple[float, float, float, float]],
                  z: float = Z95) -> tuple[float, float, float] | None:
    """The Mantel-Haenszel risk difference over strata, with Sato's variance.

    Each stratum is ``(a, n1, c, n0)``: wins ``a`` of ``n1`` in the first group, wins
    ``c`` of ``n0`` in the second. A stratum with an empty group carries no weight.
    The weights are ``n1*n0/N``; the variance is Sato's (Biometrics 45, 1989), valid
    both for a few large strata and for many sparse ones.

    Returns:
        ``(difference, low, high)``, or None when no stratum has both groups.
    """
    num = weight = p_sum = q_sum = 0.0
    for a, n1, c, n0 in strata:
        total = n1 + n0
        if n1 <= 0 or n0 <= 0:
            continue
        num += (a * n0 - c * n1) / total
        weight += n1 * n0 / total
        p_sum += (n1 * n1 * c - n0 * n0 * a + n1 * n0 * (n0 - n1) / 2) / (total * total)
        q_sum += (a * (n0 - c) + c * (n1 - a)) / (2 * total)
    if weight == 0:
        return None
    d = num / weight
    var = max((d * p_sum + q_sum) / (weight * weight), 0.0)
    half = z * math.sqrt(var)
    return d, max(-1.0, d - half), min(1.0, d + half)


def newcombe_paired(a: float, b: float, c: float, d: float, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two proportions measured on the same units (matched pairs), with
    Newcombe's hybrid score interval for paired data (Newcombe 1998, Statistics in
    Medicine 17, 2635-2650, method 10).

    The pairs form the table ``a`` (success in both), ``b`` (first only), ``c`` (second
    only), ``d`` (neither); the difference is ``(b - c) / n``. The interval combines the
    two marginal Wilson intervals with the correlation of the pairs (phi, shrunk toward 0
    as in the paper: ``ad - bc`` less ``n/2`` when positive). Counts may be fractional.

    Returns:
        ``(difference, low, high)``.

    Raises:
        ValueError: no pairs, or a negative count.
    """
    n = a + b + c + d
    if n <= 0 or min(a, b, c, d) < 0:
        raise ValueError(f"a paired table needs pairs: {(a, b, c, d)}")
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n, z)
    l2, u2 = wilson(a + c, n, z)
    phi = 0.0
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    if margins > 0:
        cross = a * d - b * c
        phi = (cross - n / 2 if cross > n / 2 else min(cross, 0.0)) / math.sqrt(margins)
    diff = p1 - p2
    low = diff - math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    high = diff + math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    return diff, max(-1.0, low), min(1.0, high)
