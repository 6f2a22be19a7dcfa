"""Sequential probability ratio tests on paired results, as chess engines are gated.

A GSPRT (generalised sequential probability ratio test) decides between two point
hypotheses about the expected score ``s`` of one unit (a game, a pair of games with the
sides swapped, or a paired score difference):

* ``H0: s = s0`` and ``H1: s = s1`` with ``s0 < s1``;
* after each unit, the log-likelihood ratio ``LLR`` is compared with the bounds
  ``lower = ln(beta / (1 - alpha))`` and ``upper = ln((1 - beta) / alpha)``
  (``-2.944``, ``+2.944`` at ``alpha = beta = 0.05``): ``LLR >= upper`` accepts H1,
  ``LLR <= lower`` accepts H0, otherwise the test continues;
* ``alpha`` bounds P(accept H1 | H0) and ``beta`` bounds P(accept H0 | H1).

The LLR is computed exactly as Fishtest (``server/fishtest/stats/LLRcalc.py``) and fastchess
(``app/src/matchmaking/sprt/sprt.cpp``) compute it, after Michel Van den Bergh's notes
("Comparing the approximations for the generalized log likelihood ratio of a multinomial
distribution"; "Comments on normalized Elo"). A unit takes one of finitely many points
``a_i`` in ``[0, 1]``, observed ``n_i`` times (``N = sum n_i``, ``phat_i = n_i / N``):

* for each hypothesis, ``p`` is the distribution on the same points that maximises the
  likelihood of the counts under the hypothesis' constraint; with a mean constraint
  ``sum p_i a_i = s`` it is ``p_i = phat_i / (1 + theta (a_i - s))`` where ``theta`` solves
  ``sum phat_i (a_i - s) / (1 + theta (a_i - s)) = 0``; with a t-value constraint
  ``(mu - ref) / sigma = t`` it is the fixed point of the same formula with
  ``a_i - s`` replaced by ``a_i - ref - t sigma (1 + ((a_i - mu) / sigma)^2) / 2``;
* ``LLR = sum_i n_i ln(p1_i / p0_i)``.

Counts that are zero are replaced by ``0.001`` before this (as both anchors do), so the
LLR is finite for every non-empty input, including one where every unit scored the same.

Elo models (``ELO_MODELS``), both with ``C = 800 / ln 10``:

* ``"logistic"``: ``s = 1 / (1 + 10^(-elo / 400))`` per game; a pair's score is the mean of
  its two games, so the same ``s`` bounds the pair mean.
* ``"normalized"`` (nElo, independent of the draw rate): ``nelo = C (mu - 1/2) / sigma_game``
  where ``sigma_game`` is the standard deviation of one game's score. For games it is the
  per-unit ``sigma``; for pairs (pair score = mean of two games) it is ``sqrt(2) sigma_pair``.
  The hypotheses are t-values ``(mu - 1/2) / sigma_unit``: ``t = nelo / C`` for games and
  ``t = sqrt(2) nelo / C`` for pairs.

Units: ``sprt_wdl`` counts games (points 0, 1/2, 1), ``sprt_pentanomial`` counts pairs (pair
score 0, 1/2, 1, 3/2, 2 divided by 2), ``sprt_points`` takes any unit scores in ``[0, 1]``
(a bounded game's paired difference ``d = (new - old) / (hi - lo)`` enters as ``(1 + d) / 2``).

The estimate is the Elo (or nElo, or the mean point) of the counts with a 95% normal interval
of the mean score (``mean +- 1.96 sqrt(var / N)``) mapped through the model, as fastchess
reports it (from the regularised counts when every unit scored the same). Logistic Elo is
unbounded: an interval end whose score reaches 0 or 1 is ``-inf`` or ``inf``.

Degenerate inputs have defined answers: no units give ``LLR = 0``, ``"continue"`` and an
estimate and interval of ``nan``; identical units or zero variance are regularised as above
(a finite LLR that grows with the number of units, or stays near 0 where the normalized
model cannot tell the hypotheses apart). Malformed arguments (negative or non-finite
counts, ``elo0 >= elo1``, ``alpha`` or ``beta`` outside ``(0, 0.5)``, an unknown model,
points outside ``[0, 1]``) raise ``ValueError``.

Several tests at once: with ``K`` tests (games, agents) whose errors should not add up, give
each ``split_error_rate(rate, K)`` (Bonferroni: ``rate / K``); then the chance that any of
them errs is at most ``rate``. For fixed-size tests with p-values, ``holm`` rejects in
Holm's step-down order with the same family-wise guarantee and more power.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "ELO_MODELS",
    "NELO_PER_T",
    "PAIR_POINTS",
    "WDL_POINTS",
    "SprtResult",
    "elo_to_score",
    "expected_units_left",
    "holm",
    "llr_bounds",
    "llr_expected_score",
    "llr_t_value",
    "split_error_rate",
    "sprt_counts",
    "sprt_grid",
    "sprt_pentanomial",
    "sprt_points",
    "sprt_wdl",
]

ELO_MODELS = ("logistic", "normalized")
NELO_PER_T = 800.0 / math.log(10.0)
"""Normalized Elo per unit of t-value of one game (``800 / ln 10``, about 347.4)."""
WDL_POINTS = (0.0, 0.5, 1.0)
"""Points of one game: loss, draw, win."""
PAIR_POINTS = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Points of a pair of games (pair score / 2): LL, LD, D (double draw or win-loss), WD, WW."""
Z_95 = 1.959963984540054
REGULARISATION = 1e-3
_MAX_T = 1.0  # |t| per unit above this is far beyond any useful bound (nElo ~ 347 per game)


