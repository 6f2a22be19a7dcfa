"""Error rates and sample size of the sequential gate (``stratbench.rating.sprt``) by simulation.

Agents of known strength play paired units; each simulated gate runs the exact GSPRT after
every pair (H0: the new model regressed by the margin, H1: it did not) until the LLR leaves
``(lower, upper)`` or the pairs reach a cap (counted separately as "capped").

Conventions. In SPRT terms ``alpha = P(accept H1 | H0)`` and ``beta = P(accept H0 | H1)``. For
the gate, accepting H0 is "fail" and accepting H1 is "pass", so

* **false alarm** = failing a model that did not regress = accepting H0 when the truth is H1
  (bounded by ``beta``);
* **power** = failing a model that regressed by the margin = accepting H0 when the truth is H0
  (at least ``1 - alpha``).

With ``alpha = beta = 0.05`` the targets are: false alarm <= 0.06, power >= 0.94.

Settings (``settings()``):

* win/draw/loss games, pairs with the sides swapped (pentanomial), 30% draws and a first-move
  edge of 10 points of win probability; bounds in logistic Elo and in normalized Elo;
* bounded scores: a Hanabi-like 0..25 score for each model (binomial with a per-seed difficulty
  shared by the pair); the pair's difference ``d / 25`` enters as ``(1 + d / 25) / 2``, a
  distribution on 51 points; H0 = the new model scores 1 point less on average;
* 0/1 games (planning success): each model solves a task with a probability that depends on the
  task (shared by the pair); the difference enters as 0, 1/2 or 1; H0 = 10 points less success.

The fixed-size test with the same error rates rejects on the mean of ``n`` pairs; by the normal
approximation ``n = ((z_alpha sigma0 + z_beta sigma1) / (s1 - s0))^2`` with the per-pair standard
deviations at the two truths (``((z_alpha + z_beta) sigma / (s1 - s0))^2`` when they are equal).
Its error rates are checked by simulation too. Where the sequential test errs less than asked
(the bounded score at a 1-point margin: 0.009 / 0.984), the fixed-size test with the *same* error
rates is the one with the sequential test's own simulated rates (floored at half a gate), and the
table gives the ratio to both.

* ``--defaults``: the gate's shipped defaults against a baseline (units of a seed in both seatings,
  H0 -50 normalized Elo, H1 0) with the old model scoring 0.02, 0.1, 0.5, 0.9 and 0.98 against the
  suite's opponent, and with near-constant outcomes (the new model repeats the old one's result on
  90% of the games); H0's truth is the new model's win rate whose units have the bound's t-value
  (a total collapse where no drop reaches it).

Usage::

    python bench/gate_power.py [--gates 2000] [--seed 1] [--cap 5] [--midpoint] [--defaults]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from stratbench.rating.sprt import (
    NELO_PER_T,
    PAIR_POINTS,
    elo_to_score,
    llr_bounds,
    llr_expected_score,
    llr_t_value,
)

ALPHA = BETA = 0.05
DRAW_RATE = 0.3
FIRST_MOVE_EDGE = 0.1


@dataclass(frozen=True)
class Setting:
    """One kind of game: its unit points, the true distributions at H0 and H1, and the test's LLR."""

    name: str
    bounds: str
    points: np.ndarray
    truth_h0: np.ndarray
    truth_h1: np.ndarray
    llr: Callable[[np.ndarray], np.ndarray]

    def mean_sd(self, truth: np.ndarray) -> tuple[float, float]:
        mean = float((truth * self.points).sum())
        return mean, math.sqrt(float((truth * (self.points - mean) ** 2).sum()))


# --------------------------------------------------------------------------- true distributions


def game_distribution(elo: float, edge: float) -> np.ndarray:
    """P(loss, draw, win) of one game at logistic ``elo``, with ``edge`` added to the win probability."""
    win = elo_to_score(elo) - DRAW_RATE / 2 + edge
    return np.array([1.0 - DRAW_RATE - win, DRAW_RATE, win])


def pair_distribution(elo: float) -> np.ndarray:
    """Pentanomial distribution of a pair: one game with the first move, one without."""
    first, second = game_distribution(elo, FIRST_MOVE_EDGE), game_distribution(elo, -FIRST_MOVE_EDGE)
    return np.convolve(first, second)  # index = pair score in half points = 4 x point


