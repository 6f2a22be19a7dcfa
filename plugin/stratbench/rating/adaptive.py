"""Choosing the next match that most shrinks the overlap of the agents' rating intervals.

The ratings are Bradley–Terry's (:func:`stratbench.rating.fit`). Their
uncertainty is the Laplace approximation of the regularised likelihood: the
precision matrix is a Gaussian prior's (standard deviation ``prior_sd`` on
every rating) plus, for every match between ``a`` and ``b``, its Fisher
information ``p(1 - p) u uᵀ`` with ``u = e_a - e_b`` and ``p`` the fitted
probability that ``a`` wins. An agent's interval is its rating ± ``z`` times
its standard deviation.

The *overlap* is the summed length over which the intervals of every two
agents overlap: zero once every agent is separated from every other. A
candidate match between ``a`` and ``b`` would add its information; the rank-one
update (Sherman–Morrison) gives the covariance after it, and so the overlap
after it with the ratings as they stand. :meth:`AdaptivePlanner.choose` picks
the candidate with the largest expected drop (ties: the largest drop in summed
variance, then the seating of that pairing played least, then the earliest
candidate). Matches chosen but not yet finished count with their information,
since it does not depend on their outcome.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from stratbench.rating.data import MatchResult

__all__ = ["AdaptivePlanner", "interval_overlap"]

DEFAULT_PRIOR_SD = 2.0
"""Prior standard deviation of a rating (natural-log scale): wide enough for any agent pairing."""
DEFAULT_Z = 1.6448536269514722
"""Interval half-width in standard deviations: a 90% interval, the reports' level."""


def interval_overlap(means: np.ndarray, sds: np.ndarray, z: float = DEFAULT_Z) -> float:
    """Returns the summed overlap length of the intervals ``means ± z·sds`` over every pair of agents.

    Examples:
        >>> float(interval_overlap(np.array([0.0, 1.0]), np.array([1.0, 1.0]), z=1.0))
        1.0
    """
    low, high = means - z * sds, means + z * sds
    overlap = np.minimum(high[:, None], high[None, :]) - np.maximum(low[:, None], low[None, :])
    return float(np.triu(np.clip(overlap, 0.0, None), k=1).sum())


