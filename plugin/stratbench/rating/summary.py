"""The typed result of a bootstrapped rating."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RatingSummary"]


@dataclass(frozen=True)
class RatingSummary:
    """Holds bootstrapped Bradley–Terry ratings for one scope (all games, or one game).

    The per-agent tuples are aligned with ``agents``. Statistics are over the resamples whose
    fit succeeded; ``n_failed`` says how many did not, and they are NaN when none succeeded.

    Attributes:
        agents: The rated agents, in the order used by the fit.
        mean: The mean rating over the successful resamples (the reported rating).
        low: The lower percentile bound, the ``(1 - level) / 2`` quantile.
        high: The upper percentile bound, the ``(1 + level) / 2`` quantile.
        median: The median rating.
        n_matches: The number of rated (two-sided) matches each agent played in this scope.
            A rating with ``n_matches == 0`` comes from the prior only.
        n_resamples: The number of resamples drawn.
        n_failed: The number of resamples whose fit raised and was left out.
        alpha: The regularisation strength.
        ties: The tie policy, ``"drop"`` or ``"half"``.
        level: The interval's coverage, e.g. 0.9 for the 5th–95th percentiles.
        mode: ``"default"`` or ``"gamebench"``.
        seed: The seed of the resampling RNG.
        game: The game id, or None for the overall rating.
        per_game: The summary of each game (sorted), for an overall summary.
        warning: A message when too many resamples failed, else None.
        n_ignored: The number of matches left out because they did not have two sides.
    """

    agents: tuple[str, ...]
    mean: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    median: tuple[float, ...]
    n_matches: tuple[int, ...]
    n_resamples: int
    n_failed: int
    alpha: float
    ties: str
    level: float
    mode: str
    seed: int | None
    game: str | None = None
    per_game: dict[str, RatingSummary] = field(default_factory=dict)
    warning: str | None = None
    n_ignored: int = 0

    @property
    def ratings(self) -> dict[str, float]:
        """Returns each agent's mean rating."""
        return dict(zip(self.agents, self.mean))

    def interval(self, agent: str) -> tuple[float, float]:
        """Returns the percentile interval ``(low, high)`` of ``agent``."""
        k = self.agents.index(agent)
        return self.low[k], self.high[k]

    def to_dict(self) -> dict[str, Any]:
        """Returns the summary as builtin types only (NaN becomes None), ready for JSON."""
        return {
            "agents": list(self.agents),
            "mean": _floats(self.mean),
            "low": _floats(self.low),
            "high": _floats(self.high),
            "median": _floats(self.median),
            "n_matches": [int(n) for n in self.n_matches],
            "n_resamples": int(self.n_resamples),
            "n_failed": int(self.n_failed),
            "alpha": float(self.alpha),
            "ties": str(self.ties),
            "level": float(self.level),
            "mode": str(self.mode),
            "seed": None if self.seed is None else int(self.seed),
            "game": None if self.game is None else str(self.game),
            "per_game": {str(g): s.to_dict() for g, s in self.per_game.items()},
            "warning": None if self.warning is None else str(self.warning),
            "n_ignored": int(self.n_ignored),
        }


def _floats(values: tuple[float, ...]) -> list[float | None]:
    """Converts values to builtin floats, with None for NaN."""
    return [None if math.isnan(v) else float(v) for v in values]