@dataclass(frozen=True)
class SprtResult:
    """The state of one sequential test."""

    llr: float
    lower: float
    """LLR bound for accepting H0."""
    upper: float
    """LLR bound for accepting H1."""
    decision: str
    """``"H0"``, ``"H1"`` or ``"continue"``."""
    units: int
    """Games (wdl), pairs (pentanomial) or paired differences (scores)."""
    estimate: float
    """Elo in the chosen model for wdl/pentanomial; the mean point for scores; nan without units."""
    interval: tuple[float, float]
    """95% interval of the estimate (nan, nan without units)."""
    drift: float = 0.0
    """Mean LLR increment per unit at the observed distribution (``llr / units``)."""
    spread: float = 0.0
    """Variance of the LLR increment per unit at the observed distribution."""


def llr_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Returns ``(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))``, the bounds for H0 and H1."""
    _check_rates(alpha, beta)
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def elo_to_score(elo: float) -> float:
    """Returns the logistic expected score ``1 / (1 + 10^(-elo / 400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _score_to_elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


# --------------------------------------------------------------------------- the exact LLR


def _secular(phat: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Solves ``sum_i phat_i b_i / (1 + x b_i) = 0`` for ``x`` along the last axis.

    Needs ``phat > 0`` and ``min b < 0 < max b``; the root is the unique one in
    ``(-1 / max b, -1 / min b)``, where the left side falls from +inf to -inf. Safeguarded
    Newton steps (bisection when a step leaves the bracket), vectorised over the leading axes.
    """
    lo = -1.0 / b.max(axis=-1)
    hi = -1.0 / b.min(axis=-1)
    x = np.zeros(lo.shape)
    for _ in range(200):
        denominator = 1.0 + x[..., None] * b
        f = (phat * b / denominator).sum(axis=-1)
        slope = -(phat * (b / denominator) ** 2).sum(axis=-1)
        lo = np.where(f > 0, x, lo)
        hi = np.where(f < 0, x, hi)
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = x - f / slope
        inside = ((newton > lo) & (newton < hi)) | (newton == x)  # never onto a pole at the bracket's ends
        new = np.where(inside, newton, (lo + hi) / 2.0)
        new = np.where(f == 0, x, new)
        converged = np.abs(new - x) <= 1e-14 * (1.0 + np.abs(x))
        x = new
        if converged.all():
            break
    return x


def _regularised(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    counts = np.where(counts == 0, REGULARISATION, counts.astype(float))
    total = counts.sum(axis=-1)
    return counts / total[..., None], total


def _mle_mean(phat: np.ndarray, points: np.ndarray, s: float) -> np.ndarray:
    b = points - s
    theta = _secular(phat, np.broadcast_to(b, phat.shape))
    return phat / (1.0 + theta[..., None] * b)


def _mle_t_value(phat: np.ndarray, points: np.ndarray, ref: float, t: float) -> np.ndarray:
    p = np.full(phat.shape, 1.0 / phat.shape[-1])
    for _ in range(100):
        mu = (p * points).sum(axis=-1, keepdims=True)
        sigma = np.sqrt((p * (points - mu) ** 2).sum(axis=-1, keepdims=True))
        phi = points - ref - t * sigma * (1.0 + ((points - mu) / sigma) ** 2) / 2.0
        theta = _secular(phat, phi)
        new = phat / (1.0 + theta[..., None] * phi)
        change = np.abs(new - p).max()
        p = new
        if change < 1e-13:
            break
    return p


def llr_expected_score(counts, points, s0: float, s1: float) -> np.ndarray:
    """Returns the exact GSPRT LLR of ``H1: mean = s1`` against ``H0: mean = s0``.

    ``counts`` has the points along its last axis (any leading axes are a batch);
    ``points`` are the unit scores in ``[0, 1]``, ascending, with ``min < s0 < s1 < max``.
    Zero counts are regularised; rows without any count give 0.
    """
    return _llr(counts, points, lambda phat, pts, s: _mle_mean(phat, pts, s), s0, s1)[0]


def llr_t_value(counts, points, t0: float, t1: float, ref: float = 0.5) -> np.ndarray:
    """Returns the exact GSPRT LLR of ``H1: (mu - ref) / sigma = t1`` against ``t0``.

    The normalized-Elo test; arguments as in :func:`llr_expected_score`.
    """
    return _llr(counts, points, lambda phat, pts, t: _mle_t_value(phat, pts, ref, t), t0, t1)[0]


def _llr(counts, points, mle, h0: float, h1: float) -> tuple[np.ndarray, np.ndarray]:
    """LLR and the variance per unit of its increments ``ln(p1_i / p0_i)`` under the counts."""
    counts = np.asarray(counts, dtype=float)
    points = np.asarray(points, dtype=float)
    phat, total = _regularised(counts)
    jumps = np.log(mle(phat, points, h1)) - np.log(mle(phat, points, h0))
    drift = (phat * jumps).sum(axis=-1)
    spread = (phat * (jumps - drift[..., None]) ** 2).sum(axis=-1)
    empty = counts.sum(axis=-1) == 0
    return np.where(empty, 0.0, total * drift), np.where(empty, 0.0, spread)


# --------------------------------------------------------------------------- the tests


def sprt_wdl(wins: int, draws: int, losses: int, elo0: float, elo1: float, *,
             alpha: float = 0.05, beta: float = 0.05, elo_model: str = "logistic") -> SprtResult:
    """Tests games counted as wins, draws and losses (trinomial) from the tested side's view."""
    return _sprt_elo((losses, draws, wins), WDL_POINTS, 1.0, elo0, elo1, alpha, beta, elo_model)


def sprt_pentanomial(counts: Sequence[int], elo0: float, elo1: float, *,
                     alpha: float = 0.05, beta: float = 0.05, elo_model: str = "logistic") -> SprtResult:
    """Tests pairs of games (pentanomial).

    ``counts = (LL, LD, D, WD, WW)``: pairs scoring 0, 1/2, 1, 3/2 and 2 points from the tested
    side's view; D counts both a double draw and a win-loss pair.
    """
    counts = tuple(counts)
    if len(counts) != 5:
        raise ValueError(f"pentanomial counts: expected 5 numbers (LL, LD, D, WD, WW), got {len(counts)}")
    return _sprt_elo(counts, PAIR_POINTS, 2.0, elo0, elo1, alpha, beta, elo_model)


def sprt_grid(counts: Sequence[float], points: Sequence[float], games_per_unit: int, elo0: float, elo1: float, *,
              alpha: float = 0.05, beta: float = 0.05, elo_model: str = "normalized") -> SprtResult:
    """Tests counts of units on a fixed grid of ``points`` (ascending, in ``[0, 1]``, 1/2 the even score), each unit
    the mean of ``games_per_unit`` games: :func:`sprt_pentanomial` is this test on :data:`PAIR_POINTS` with 2.

    The gate's baseline units (a score difference against the same opponents, ``(1 + d) / 2``) are tested so.
    """
    points_ = [float(p) for p in points]
    if len(points_) < 2 or any(b <= a for a, b in zip(points_, points_[1:])) or points_[0] < 0 or points_[-1] > 1:
        raise ValueError("points: expected at least two ascending points in [0, 1]")
    if not (isinstance(games_per_unit, int) and games_per_unit >= 1):
        raise ValueError(f"games_per_unit: expected a whole number of at least 1, got {games_per_unit!r}")
    return _sprt_elo(counts, points_, float(games_per_unit), elo0, elo1, alpha, beta, elo_model)


def sprt_points(points: Sequence[float], s0: float, s1: float, *, alpha: float = 0.05, beta: float = 0.05,
                support: Sequence[float] | None = None) -> SprtResult:
    """Tests unit scores in ``[0, 1]`` for ``H0: mean = s0`` against ``H1: mean = s1``.

    The outcomes are the distinct observed points together with 0, 1 and ``support`` (the
    points a unit could take, e.g. a score grid); outcomes never observed are regularised.
    The estimate is the mean point.
    """
    values = np.asarray(list(points), dtype=float).reshape(-1)
    if not np.isfinite(values).all() or (values < 0).any() or (values > 1).any():
        raise ValueError("points: every unit score must be a number in [0, 1]")
    extra = np.asarray(list(() if support is None else support), dtype=float)
    grid = np.unique(np.concatenate([values, [0.0, 1.0], extra]))
    if (grid < 0).any() or (grid > 1).any() or not np.isfinite(grid).all():
        raise ValueError("support: every point must be a number in [0, 1]")
    counts = np.array([np.count_nonzero(values == g) for g in grid])
    return sprt_counts(counts, grid, s0, s1, alpha=alpha, beta=beta)


def sprt_counts(counts: Sequence[float], points: Sequence[float], s0: float, s1: float, *,
                alpha: float = 0.05, beta: float = 0.05) -> SprtResult:
    """Tests counts of units on ``points`` (ascending, in ``[0, 1]``) for mean ``s0`` against ``s1``."""
    counts_ = _checked_counts(counts, len(counts))
    try:
        points_ = np.asarray([float(p) for p in points], dtype=float)
    except (TypeError, ValueError):
        raise ValueError("points: expected numbers") from None
    if (points_.shape != counts_.shape or points_.size < 2 or not np.isfinite(points_).all()
            or (np.diff(points_) <= 0).any() or points_[0] < 0 or points_[-1] > 1):
        raise ValueError("points: expected at least two ascending points in [0, 1], one per count")
    s0, s1 = _finite("s0", s0), _finite("s1", s1)
    if not (points_[0] < s0 < s1 < points_[-1]):
        raise ValueError(f"s0, s1: expected {points_[0]:g} < s0 < s1 < {points_[-1]:g}, got {s0!r}, {s1!r}")
    _check_rates(alpha, beta)
    llr, spread = _llr(counts_, points_, _mle_mean, s0, s1)
    mean, low, high, n = _mean_interval(counts_, points_)
    interval = (max(low, float(points_[0])), min(high, float(points_[-1]))) if n else (math.nan, math.nan)
    return _result(llr, spread, alpha, beta, n, mean, interval)


def _sprt_elo(counts, points, games_per_unit, elo0, elo1, alpha, beta, elo_model) -> SprtResult:
    if elo_model not in ELO_MODELS:
        raise ValueError(f"elo_model: expected one of {', '.join(ELO_MODELS)}, got {elo_model!r}")
    elo0, elo1 = _finite("elo0", elo0), _finite("elo1", elo1)
    if elo0 >= elo1:
        raise ValueError(f"elo0, elo1: expected finite numbers with elo0 < elo1, got {elo0!r}, {elo1!r}")
    counts_ = _checked_counts(counts, len(points))
    points_ = np.asarray(points, dtype=float)
    _check_rates(alpha, beta)
    mean, low, high, n = _mean_interval(counts_, points_)
    if elo_model == "logistic":
        s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
        llr, spread = _llr(counts_, points_, _mle_mean, s0, s1)
        estimate = _score_to_elo(mean) if n else math.nan
        interval = (_score_to_elo(low), _score_to_elo(high)) if n else (math.nan, math.nan)
    else:
        scale = math.sqrt(games_per_unit)
        t0, t1 = scale * elo0 / NELO_PER_T, scale * elo1 / NELO_PER_T
        if max(abs(t0), abs(t1)) > _MAX_T:
            raise ValueError(f"elo0, elo1: normalized Elo bounds must lie within +-{_MAX_T * NELO_PER_T / scale:.0f}")
        llr, spread = _llr(counts_, points_, lambda phat, pts, t: _mle_t_value(phat, pts, 0.5, t), t0, t1)
        phat = counts_ / max(counts_.sum(), 1.0)
        if np.count_nonzero(phat) < 2:
            phat, _ = _regularised(counts_)
        sigma_game = scale * math.sqrt(float((phat * (points_ - (phat * points_).sum()) ** 2).sum()))

        def to_nelo(score: float) -> float:
            return NELO_PER_T * (score - 0.5) / sigma_game

        estimate = to_nelo(mean) if n else math.nan
        interval = (to_nelo(low), to_nelo(high)) if n else (math.nan, math.nan)
    return _result(llr, spread, alpha, beta, n, estimate, interval)


def _result(llr, spread, alpha, beta, units, estimate, interval) -> SprtResult:
    lower, upper = llr_bounds(alpha, beta)
    llr = float(llr)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtResult(llr=llr, lower=lower, upper=upper, decision=decision, units=units, estimate=float(estimate),
                      interval=(float(interval[0]), float(interval[1])),
                      drift=llr / units if units else 0.0, spread=float(spread))


def _mean_interval(counts: np.ndarray, points: np.ndarray) -> tuple[float, float, float, int]:
    """Mean point of the counts and its 95% normal interval; ``n`` is the count of units."""
    n = round(float(counts.sum()))
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    phat = counts / counts.sum()
    if np.count_nonzero(phat) < 2:  # no spread: fall back to the regularised counts, as the LLR
        phat, _ = _regularised(counts)
    mean = float((phat * points).sum())
    half = Z_95 * math.sqrt(float((phat * (points - mean) ** 2).sum()) / counts.sum())
    return mean, mean - half, mean + half, n


def _checked_counts(counts, size: int) -> np.ndarray:
    try:
        values = np.asarray([float(c) for c in counts], dtype=float)
    except (TypeError, ValueError):
        raise ValueError("counts: expected numbers") from None
    if values.shape != (size,):
        raise ValueError(f"counts: expected {size} numbers, got {values.size}")
    if not np.isfinite(values).all() or (values < 0).any():
        raise ValueError("counts: expected finite numbers >= 0")
    return values


def _finite(name: str, value) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not math.isfinite(number):
        raise ValueError(f"{name}: expected a finite number, got {value!r}")
    return number


def _check_rates(alpha: float, beta: float) -> None:
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not (isinstance(value, (int, float)) and 0.0 < value < 0.5):
            raise ValueError(f"{name}: expected a number in (0, 0.5), got {value!r}")


# --------------------------------------------------------------------------- planning and error control


def expected_units_left(result: SprtResult) -> float | None:
    """Estimates how many more units the test needs before a decision at the current estimate.

    The LLR is treated as a Brownian motion from ``result.llr`` with the observed drift and
    variance per unit (``result.drift``, ``result.spread``), absorbed at the two bounds; the
    answer is its expected exit time (``(llr - lower)(upper - llr) / spread`` at zero drift).
    Returns 0 for a decided test and None without units or without any spread.
    """
    if result.decision != "continue":
        return 0.0
    if result.units == 0 or not result.spread > 0:
        return None
    a, b, x, mu, var = result.lower, result.upper, result.llr, result.drift, result.spread
    gamma = 2.0 * mu / var
    if abs(gamma * (b - a)) < 1e-9:
        return (x - a) * (b - x) / var
    # P(exit at b) = (1 - e^{-gamma (x - a)}) / (1 - e^{-gamma (b - a)}), E[T] = (P_b (b - a) - (x - a)) / mu;
    # for gamma < 0 the same ratio is rewritten with non-positive exponents
    if gamma > 0:
        hit_upper = math.expm1(-gamma * (x - a)) / math.expm1(-gamma * (b - a))
    else:
        hit_upper = math.exp(gamma * (b - x)) * math.expm1(gamma * (x - a)) / math.expm1(gamma * (b - a))
    return max(0.0, (hit_upper * (b - a) - (x - a)) / mu)


def split_error_rate(rate: float, tests: int) -> float:
    """Returns the per-test error rate ``rate / tests`` (Bonferroni) for ``tests`` tests at once."""
    if tests < 1:
        raise ValueError(f"tests: expected at least 1, got {tests!r}")
    return rate / tests


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Returns which hypotheses Holm's step-down procedure rejects at family-wise level ``alpha``.

    The smallest p-value is compared with ``alpha / m``, the next with ``alpha / (m - 1)`` and so
    on, stopping at the first that is not below its threshold.
    """
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    rejected = [False] * len(p_values)
    for rank, index in enumerate(order):
        if p_values[index] > alpha / (len(p_values) - rank):
            break
        rejected[index] = True
    return rejected
