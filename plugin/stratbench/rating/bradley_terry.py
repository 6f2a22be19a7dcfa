"""Bradley–Terry ratings from match results: choix's ILSR, run by its vectorised twin.

Under the Bradley–Terry model agent ``i`` beats agent ``j`` with probability
``exp(r_i) / (exp(r_i) + exp(r_j))``. :func:`fit` finds the regularised maximum-likelihood
ratings of :func:`choix.ilsr_pairwise_dense` on a weighted comparison matrix, computed by
:mod:`stratbench.rating._ilsr` (the same iteration, equal to round-off; choix itself is imported
only for a matrix that iteration cannot resolve, and then raises its own error): ``C[i, j]`` sums
the fractional scores of ``i`` against ``j`` (a score is a weight), so a 0.7/0.3 match is 0.7 of
a win for one side and 0.3 for the other. Ties follow an explicit policy, ``"drop"`` (GameBench)
or ``"half"`` (half a win each way). Only two-sided matches are rated; matches with more sides
and self-play matches are ignored by the fit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from stratbench.rating._ilsr import _ilsr_batch
from stratbench.rating._pairwise import (
    _agent_order,
    _check_options,
    _contributions,
    _matrix,
    _two_sided,
)
from stratbench.rating.data import MatchResult

__all__ = [
    "DEFAULT_ALPHA",
    "AverageScores",
    "ScoreStats",
    "average_scores",
    "fit",
    "win_probability_matrix",
]

DEFAULT_ALPHA = 0.01
"""Default regularisation: a pseudo-count of comparisons added between every pair of agents."""


def fit(
    matches: Iterable[MatchResult],
    *,
    agents: Sequence[str] | None = None,
    alpha: float = DEFAULT_ALPHA,
    ties: str = "drop",
    max_iter: int = 100,
    tol: float = 1e-8,
) -> dict[str, float]:
    """Fits Bradley–Terry ratings to two-sided matches.

    Args:
        matches: The match results; matches without exactly two sides are ignored.
        agents: The agents to rate, in output order. Defaults to the sorted agents of the rated
            matches. An agent that played no rated match still gets a (prior-only) rating.
        alpha: The regularisation strength, > 0. It keeps every agent's rating finite, even one
            that never lost.
        ties: ``"drop"`` ignores matches with equal scores; ``"half"`` counts them as half a
            win each way.
        max_iter: The maximum number of ILSR iterations.
        tol: The convergence tolerance of choix's ILSR.

    Returns:
        The rating of each agent (natural-log scale), centred to mean 0.

    Raises:
        ValueError: If ``alpha <= 0``, ``ties`` is unknown, a score lies outside ``[0, 1]``,
            there are fewer than two agents, or an agent is missing from ``agents``.
        RuntimeError: If choix's ILSR does not converge in ``max_iter`` iterations.
    """
    _check_options(alpha, ties)
    rated = _two_sided(matches)
    order = _agent_order(rated, agents)
    if len(order) < 2:
        raise ValueError(f"need at least two agents to fit ratings, got {list(order)}")
    index = {a: i for i, a in enumerate(order)}
    comparisons = _matrix(_contributions(rated, index, ties), len(order))
    fitted, unresolved = _ilsr_batch(comparisons[None], alpha, max_iter=max_iter, tol=tol)
    if unresolved[0]:
        import choix  # lean: choix loads scipy.stats; only a matrix the batch cannot resolve needs it

        params = choix.ilsr_pairwise_dense(comparisons, alpha=alpha, max_iter=max_iter, tol=tol)
    else:
        params = fitted[0]
    params = params - params.mean()
    return {a: float(p) for a, p in zip(order, params)}


def win_probability_matrix(ratings: Mapping[str, float]) -> tuple[tuple[str, ...], np.ndarray]:
    """Computes the Bradley–Terry probability that each agent beats each other agent.

    Args:
        ratings: The rating of each agent, e.g. the output of :func:`fit`.

    Returns:
        The agents in ``ratings`` order, and a matrix ``P`` with
        ``P[i, j] = 1 / (1 + exp(r_j - r_i))``; ``P + P.T`` is all ones and the diagonal is 0.5.
    """
    agents = tuple(ratings)
    r = np.array([ratings[a] for a in agents], dtype=float)
    return agents, 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))


class ScoreStats(NamedTuple):
    """Holds an agent's mean score and the number of match sides it was averaged over."""

    mean: float
    n: int


@dataclass(frozen=True)
class AverageScores:
    """Holds average scores, overall and per game.

    Attributes:
        overall: Each agent's mean score over all its matches.
        per_game: For each game (sorted), each agent that played it and its mean score there.
            An agent that never played a game is absent from that game's mapping.
    """

    overall: dict[str, ScoreStats]
    per_game: dict[str, dict[str, ScoreStats]]


def average_scores(matches: Iterable[MatchResult]) -> AverageScores:
    """Computes each agent's total score divided by the number of matches it played.

    This is GameBench's Table 2 statistic. Every side of every match counts, including ties,
    matches with more than two sides, and both sides of a self-play match.

    Args:
        matches: The match results.

    Returns:
        The overall and per-game averages; agents and games are sorted.
    """
    totals: dict[tuple[str, str | None], list[float]] = {}
    for m in matches:
        for agent, score in zip(m.agents, m.scores):
            for key in ((agent, None), (agent, m.game)):
                acc = totals.setdefault(key, [0.0, 0])
                acc[0] += score
                acc[1] += 1
    stats = {key: ScoreStats(total / n, int(n)) for key, (total, n) in totals.items()}
    agents = sorted({a for a, _ in stats})
    games = sorted({g for _, g in stats if g is not None})
    return AverageScores(
        overall={a: stats[(a, None)] for a in agents},
        per_game={g: {a: stats[(a, g)] for a in agents if (a, g) in stats} for g in games},
    )
