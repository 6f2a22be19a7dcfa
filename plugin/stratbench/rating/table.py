"""Plain-text tables of ratings and average scores (pure string building, no I/O)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from stratbench.rating.bradley_terry import AverageScores
from stratbench.rating.summary import RatingSummary

__all__ = ["render_ratings_table", "render_scores_table"]

_MISSING = "-"


def render_ratings_table(
    summary: RatingSummary, *, intervals: bool = False, digits: int = 2
) -> str:
    """Renders bootstrapped ratings as an aligned text table.

    Rows are agents sorted by overall mean rating (best first); columns are Overall and then
    each game in sorted order. A rating marked ``*`` belongs to an agent that played no match
    in that scope (it comes from the prior only); ``-`` means the agent was not rated there.

    Args:
        summary: The overall summary, with its per-game summaries.
        intervals: Whether to add the ``[low, high]`` percentile interval to each cell.
        digits: The number of decimals.

    Returns:
        The table, followed by a footer with the resampling settings, failures and warnings.
    """
    games = sorted(summary.per_game)
    scopes = [summary] + [summary.per_game[g] for g in games]
    order = sorted(range(len(summary.agents)), key=lambda k: _descending(summary.mean[k]))
    starred = False
    rows = []
    for k in order:
        agent = summary.agents[k]
        row = [agent]
        for scope in scopes:
            cell = _rating_cell(scope, agent, intervals, digits)
            starred |= cell.endswith("*")
            row.append(cell)
        rows.append(row)
    lines = _grid(["Agent", "Overall", *games], rows)
    lines.append("")
    lines.append(_settings(summary))
    if starred:
        lines.append("* played no match there: the rating comes from the prior (alpha) only.")
    for scope in scopes:
        if scope.n_failed:
            where = scope.game or "overall"
            lines.append(f"{where}: {scope.n_failed} of {scope.n_resamples} resamples failed.")
        if scope.warning:
            lines.append(f"warning: {scope.warning}")
    if summary.n_ignored:
        lines.append(f"{summary.n_ignored} match(es) without exactly two sides were not rated.")
    return "\n".join(lines) + "\n"


def render_scores_table(scores: AverageScores, *, digits: int = 2, counts: bool = True) -> str:
    """Renders average scores (GameBench's Table 2) as an aligned text table.

    Args:
        scores: The output of :func:`~stratbench.rating.bradley_terry.average_scores`.
        digits: The number of decimals.
        counts: Whether to add the number of matches in parentheses.

    Returns:
        The table, agents sorted by overall average score (best first).
    """
    games = sorted(scores.per_game)
    everyone = set(scores.overall).union(*(set(per) for per in scores.per_game.values()))
    agents = sorted(everyone, key=lambda a: (a not in scores.overall,
                                              -scores.overall[a].mean if a in scores.overall else 0.0, a))
    rows = []
    for agent in agents:
        row = [agent, _score_cell(scores.overall.get(agent), digits, counts)]
        row += [_score_cell(scores.per_game[g].get(agent), digits, counts) for g in games]
        rows.append(row)
    return "\n".join(_grid(["Agent", "Overall", *games], rows)) + "\n"


def _rating_cell(scope: RatingSummary, agent: str, intervals: bool, digits: int) -> str:
    """Formats one agent's rating in one scope."""
    if agent not in scope.agents:
        return _MISSING
    k = scope.agents.index(agent)
    text = _num(scope.mean[k], digits)
    if intervals:
        text += f" [{_num(scope.low[k], digits)}, {_num(scope.high[k], digits)}]"
    return text + ("*" if scope.n_matches[k] == 0 else "")


def _score_cell(stats, digits: int, counts: bool) -> str:
    """Formats an average score, or marks it missing."""
    if stats is None:
        return _MISSING
    return _num(stats.mean, digits) + (f" ({stats.n})" if counts else "")


def _descending(value: float) -> float:
    """Returns a sort key that puts larger values first and NaN last."""
    return math.inf if math.isnan(value) else -value


def _num(value: float, digits: int) -> str:
    """Formats a number with a fixed number of decimals; NaN becomes ``nan``."""
    return "nan" if math.isnan(value) else f"{value:.{digits}f}"


def _settings(summary: RatingSummary) -> str:
    """Describes how the ratings were computed."""
    low = (1 - summary.level) / 2 * 100
    return (
        f"Bradley-Terry, mean of {summary.n_resamples} game-balanced bootstrap resamples "
        f"(mode {summary.mode}, seed {summary.seed}); interval {low:g}th-{100 - low:g}th "
        f"percentile; alpha={summary.alpha:g}; ties {summary.ties}."
    )


def _grid(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Aligns a header and rows: the first column left, the others right."""
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:])]
        return "  ".join([first, *rest]).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]