@dataclass
class AdaptivePlanner:
    """Chooses matches among candidates, given the matches played and those in play.

    Args:
        agents: Every agent a candidate or a played match can name.
        prior_sd: Prior standard deviation of each rating.
        z: Interval half-width in standard deviations.
    """

    agents: Sequence[str]
    prior_sd: float = DEFAULT_PRIOR_SD
    z: float = DEFAULT_Z
    played: list[MatchResult] = field(default_factory=list)
    pending: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.agents = list(dict.fromkeys(self.agents))
        self._index = {agent: k for k, agent in enumerate(self.agents)}

    def add_result(self, match: MatchResult) -> None:
        """Adds a finished two-sided match (it stops being pending if it was); others are ignored."""
        if len(match.agents) != 2 or match.agents[0] == match.agents[1]:
            return
        if any(agent not in self._index for agent in match.agents):
            return
        if not all(0.0 <= score <= 1.0 for score in match.scores):
            return  # not a win share: Bradley–Terry cannot rate it
        seating = (match.agents[0], match.agents[1])
        if seating in self.pending:
            self.pending.remove(seating)
        self.played.append(match)

    def add_pending(self, seating: tuple[str, str]) -> None:
        """Notes a chosen match that has not finished yet."""
        self.pending.append(seating)

    def drop_pending(self, seating: tuple[str, str]) -> None:
        """Forgets a chosen match that ended without a rated result (skipped, errored)."""
        if seating in self.pending:
            self.pending.remove(seating)

    def ratings(self) -> np.ndarray:
        """Returns the ratings' posterior mode under the Gaussian prior, in :attr:`agents` order.

        A few Newton steps of the prior-regularised Bradley–Terry likelihood
        (ties count half a win each way): unlike the plain fit it stays finite
        and moderate after a handful of matches, so early choices are not
        steered by an agent that merely has not lost yet.
        """
        means = np.zeros(len(self.agents))
        if not self.played:
            return means
        first = np.array([self._index[m.agents[0]] for m in self.played])
        second = np.array([self._index[m.agents[1]] for m in self.played])
        scores = np.array([m.scores for m in self.played])
        share = np.where(scores[:, 0] == scores[:, 1], 0.5, scores[:, 0] / np.maximum(scores.sum(axis=1), 1e-12))
        for _ in range(25):
            p = 1.0 / (1.0 + np.exp(means[second] - means[first]))
            gradient = -means / self.prior_sd**2
            np.add.at(gradient, first, share - p)
            np.add.at(gradient, second, p - share)
            step = np.linalg.solve(self._precision(means), gradient)
            means = means + step
            if float(np.abs(step).max()) < 1e-9:
                break
        return means

    def covariance(self, means: np.ndarray) -> np.ndarray:
        """Returns the Laplace covariance of the ratings, counting played and pending matches."""
        return np.linalg.inv(self._precision(means, pending=True))

    def _precision(self, means: np.ndarray, *, pending: bool = False) -> np.ndarray:
        precision = np.eye(len(self.agents)) / self.prior_sd**2
        pairs = [m.agents for m in self.played] + (list(self.pending) if pending else [])
        for a, b in pairs:
            i, j = self._index[a], self._index[b]
            weight = _information(means[i], means[j])
            precision[i, i] += weight
            precision[j, j] += weight
            precision[i, j] -= weight
            precision[j, i] -= weight
        return precision

    def choose(self, candidates: Sequence[tuple[str, str]]) -> int | None:
        """Returns the index of the candidate seating that most shrinks the overlap, or None if there is none.

        A candidate of one agent against itself is never chosen.

        Args:
            candidates: Each candidate match as its (first seat, second seat) agents.
        """
        if not candidates:
            return None
        means = self.ratings()
        covariance = self.covariance(means)
        centre = np.eye(len(self.agents)) - 1.0 / len(self.agents)
        before = interval_overlap(means, _sds(centre @ covariance @ centre), self.z)
        variance = float(np.trace(centre @ covariance @ centre))
        seatings = Counter([m.agents for m in self.played] + list(self.pending))
        gains: dict[frozenset[str], tuple[float, float]] = {}
        best: tuple[float, float, int, int] | None = None
        chosen = None
        for position, (a, b) in enumerate(candidates):
            if a == b:
                continue  # an agent against itself tells nothing about the ratings
            pair = frozenset((a, b))
            if pair not in gains:
                after = _updated(covariance, self._index[a], self._index[b],
                                 _information(means[self._index[a]], means[self._index[b]]))
                after = centre @ after @ centre
                gains[pair] = (
                    round(before - interval_overlap(means, _sds(after), self.z), 12),
                    round(variance - float(np.trace(after)), 12),
                )
            key = (gains[pair][0], gains[pair][1], -seatings[(a, b)], -position)
            if best is None or key > best:
                best, chosen = key, position
        return chosen


def _sds(covariance: np.ndarray) -> np.ndarray:
    return np.sqrt(np.clip(np.diag(covariance), 0.0, None))


def _information(rating_a: float, rating_b: float) -> float:
    """Returns the Fisher information ``p(1 - p)`` of one match between two ratings."""
    p = 1.0 / (1.0 + np.exp(rating_b - rating_a))
    return float(p * (1.0 - p))


def _updated(covariance: np.ndarray, i: int, j: int, weight: float) -> np.ndarray:
    """Returns the covariance after one more match between ``i`` and ``j`` (Sherman–Morrison)."""
    u = np.zeros(len(covariance))
    u[i], u[j] = 1.0, -1.0
    cu = covariance @ u
    return covariance - weight * np.outer(cu, cu) / (1.0 + weight * float(u @ cu))
