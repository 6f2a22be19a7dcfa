"""Shared machinery of the bootstrap modes (private).

A resample is described by how many times it drew each match. Matches that add the same
comparisons (same pair, same fractional scores, or nothing at all) are merged into one
*category* once, so a resample is a count vector over categories and its comparison matrix is a
sparse sum assembled for a whole batch of resamples with one ``numpy.bincount``. The matrices are
then fitted in a batch (see :mod:`stratbench.rating._ilsr`) or one by one with choix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from stratbench.rating._ilsr import _ilsr_batch
from stratbench.rating._pairwise import _contributions
from stratbench.rating.data import MatchResult
from stratbench.rating.summary import RatingSummary

ENGINES = ("batch", "choix")
FAIL_WARN_FRACTION = 0.01
"""A summary carries a warning when more than this fraction of its resamples failed."""


@dataclass(frozen=True)
class _Pool:
    """Holds the matches of one scope, merged into categories of equal contributions.

    Attributes:
        category: For each match (in pool order), the index of its category.
        cell_a: For each category, the flat matrix cell ``i * n + j`` it adds ``value_a`` to.
        cell_b: For each category, the flat matrix cell ``j * n + i`` it adds ``value_b`` to.
        value_a: For each category, the fractional win of ``i`` over ``j``.
        value_b: For each category, the fractional win of ``j`` over ``i``.
        n_agents: The side of the comparison matrix.
    """

    category: np.ndarray
    cell_a: np.ndarray
    cell_b: np.ndarray
    value_a: np.ndarray
    value_b: np.ndarray
    n_agents: int

    @property
    def n_categories(self) -> int:
        """Returns the number of distinct contributions."""
        return len(self.value_a)


def _pool(matches: Sequence[MatchResult], index: dict[str, int], ties: str) -> _Pool:
    """Builds the category table of two-sided ``matches`` for agents numbered by ``index``."""
    n = len(index)
    rows = _contributions(matches, index, ties)
    cats, category = np.unique(rows, axis=0, return_inverse=True)
    i, j = cats[:, 0].astype(np.int64), cats[:, 1].astype(np.int64)
    return _Pool(
        category=category.reshape(-1),
        cell_a=i * n + j,
        cell_b=j * n + i,
        value_a=cats[:, 2],
        value_b=cats[:, 3],
        n_agents=n,
    )


def _category_counts(pool: _Pool, draws: np.ndarray) -> np.ndarray:
    """Converts drawn match indices ``(B, k)`` into category counts ``(B, K)``."""
    n_res, n_cat = draws.shape[0], pool.n_categories
    flat = pool.category[draws] + (np.arange(n_res) * n_cat)[:, None]
    return np.bincount(flat.ravel(), minlength=n_res * n_cat).reshape(n_res, n_cat)


def _assemble(pool: _Pool, counts: np.ndarray) -> np.ndarray:
    """Builds the comparison matrices ``(B, n, n)`` of resamples with category ``counts``."""
    n_res, size = counts.shape[0], pool.n_agents * pool.n_agents
    offset = (np.arange(n_res) * size)[:, None]
    flat = np.bincount(
        (offset + pool.cell_a).ravel(), (counts * pool.value_a).ravel(), minlength=n_res * size
    )
    flat += np.bincount(
        (offset + pool.cell_b).ravel(), (counts * pool.value_b).ravel(), minlength=n_res * size
    )
    mats = flat.reshape(n_res, pool.n_agents, pool.n_agents)
    diag = np.arange(pool.n_agents)
    mats[:, diag, diag] = 0.0
    return mats


def _fit_stack(
    mats: np.ndarray, alpha: float, engine: str, max_iter: int, tol: float
) -> tuple[np.ndarray, np.ndarray]:
    """Fits each comparison matrix; returns parameters ``(B, n)`` and a failure mask ``(B,)``.

    With ``engine="batch"`` the matrices are fitted together by the vectorised ILSR, and any
    that it cannot resolve are refitted by :func:`choix.ilsr_pairwise_dense`, whose
    ``RuntimeError`` or ``ValueError`` marks the resample as failed. With ``engine="choix"``
    every matrix goes through choix.
    """
    if engine == "batch":
        params, todo = _ilsr_batch(mats, alpha, max_iter=max_iter, tol=tol)
    else:
        params, todo = np.full(mats.shape[:2], np.nan), np.ones(mats.shape[0], dtype=bool)
    failed = np.zeros(mats.shape[0], dtype=bool)
    if todo.any():
        import choix  # lean: choix loads scipy.stats; only unresolved matrices (or engine="choix") need it
    for b in np.flatnonzero(todo):
        try:
            fitted = choix.ilsr_pairwise_dense(mats[b], alpha=alpha, max_iter=max_iter, tol=tol)
        except (RuntimeError, ValueError):
            failed[b] = True
            continue
        if np.isfinite(fitted).all():
            params[b] = fitted - fitted.mean()
        else:
            failed[b] = True
    return params, failed


def _chunk_size(n_agents: int, n_categories: int) -> int:
    """Returns how many resamples to process at once (about 8 MB of float64 per array)."""
    return max(1, 1_000_000 // max(n_agents * n_agents, n_categories, 1))


def _summarise(
    params: np.ndarray,
    failed: np.ndarray,
    *,
    agents: Sequence[str],
    n_matches: Sequence[int],
    level: float,
    **info: object,
) -> RatingSummary:
    """Reduces resampled parameters to a :class:`RatingSummary`."""
    ok = params[~failed]
    n_res, n_failed = len(failed), int(failed.sum())
    if ok.shape[0]:
        tail = (1.0 - level) / 2.0
        low, median, high = np.quantile(ok, [tail, 0.5, 1.0 - tail], axis=0)
        mean = ok.mean(axis=0)
    else:
        low = median = high = mean = np.full(len(agents), np.nan)
    warning = None
    if n_failed > FAIL_WARN_FRACTION * n_res:
        where = f" in {info['game']!r}" if info.get("game") else ""
        warning = (
            f"{n_failed} of {n_res} resamples{where} failed to fit (more than "
            f"{FAIL_WARN_FRACTION:.0%}); the statistics use the {n_res - n_failed} that succeeded"
        )
    return RatingSummary(
        agents=tuple(agents),
        mean=tuple(float(v) for v in mean),
        low=tuple(float(v) for v in low),
        high=tuple(float(v) for v in high),
        median=tuple(float(v) for v in median),
        n_matches=tuple(int(n) for n in n_matches),
        n_resamples=n_res,
        n_failed=n_failed,
        level=float(level),
        warning=warning,
        **info,  # type: ignore[arg-type]
    )


def _n_matches(matches: Sequence[MatchResult], agents: Sequence[str]) -> list[int]:
    """Counts the matches each agent played."""
    return [sum(a in m.agents for m in matches) for a in agents]
