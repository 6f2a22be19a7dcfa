"""GameBench compatibility: the exact resampling that produced GameBench's Table 1.

GameBench (Costarelli et al., 2024) computed its published ratings with Python's ``random``
seeded once with 0, B = 1000 resamples (the paper says 10,000), ``alpha = 0.001``, ties dropped
and fractional scores used as weights. The random numbers were consumed in this order:

1. for each game in sorted id order: B resamples ``random.choices(game_matches, k=n_game)``
   (uniform within the game);
2. B resamples of all matches, ``random.choices(matches, k=n, weights=1/N_game)``;
3. the same again, which overwrote step 2's ratings.

Tied matches stay in the pools (they are drawn, then add nothing), every fit rates every agent
(so an agent that never played a game gets a prior-only per-game rating), and the reported
rating is the mean over resamples. :func:`_gamebench_bootstrap` replays this order; step 2's
draws are made but not fitted, since nothing of them survives.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate

import numpy as np

from stratbench.rating._resample import (
    _Pool,
    _assemble,
    _category_counts,
    _chunk_size,
    _fit_stack,
    _n_matches,
    _pool,
    _summarise,
)
from stratbench.rating.data import MatchResult
from stratbench.rating.summary import RatingSummary

__all__ = [
    "GAMEBENCH_AGENTS",
    "GAMEBENCH_ALPHA",
    "GAMEBENCH_RESAMPLES",
    "GAMEBENCH_SEED",
    "GAMEBENCH_TIES",
]

GAMEBENCH_AGENTS = ("random", "human", "gpt-3", "gpt-3-cot", "gpt-4", "gpt-4-cot", "gpt-4-rap")
"""GameBench's fixed agent order (it sets the parameter index of each agent)."""
GAMEBENCH_ALPHA = 0.001
"""GameBench's regularisation strength."""
GAMEBENCH_RESAMPLES = 1000
"""The number of resamples behind GameBench's published tables."""
GAMEBENCH_SEED = 0
"""The seed GameBench passed to ``random.seed``."""
GAMEBENCH_TIES = "drop"
"""GameBench's tie policy."""


def _gamebench_agents(matches: Sequence[MatchResult]) -> tuple[str, ...]:
    """Returns GameBench's agents present in ``matches`` in its order, then the rest sorted."""
    seen = {a for m in matches for a in m.agents}
    known = tuple(a for a in GAMEBENCH_AGENTS if a in seen)
    return known + tuple(sorted(seen - set(known)))


def _draws(
    rng: random.Random, n: int, n_resamples: int, cum_weights: list[float] | None = None
) -> np.ndarray:
    """Draws ``n_resamples`` rows of ``n`` match indices exactly as ``random.choices`` does."""
    population = range(n)
    if cum_weights is None:
        rows = [rng.choices(population, k=n) for _ in range(n_resamples)]
    else:
        rows = [rng.choices(population, cum_weights=cum_weights, k=n) for _ in range(n_resamples)]
    return np.asarray(rows, dtype=np.int64).reshape(n_resamples, n)


def _fit_draws(
    pool: _Pool, draws: np.ndarray, alpha: float, engine: str, max_iter: int, tol: float
) -> tuple[np.ndarray, np.ndarray]:
    """Fits the resamples given by ``draws`` chunk by chunk; returns parameters and failures."""
    step = _chunk_size(pool.n_agents, pool.n_categories)
    parts = []
    for start in range(0, draws.shape[0], step):
        counts = _category_counts(pool, draws[start : start + step])
        parts.append(_fit_stack(_assemble(pool, counts), alpha, engine, max_iter, tol))
    return np.concatenate([p for p, _ in parts]), np.concatenate([f for _, f in parts])


def _gamebench_bootstrap(
    rated: Sequence[MatchResult],
    *,
    agents: tuple[str, ...],
    n_resamples: int,
    alpha: float,
    ties: str,
    seed: int,
    level: float,
    per_game: bool,
    engine: str,
    max_iter: int,
    tol: float,
    n_ignored: int,
) -> RatingSummary:
    """Replays GameBench's resampling order on two-sided matches ``rated`` (in file order)."""
    rng = random.Random(seed)
    index = {a: i for i, a in enumerate(agents)}
    info = dict(alpha=alpha, ties=ties, mode="gamebench", seed=seed)
    games: dict[str, RatingSummary] = {}
    for game in sorted({m.game for m in rated}):
        subset = [m for m in rated if m.game == game]
        draws = _draws(rng, len(subset), n_resamples)
        if not per_game:
            continue  # the draws still advance the RNG, as in GameBench
        params, failed = _fit_draws(_pool(subset, index, ties), draws, alpha, engine, max_iter, tol)
        games[game] = _summarise(
            params, failed, agents=agents, n_matches=_n_matches(subset, agents),
            level=level, game=game, **info,
        )
    n_game = Counter(m.game for m in rated)
    cum_weights = list(accumulate(1 / n_game[m.game] for m in rated))
    _draws(rng, len(rated), n_resamples, cum_weights)  # GameBench's first, overwritten pass
    draws = _draws(rng, len(rated), n_resamples, cum_weights)
    params, failed = _fit_draws(_pool(rated, index, ties), draws, alpha, engine, max_iter, tol)
    return _summarise(
        params, failed, agents=agents, n_matches=_n_matches(rated, agents), level=level,
        per_game=games, n_ignored=n_ignored, **info,
    )
