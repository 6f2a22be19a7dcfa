"""Game-balanced bootstrap of Bradley–Terry ratings, with percentile intervals.

Each overall resample draws ``n`` matches with replacement, match ``m`` with probability
proportional to ``1 / N_game(m)``, so every game carries the same sampling mass however many
matches it has (GameBench §3.3). Each per-game resample draws that game's ``N_game`` matches
uniformly. Every resample is fitted with the Bradley–Terry MLE (see
:mod:`stratbench.rating.bradley_terry`); the rating is the mean over resamples and the interval
spans the ``(1 - level) / 2`` and ``(1 + level) / 2`` percentiles.

Two modes:

* ``"default"``: ``numpy.random.default_rng(seed)``; the overall resamples are drawn first, then
  each game in sorted order. A per-game fit rates only the agents that played that game. Draws
  are multinomial counts over distinct contributions, so a resample's comparison matrix is a
  count-weighted sum; matrices are fitted in vectorised batches.
* ``"gamebench"``: GameBench's own procedure, random stream included, which reproduces its
  published Table 1 (see :mod:`stratbench.rating.gamebench`).

Only two-sided matches are rated; others are counted in ``n_ignored``. Tied matches stay in the
sampling pool whatever the tie policy. A resample whose fit raises ``RuntimeError`` or
``ValueError`` is counted in ``n_failed`` and left out of the statistics; a summary whose
failures exceed 1% of its resamples carries a ``warning``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from stratbench.rating._pairwise import _agent_order, _check_options, _two_sided
from stratbench.rating._resample import (
    ENGINES,
    _assemble,
    _chunk_size,
    _fit_stack,
    _n_matches,
    _pool,
    _summarise,
)
from stratbench.rating.bradley_terry import DEFAULT_ALPHA
from stratbench.rating.data import MatchResult
from stratbench.rating.gamebench import (
    GAMEBENCH_ALPHA,
    GAMEBENCH_RESAMPLES,
    GAMEBENCH_SEED,
    GAMEBENCH_TIES,
    _gamebench_agents,
    _gamebench_bootstrap,
)
from stratbench.rating.summary import RatingSummary

__all__ = ["DEFAULT_RESAMPLES", "MODES", "bootstrap"]

DEFAULT_RESAMPLES = 10_000
"""The default number of resamples, as stated in the GameBench paper."""
MODES = ("default", "gamebench")


def bootstrap(
    matches: Iterable[MatchResult],
    *,
    mode: str = "default",
    n_resamples: int | None = None,
    level: float = 0.90,
    alpha: float | None = None,
    ties: str | None = None,
    seed: int | None = None,
    agents: Sequence[str] | None = None,
    per_game: bool = True,
    engine: str = "batch",
    max_iter: int = 100,
    tol: float = 1e-8,
) -> RatingSummary:
    """Bootstraps Bradley–Terry ratings overall and per game.

    Options left as None take the mode's defaults: 10,000 resamples, ``alpha=DEFAULT_ALPHA``,
    ``ties="drop"`` and seed 0 in ``"default"`` mode; 1000 resamples, ``alpha=0.001``,
    ``ties="drop"`` and seed 0 in ``"gamebench"`` mode. Explicit values are honoured in both.

    Args:
        matches: The match results; only two-sided matches are rated.
        mode: ``"default"`` or ``"gamebench"`` (GameBench's exact procedure and RNG stream).
        n_resamples: The number of resamples B.
        level: The coverage of the percentile interval, in (0, 1).
        alpha: The regularisation strength, > 0.
        ties: The tie policy, ``"drop"`` or ``"half"``.
        seed: The seed of the resampling RNG.
        agents: The agents to rate, in order. Defaults to the sorted agents (``"default"``) or
            GameBench's agent order followed by any others sorted (``"gamebench"``).
        per_game: Whether to add a bootstrap of each game.
        engine: ``"batch"`` fits resamples with a vectorised twin of
            :func:`choix.ilsr_pairwise_dense` (falling back to choix for any it cannot
            resolve); ``"choix"`` calls choix for every resample.
        max_iter: The maximum number of ILSR iterations per fit.
        tol: The ILSR convergence tolerance.

    Returns:
        The overall summary, with the per-game summaries in ``per_game``.

    Raises:
        ValueError: If an option is invalid, there are no two-sided matches, fewer than two
            agents, or a score outside ``[0, 1]``.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    gamebench = mode == "gamebench"
    if n_resamples is None:
        n_resamples = GAMEBENCH_RESAMPLES if gamebench else DEFAULT_RESAMPLES
    if alpha is None:
        alpha = GAMEBENCH_ALPHA if gamebench else DEFAULT_ALPHA
    if ties is None:
        ties = GAMEBENCH_TIES if gamebench else "drop"
    if seed is None:
        seed = GAMEBENCH_SEED if gamebench else 0
    _check_options(alpha, ties)
    if not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie in (0, 1), got {level!r}")

    matches = list(matches)
    rated = _two_sided(matches)
    if not rated:
        raise ValueError("no two-sided matches to rate")
    if agents is None and gamebench:
        order = _gamebench_agents(rated)
    else:
        order = _agent_order(rated, agents)
    if len(order) < 2:
        raise ValueError(f"need at least two agents to fit ratings, got {list(order)}")
    options = dict(
        n_resamples=n_resamples, alpha=alpha, ties=ties, seed=seed, level=level,
        engine=engine, max_iter=max_iter, tol=tol,
    )
    n_ignored = len(matches) - len(rated)
    if gamebench:
        return _gamebench_bootstrap(
            rated, agents=order, per_game=per_game, n_ignored=n_ignored, **options
        )
    return _default_bootstrap(
        rated, agents=order, per_game=per_game, n_ignored=n_ignored, **options
    )


def _default_bootstrap(
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
    """Runs the numpy-seeded bootstrap: overall first, then each game in sorted order."""
    rng = np.random.default_rng(seed)
    fit = dict(alpha=alpha, engine=engine, max_iter=max_iter, tol=tol)
    info = dict(alpha=alpha, ties=ties, mode="default", seed=seed)
    n_game = Counter(m.game for m in rated)
    weights = np.array([1.0 / n_game[m.game] for m in rated])
    params, failed = _resample(rated, agents, weights, rng, n_resamples, ties, **fit)
    games: dict[str, RatingSummary] = {}
    for game in sorted(n_game) if per_game else ():
        subset = [m for m in rated if m.game == game]
        players = tuple(a for a in agents if any(a in m.agents for m in subset))
        if len(players) < 2:
            continue
        sub_params, sub_failed = _resample(
            subset, players, np.ones(len(subset)), rng, n_resamples, ties, **fit
        )
        games[game] = _summarise(
            sub_params, sub_failed, agents=players, n_matches=_n_matches(subset, players),
            level=level, game=game, **info,
        )
    return _summarise(
        params, failed, agents=agents, n_matches=_n_matches(rated, agents), level=level,
        per_game=games, n_ignored=n_ignored, **info,
    )


def _resample(
    matches: Sequence[MatchResult],
    agents: tuple[str, ...],
    weights: np.ndarray,
    rng: np.random.Generator,
    n_resamples: int,
    ties: str,
    *,
    alpha: float,
    engine: str,
    max_iter: int,
    tol: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Draws and fits ``n_resamples`` weighted resamples of ``matches`` of size ``len(matches)``.

    Drawing ``n`` matches with probabilities ``p`` and summing their contributions equals
    drawing multinomial counts over the distinct contributions with the summed probabilities,
    so only one count per distinct contribution is drawn.
    """
    pool = _pool(matches, {a: i for i, a in enumerate(agents)}, ties)
    probs = np.bincount(pool.category, weights=weights, minlength=pool.n_categories)
    probs /= probs.sum()
    step = _chunk_size(pool.n_agents, pool.n_categories)
    params, failed = [], []
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        counts = rng.multinomial(len(matches), probs, size=size)
        p, f = _fit_stack(_assemble(pool, counts), alpha, engine, max_iter, tol)
        params.append(p)
        failed.append(f)
    return np.concatenate(params), np.concatenate(failed)
