"""Win rates with honest uncertainty: the Wilson score interval and `WinCount`, wins out of
``n`` with its rate and 95 % interval (never a bare percentage)."""

from __future__ import annotations

import math

from vwlog.projections.stats.common import _Mutable

Z_95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95 % interval."""


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``successes`` in ``n`` trials.

    Unlike the normal approximation it stays inside [0, 1] and is honest for small samples and
    for rates near 0 or 1. With no trials the interval is the whole of [0, 1].

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)

    Raises:
        ValueError: ``n`` is negative or ``successes`` is not within 0..n.
    """
    if n < 0 or not 0 <= successes <= n:
        msg = f"wilson_interval needs 0 <= successes <= n, got {successes} of {n}"
        raise ValueError(msg)
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    # Rounding can push an end a hair past p at p = 0 or 1; the true interval contains p.
    return max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p))


class WinCount(_Mutable):
    """Wins out of ``n`` finished player-matches, with its rate and Wilson 95 % interval."""

    n: int = 0
    """Player-matches counted (finished matches only)."""
    wins: int = 0
    """Of those, the ones the player (or their team) won."""

    def record(self, *, won: bool) -> None:
        """Count one more player-match."""
        self.n += 1
        self.wins += won

    def absorb(self, other: WinCount) -> None:
        """Add another count to this one."""
        self.n += other.n
        self.wins += other.wins

    @property
    def rate(self) -> float | None:
        """``wins / n``, or ``None`` when ``n`` is 0."""
        return self.wins / self.n if self.n else None

    def interval(self, z: float = Z_95) -> tuple[float, float]:
        """The Wilson interval of the rate (95 % by default)."""
        return wilson_interval(self.wins, self.n, z)


__all__ = ["Z_95", "WinCount", "wilson_interval"]