def pair_t_value(elo: float) -> float:
    """``(mu - 1/2) / sigma`` of the pair distribution at logistic ``elo``."""
    truth = pair_distribution(elo)
    points = np.asarray(PAIR_POINTS)
    mean = (truth * points).sum()
    return float((mean - 0.5) / math.sqrt((truth * (points - mean) ** 2).sum()))


def elo_with_pair_t_value(t: float) -> float:
    """The logistic Elo whose pair distribution has t-value ``t`` (bisection)."""
    low, high = -200.0, 200.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if pair_t_value(middle) < t else (low, middle)
    return (low + high) / 2


def bounded_difference_distribution(drop: float, top: int = 25, base: float = 0.6) -> np.ndarray:
    """Distribution of ``(1 + (new - old) / top) / 2`` on ``2 top + 1`` points.

    Each model scores ``Binomial(top, q)`` on a seed; the seed moves ``q`` for both models by
    -0.15, 0 or +0.15 (equally likely); the new model's ``q`` is lower by ``drop / top``.
    """
    from math import comb

    def binomial(q: float) -> np.ndarray:
        return np.array([comb(top, k) * q**k * (1 - q) ** (top - k) for k in range(top + 1)])

    total = np.zeros(2 * top + 1)
    for shift in (-0.15, 0.0, 0.15):
        new, old = binomial(base + shift - drop / top), binomial(base + shift)
        total += np.convolve(new, old[::-1]) / 3  # index = new - old + top
    return total


def success_difference_distribution(drop: float, base: float = 0.6) -> np.ndarray:
    """Distribution of ``(1 + new - old) / 2`` for 0/1 outcomes; tasks move both by -0.2, 0, +0.2."""
    total = np.zeros(3)
    for shift in (-0.2, 0.0, 0.2):
        new, old = base + shift - drop, base + shift
        total += np.array([(1 - new) * old, new * old + (1 - new) * (1 - old), new * (1 - old)]) / 3
    return total


GRID9 = np.linspace(0.0, 1.0, 9)
"""The points of a baseline unit of two win/draw/loss games per side (``stratbench.report.gate.difference_grid(2)``)."""


def baseline_unit_distribution(p_old: float, p_new: float, copy: float = 0.0) -> np.ndarray:
    """Distribution on :data:`GRID9` of a baseline unit: a seed in both seatings, each game won (1) or lost (0).

    The old model wins each game with ``p_old``; the new one repeats the old one's result with ``copy`` (the same
    position, an agent that plays alike), else wins with ``p_new``. The unit's point is ``(1 + d) / 2`` with ``d``
    the mean of the two games' differences.
    """
    game = np.zeros(3)  # index = new - old + 1
    for old, p in ((1, p_old), (0, 1 - p_old)):
        for new, q in ((1, p_new), (0, 1 - p_new)):
            game[new - old + 1] += p * ((1 - copy) * q + copy * (new == old))
    unit = np.convolve(game, game)  # index 0..4 = sum of the two games' (d + 1)
    grid = np.zeros(9)
    grid[::2] = unit  # point (1 + mean d) / 2 = index / 4 = 2 index / 8
    return grid


def _t_value(truth: np.ndarray, points: np.ndarray) -> float:
    mean = float((truth * points).sum())
    return (mean - 0.5) / math.sqrt(float((truth * (points - mean) ** 2).sum()))


def regressed_to(p_old: float, t: float, copy: float = 0.0) -> float:
    """The new model's win probability whose baseline units have t-value ``t`` (0 when no drop reaches it)."""
    low, high = 0.0, p_old
    if _t_value(baseline_unit_distribution(p_old, 0.0, copy), GRID9) > t:
        return 0.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if _t_value(baseline_unit_distribution(p_old, middle, copy), GRID9) < t else (
            low, middle)
    return (low + high) / 2


def shipped_defaults() -> list[Setting]:
    """The gate's shipped defaults against a baseline: units of both seatings, H0 -50 normalized Elo, H1 0, at the
    old model's score 0.02, 0.1, 0.5, 0.9 and 0.98 against the suite's opponent, and with near-constant outcomes
    (the new model repeats the old one's result on 90% of the games)."""
    t0 = math.sqrt(2.0) * -50.0 / NELO_PER_T
    found = []
    for p_old, copy in ((0.02, 0.0), (0.1, 0.0), (0.5, 0.0), (0.9, 0.0), (0.98, 0.0), (0.5, 0.9), (0.9, 0.9)):
        p_new = regressed_to(p_old, t0, copy)
        truth_h0 = baseline_unit_distribution(p_old, p_new, copy)
        name = (f"baseline, defaults, old scores {p_old:g}" + (f", {copy:.0%} repeated" if copy else "")
                + f" (H0: new scores {p_new:.3f}, t {_t_value(truth_h0, GRID9):+.3f})")
        found.append(Setting(name, "nElo -50 / 0", GRID9, truth_h0, baseline_unit_distribution(p_old, p_old, copy),
                             lambda counts: llr_t_value(counts, GRID9, t0, 0.0)))
    return found


