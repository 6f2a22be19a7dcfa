"""Simulates ``--schedule adaptive`` against a full round robin, with agents of known strength.

Each repetition draws the outcome of every match of a round robin (every
ordered seating of every pair of agents, ``--per-seating`` times) from the
Bradley–Terry model of the true strengths, then rates:

* ``round robin``: every match;
* ``adaptive``: ``--share`` of the matches, chosen one after another by
  :class:`stratbench.rating.adaptive.AdaptivePlanner` out of the same
  candidates, with one match of look-ahead as in pytest (the next match is
  chosen while the current one is in play);
* ``random subset``: the same number of matches drawn uniformly (the control).

Rank accuracy is Kendall's τ between the fitted Bradley–Terry ratings and the
true strengths, averaged over the repetitions (± its standard error).

Usage::

    python bench/adaptive.py [--agents 8] [--per-seating 3] [--share 0.6] [--repetitions 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

import numpy as np
from scipy.stats import kendalltau

from stratbench.rating import MatchResult, fit
from stratbench.rating.adaptive import AdaptivePlanner


def round_robin(agents: list[str], per_seating: int) -> list[tuple[str, str]]:
    """Returns every ordered seating of every pair, ``per_seating`` times, in a fixed order."""
    return [(a, b) for _ in range(per_seating) for a in agents for b in agents if a != b]


def play(seatings: list[tuple[str, str]], strength: dict[str, float], rng: np.random.Generator) -> list[MatchResult]:
    """Draws each match's winner from the Bradley–Terry model of the true strengths."""
    matches = []
    for k, (a, b) in enumerate(seatings):
        p = 1.0 / (1.0 + np.exp(strength[b] - strength[a]))
        first_wins = bool(rng.random() < p)
        matches.append(MatchResult("sim", (a, b), (float(first_wins), float(not first_wins)), f"m{k}"))
    return matches


def tau(matches: list[MatchResult], agents: list[str], strength: dict[str, float]) -> float:
    """Returns Kendall's τ between the fitted ratings and the true strengths."""
    fitted = fit(matches, agents=agents)
    return float(kendalltau([fitted[a] for a in agents], [strength[a] for a in agents]).statistic)


def adaptive(matches: list[MatchResult], agents: list[str], budget: int) -> list[MatchResult]:
    """Plays ``budget`` of the candidate matches as the plugin does: choose the next, then finish the current."""
    planner = AdaptivePlanner(agents)
    remaining = list(matches)
    played: list[MatchResult] = []

    def take() -> MatchResult | None:
        if len(played) + len(planner.pending) >= budget:
            return None
        index = planner.choose([m.agents for m in remaining])
        if index is None:
            return None
        chosen = remaining.pop(index)
        planner.add_pending(chosen.agents)
        return chosen

    current = take()
    while current is not None:
        following = take()
        planner.add_result(current)
        played.append(current)
        current = following
    return played


def _se(values: np.ndarray) -> float:
    return float(values.std(ddof=1) / np.sqrt(len(values)))


def information(matches: list[MatchResult], strength: dict[str, float]) -> float:
    """Returns the summed Fisher information p(1 - p) of matches at the true strengths."""
    total = 0.0
    for match in matches:
        p = 1.0 / (1.0 + np.exp(strength[match.agents[1]] - strength[match.agents[0]]))
        total += p * (1.0 - p)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=8)
    parser.add_argument("--per-seating", type=int, default=3)
    parser.add_argument("--share", type=float, default=0.6)
    parser.add_argument("--spread", type=float, default=6.0, help="Strength of the best minus the worst agent")
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    agents = [f"a{k}" for k in range(args.agents)]
    strength = dict(zip(agents, np.linspace(-args.spread / 2, args.spread / 2, args.agents)))
    seatings = round_robin(agents, args.per_seating)
    budget = int(args.share * len(seatings))
    rng = np.random.default_rng(args.seed)
    taus: dict[str, list[float]] = {"round robin": [], "adaptive": [], "random subset": []}
    shares: dict[str, list[float]] = {"round robin": [], "adaptive": [], "random subset": []}
    started = time.perf_counter()
    for _ in range(args.repetitions):
        matches = play(seatings, strength, rng)
        subset = [matches[k] for k in sorted(rng.choice(len(matches), size=budget, replace=False))]
        full = information(matches, strength)
        for name, played in (("round robin", matches), ("adaptive", adaptive(matches, agents, budget)),
                             ("random subset", subset)):
            taus[name].append(tau(played, agents, strength))
            shares[name].append(information(played, strength) / full)
    elapsed = time.perf_counter() - started
    print(f"{args.agents} agents, strengths evenly spaced over {args.spread} (log scale), "
          f"{len(seatings)} round-robin matches ({args.per_seating} per seating), adaptive budget {budget} "
          f"({budget / len(seatings):.0%}), {args.repetitions} repetitions, seed {args.seed}; "
          f"{elapsed:.1f} s on {platform.python_implementation()} {platform.python_version()}")
    print()
    best = sorted((information([MatchResult("sim", seating, (1.0, 0.0))], strength) for seating in seatings),
                  reverse=True)
    print(f"The {budget} most informative matches of the round robin carry "
          f"{sum(best[:budget]) / sum(best):.1%} of its Fisher information (at the true strengths).")
    print()
    print("| schedule | matches | Kendall τ (mean ± s.e.) | τ minus the round robin's, same outcomes "
          "(mean ± s.e.) | exact order (share of runs) | share of the round robin's information |")
    print("|---|---:|---:|---:|---:|---:|")
    full = np.array(taus["round robin"])
    for name, values in taus.items():
        array = np.array(values)
        size = len(seatings) if name == "round robin" else budget
        paired = array - full
        print(f"| {name} | {size} | {array.mean():.3f} ± {_se(array):.3f} | "
              f"{paired.mean():+.3f} ± {_se(paired):.3f} | {np.mean(np.isclose(array, 1.0)):.2f} | "
              f"{np.mean(shares[name]):.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
