"""Ratings of agents from match results: Bradley–Terry with a game-balanced bootstrap, and Elo.

Typical use::

    from stratbench.rating import bootstrap, load_matches, render_ratings_table

    summary = bootstrap(load_matches("results.jsonl"))
    print(render_ratings_table(summary, intervals=True))

``bootstrap(matches, mode="gamebench")`` replays GameBench's published procedure exactly.
"""

from stratbench.rating.bootstrap import DEFAULT_RESAMPLES, MODES, bootstrap
from stratbench.rating.bradley_terry import (
    DEFAULT_ALPHA,
    AverageScores,
    ScoreStats,
    average_scores,
    fit,
    win_probability_matrix,
)
from stratbench.rating.data import (
    MatchResult,
    ResultsFormatError,
    ResultsFormatWarning,
    load_matches,
)
from stratbench.rating.elo import elo, pair_records
from stratbench.rating.gamebench import (
    GAMEBENCH_AGENTS,
    GAMEBENCH_ALPHA,
    GAMEBENCH_RESAMPLES,
    GAMEBENCH_SEED,
    GAMEBENCH_TIES,
)
from stratbench.rating.summary import RatingSummary
from stratbench.rating.table import render_ratings_table, render_scores_table

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_RESAMPLES",
    "GAMEBENCH_AGENTS",
    "GAMEBENCH_ALPHA",
    "GAMEBENCH_RESAMPLES",
    "GAMEBENCH_SEED",
    "GAMEBENCH_TIES",
    "MODES",
    "AverageScores",
    "MatchResult",
    "RatingSummary",
    "ResultsFormatError",
    "ResultsFormatWarning",
    "ScoreStats",
    "average_scores",
    "bootstrap",
    "elo",
    "fit",
    "load_matches",
    "pair_records",
    "render_ratings_table",
    "render_scores_table",
    "win_probability_matrix",
]