def settings() -> list[Setting]:
    """The simulated settings (see the module docstring)."""
    pair_points = np.asarray(PAIR_POINTS)
    s0, s1 = elo_to_score(-20.0), elo_to_score(0.0)
    t0 = math.sqrt(2.0) * -20.0 / NELO_PER_T
    grid25 = np.linspace(0.0, 1.0, 51)
    return [
        Setting("win/draw/loss, pairs, logistic", "Elo -20 / 0", pair_points, pair_distribution(-20.0),
                pair_distribution(0.0), lambda counts: llr_expected_score(counts, pair_points, s0, s1)),
        Setting("win/draw/loss, pairs, normalized", "nElo -20 / 0", pair_points,
                pair_distribution(elo_with_pair_t_value(t0)), pair_distribution(0.0),
                lambda counts: llr_t_value(counts, pair_points, t0, 0.0)),
        Setting("bounded score 0..25, paired difference", "mean -1 / 0 points", grid25,
                bounded_difference_distribution(1.0), bounded_difference_distribution(0.0),
                lambda counts: llr_expected_score(counts, grid25, 0.48, 0.5)),
        Setting("bounded score 0..25, paired difference", "mean -0.5 / 0 points", grid25,
                bounded_difference_distribution(0.5), bounded_difference_distribution(0.0),
                lambda counts: llr_expected_score(counts, grid25, 0.49, 0.5)),
        Setting("0/1 success, paired difference", "success -10% / 0", np.array([0.0, 0.5, 1.0]),
                success_difference_distribution(0.1), success_difference_distribution(0.0),
                lambda counts: llr_expected_score(counts, np.array([0.0, 0.5, 1.0]), 0.45, 0.5)),
    ]


# --------------------------------------------------------------------------- simulation


def fixed_size(setting: Setting, alpha: float = ALPHA, beta: float = BETA) -> float:
    """Pairs a fixed-size test on the mean needs for the same error rates (normal approximation)."""
    s0, sd0 = setting.mean_sd(setting.truth_h0)
    s1, sd1 = setting.mean_sd(setting.truth_h1)
    z = NormalDist().inv_cdf
    return ((z(1 - alpha) * sd0 + z(1 - beta) * sd1) / (s1 - s0)) ** 2


def fixed_size_rates(setting: Setting, n: int, gates: int, rng: np.random.Generator) -> tuple[float, float]:
    """Simulated (false alarm, power) of the fixed-size test with ``n`` pairs."""
    s0, sd0 = setting.mean_sd(setting.truth_h0)
    threshold = s0 + NormalDist().inv_cdf(1 - ALPHA) * sd0 / math.sqrt(n)  # mean below: fail

    def fail_rate(truth: np.ndarray) -> float:
        means = rng.multinomial(n, truth, size=gates) @ setting.points / n
        return float((means < threshold).mean())

    return fail_rate(setting.truth_h1), fail_rate(setting.truth_h0)


@dataclass(frozen=True)
class Gates:
    """Outcomes of simulated sequential gates."""

    accepted_h0: np.ndarray
    capped: np.ndarray
    units: np.ndarray

    @property
    def fail_rate(self) -> float:
        return float(self.accepted_h0.mean())


def simulate(setting: Setting, truth: np.ndarray, gates: int, cap: int, rng: np.random.Generator,
             chunk: int = 64) -> Gates:
    """Runs ``gates`` sequential tests on pairs drawn from ``truth``, testing after every pair."""
    lower, upper = llr_bounds(ALPHA, BETA)
    cdf = np.cumsum(truth)
    cdf[-1] = 1.0
    counts = np.zeros((gates, len(truth)))
    accepted_h0 = np.zeros(gates, dtype=bool)
    units = np.full(gates, cap)
    active = np.arange(gates)
    done = 0
    while active.size and done < cap:
        size = min(chunk, cap - done)
        drawn = np.searchsorted(cdf, rng.random((active.size, size)), side="right")
        steps = counts[active][:, None, :] + np.cumsum(np.eye(len(truth))[drawn], axis=1)
        llr = setting.llr(steps)
        crossed = (llr <= lower) | (llr >= upper)
        stopped = crossed.any(axis=1)
        first = crossed.argmax(axis=1)
        finished = active[stopped]
        units[finished] = done + first[stopped] + 1
        accepted_h0[finished] = llr[stopped, first[stopped]] <= lower
        counts[active] = steps[:, -1, :]
        active = active[~stopped]
        done += size
    capped = np.zeros(gates, dtype=bool)
    capped[active] = True
    return Gates(accepted_h0=accepted_h0, capped=capped, units=units)


def measure(setting: Setting, gates: int, seed: int, cap_factor: float = 5.0, midpoint: bool = False,
            fixed_check: bool = True) -> dict[str, object]:
    """Simulates one setting at both truths; returns the row of the table."""
    rng = np.random.default_rng(seed)
    n_fixed = fixed_size(setting)
    cap = math.ceil(cap_factor * n_fixed)
    at_h1 = simulate(setting, setting.truth_h1, gates, cap, rng)
    at_h0 = simulate(setting, setting.truth_h0, gates, cap, rng)
    row: dict[str, object] = {
        "setting": setting.name, "bounds": setting.bounds, "gates": gates, "cap": cap,
        "false_alarm": at_h1.fail_rate, "power": at_h0.fail_rate,
        "capped": int(at_h1.capped.sum() + at_h0.capped.sum()),
        "pairs_h1": float(at_h1.units.mean()), "pairs_h0": float(at_h0.units.mean()),
        "pairs_sd_h1": float(at_h1.units.std()), "pairs_sd_h0": float(at_h0.units.std()),
        "n_fixed": n_fixed,
    }
    row["ratio"] = max(row["pairs_h1"], row["pairs_h0"]) / n_fixed
    floor = 0.5 / gates
    row["n_fixed_achieved"] = fixed_size(setting, alpha=max(1 - row["power"], floor),
                                         beta=max(row["false_alarm"], floor))
    row["ratio_achieved"] = max(row["pairs_h1"], row["pairs_h0"]) / row["n_fixed_achieved"]
    if fixed_check:
        row["fixed_false_alarm"], row["fixed_power"] = fixed_size_rates(setting, math.ceil(n_fixed), gates, rng)
    if midpoint:
        middle = (setting.truth_h0 + setting.truth_h1) / 2
        row["pairs_mid"] = float(simulate(setting, middle, gates, cap, rng).units.mean())
    return row


def markdown(rows: list[dict[str, object]]) -> str:
    """The results as a Markdown table."""
    mid = any("pairs_mid" in row for row in rows)
    head = ("| setting | bounds (H0 / H1) | gates | false alarm (fail at H1) | power (fail at H0) "
            "| mean pairs at H1 / H0 | fixed-size n | ratio | fixed-size n at the achieved rates | ratio "
            "| fixed-size test: false alarm / power "
            + ("| mean pairs midway " if mid else "") + "| capped (cap) |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for row in rows:
        fixed = (f"{row['fixed_false_alarm']:.3f} / {row['fixed_power']:.3f}"
                 if "fixed_false_alarm" in row else "")
        lines.append(
            f"| {row['setting']} | {row['bounds']} | {row['gates']} | {row['false_alarm']:.3f} | {row['power']:.3f} "
            f"| {row['pairs_h1']:.0f} / {row['pairs_h0']:.0f} | {row['n_fixed']:.0f} | {row['ratio']:.2f} "
            f"| {row['n_fixed_achieved']:.0f} | {row['ratio_achieved']:.2f} | {fixed} "
            + (f"| {row.get('pairs_mid', float('nan')):.0f} " if mid else "")
            + f"| {row['capped']} ({row['cap']}) |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gates", type=int, default=2000, help="Simulated gates per setting and truth")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=5.0, help="Cap on pairs, as a multiple of the fixed-size n")
    parser.add_argument("--midpoint", action="store_true", help="Also the mean pairs midway between H0 and H1")
    parser.add_argument("--defaults", action="store_true",
                        help="Only the gate's shipped defaults against a baseline (shipped_defaults())")
    args = parser.parse_args(argv)
    rows = []
    for index, setting in enumerate(shipped_defaults() if args.defaults else settings()):
        start = time.perf_counter()
        rows.append(measure(setting, args.gates, args.seed + index, args.cap, args.midpoint))
        print(f"{setting.name}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
