"""StarCraft II metrics (LLM-PySC2 §3): outcome, kill/death value, invalid actions, per-agent counts.

Per match (:func:`episode_metrics`, team values with player 0): ``outcome``
(win when the last reward is +1 with discount 0, tie at 0, loss at -1),
``killed_value`` and ``lost_value`` (minerals + 2 × vespene of units killed
and lost, army + economy, from ``score_by_category``), ``kd`` (their ratio,
``"Inf"`` when nothing was lost), ``actions`` and ``invalid_actions`` (text
actions written and refused) with ``invalid_rate``, ``decisions``, the
``backend`` that played and the ``messages`` the agents exchanged. Each player also gets its agent's own counts.

Across matches (:func:`kd_wr`): KD is the ratio of the *sums* of killed and
lost value over all episodes, as the released analyser computes it (not a
mean of ratios), and WR the share of wins. :data:`PAPER_TABLE2`,
:data:`PAPER_TABLE3` and :data:`PAPER_TABLE4` are the paper's published "KD
(WR)" cells, for the report to show beside a run's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome

__all__ = ["PAPER_TABLE2", "PAPER_TABLE3", "PAPER_TABLE4", "episode_metrics", "format_kd", "format_kd_wr", "kd", "kd_wr"]

SMAC_MAPS = ("2s3z", "3s5z", "1c3s5z", "3s5z_vs_3s6z", "2c_vs_64zg", "3s_vs_3z")
TASKS = ("task1", "task2", "task3", "task4", "task5", "task6", "task7")

PAPER_TABLE2: dict[str, tuple[str, ...]] = {
    "gpt-3.5-turbo": ("0.60 (22%)", "0.43 (4%)", "0.91 (44%)", "0.29 (0%)", "0.52 (0%)", "0.05 (0%)"),
    "gpt-4o-mini": ("0.66 (20%)", "0.39 (0%)", "1.01 (50%)", "0.29 (0%)", "0.54 (0%)", "0.09 (0%)"),
    "gpt-4o": ("0.76 (20%)", "0.47 (0%)", "0.80 (30%)", "0.35 (0%)", "0.56 (0%)", "0.15 (0%)"),
    "claude3-haiku": ("0.58 (5%)", "0.48 (0%)", "0.48 (0%)", "0.32 (0%)", "0.52 (0%)", "0.10 (0%)"),
    "llama3.1-8b": ("0.19 (0%)", "0.23 (0%)", "0.18 (0%)", "0.14 (0%)", "0.49 (0%)", "0.00 (0%)"),
    "glm-4-plus": ("0.81 (25%)", "0.46 (0%)", "0.47 (0%)", "0.33 (0%)", "0.54 (5%)", "0.15 (0%)"),
}
"""Table 2, LLM-SMAC: KD (WR) per model for :data:`SMAC_MAPS`."""

PAPER_TABLE3: dict[str, tuple[str, ...]] = {
    "gpt-3.5-turbo": ("1.23 (58%)", "0.13 (4%)", "6.63 (38%)", "0.38 (0%)", "0.61 (8%)", "0.28 (0%)", "1.29 (72%)"),
    "gpt-4o-mini": ("1.67 (70%)", "0.16 (0%)", "3.46 (0%)", "0.39 (0%)", "0.62 (20%)", "0.30 (0%)", "1.02 (40%)"),
    "gpt-4o": ("2.27 (80%)", "0.16 (10%)", "Inf (100%)", "0.46 (0%)", "", "", ""),
    "claude3-haiku": ("2.19 (90%)", "0.19 (10%)", "5.25 (40%)", "0.34 (0%)", "0.75 (25%)", "0.33 (0%)", "0.93 (45%)"),
    "llama3.1-8b": ("0.28 (5%)", "0.12 (5%)", "14.9 (75%)", "0.18 (0%)", "0.48 (5%)", "0.14 (0%)", "0.71 (25%)"),
    "glm-4-plus": ("0.78 (30%)", "0.21 (5%)", "153 (100%)", "0.38 (0%)", "0.60 (10%)", "0.30 (0%)", "1.03 (55%)"),
    "llama3.1-70b": ("0.36 (15%)", "0.14 (0%)", "58.9 (95%)", "0.33 (0%)", "0.59 (15%)", "0.31 (0%)", "0.71 (30%)"),
    "llama3.1-405b": ("0.70 (30%)", "0.10 (0%)", "3.0k (100%)", "0.28 (0%)", "0.56 (10%)", "0.32 (0%)", "0.47 (15%)"),
    "gpt-o1-mini": ("1.36 (60%)", "0.04 (0%)", "", "", "", "", ""),
}
"""Table 3, LLM-PySC2 tasks at level 1: KD (WR) per model for :data:`TASKS` (blank cells are blank in the paper)."""

PAPER_TABLE4: dict[str, tuple[str, ...]] = {
    "level1": ("1.23 (58%)", "0.13 (4%)", "6.63 (38%)", "0.38 (0%)", "0.61 (8%)", "0.28 (0%)", "1.29 (72%)"),
    "level2": ("0.56 (5%)", "0.04 (0%)", "3.31 (5%)", "0.34 (0%)", "0.52 (0%)", "0.20 (0%)", "0.98 (25%)"),
    "level3": ("0.39 (0%)", "0.05 (0%)", "1.99 (0%)", "0.31 (0%)", "0.40 (0%)", "0.26 (0%)", "0.62 (0%)"),
}
"""Table 4, gpt-3.5-turbo on the tasks at levels 1-3: KD (WR) for :data:`TASKS`."""


def kd(killed: float, lost: float) -> float | str:
    """Returns killed / lost value, or ``"Inf"`` when nothing was lost (the paper's gpt-4o task3 cell)."""
    return "Inf" if lost == 0 else killed / lost


def episode_metrics(game: Game, outcome: MatchOutcome, seed: int) -> dict[int, dict[str, Any]]:
    """Returns the match's SC2 metrics: team values with player 0, each player's agent counts."""
    results = getattr(game, "results", [])
    if not results:
        return {}
    result = results[-1]
    actions = sum(a["actions"] for a in result.agents.values())
    invalid = sum(a["invalid"] for a in result.agents.values())
    metrics: dict[int, dict[str, Any]] = {p: {} for p in range(game.info.num_players)}
    metrics[0].update({
        "outcome": result.outcome,
        "killed_value": result.killed_value,
        "lost_value": result.lost_value,
        "kd": kd(result.killed_value, result.lost_value),
        "actions": actions,
        "invalid_actions": invalid,
        "invalid_rate": invalid / actions if actions else 0.0,
        "decisions": result.decisions,
        "game_loop": result.game_loop,
        "backend": getattr(game, "backend", ""),
        "messages": list(result.messages),
    })
    for player, name in enumerate(getattr(game, "agent_names", ())):
        counts = result.agents.get(name, {})
        metrics[player]["agent"] = {"name": name, **{k: v for k, v in counts.items() if k != "latency_s"}}
    return metrics


def kd_wr(records: Iterable[dict[str, Any]], *, games: tuple[str, ...] | None = None) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Sums killed and lost value and counts wins per (agent, backend, variant).

    Returns:
        ``{(agent, backend, variant): {"killed", "lost", "wins", "n", "kd", "wr"}}``.
    """
    totals: dict[tuple[str, str, str], dict[str, Any]] = defaultdict(lambda: {"killed": 0.0, "lost": 0.0, "wins": 0, "n": 0})
    for record in records:
        if games is not None and record.get("game") not in games:
            continue
        values = record.get("metrics", {}).get("0", {})
        if "killed_value" not in values:
            continue
        key = (record["sides"][0]["agent"], str(values.get("backend") or ""), str(record.get("variant") or ""))
        cell = totals[key]
        cell["killed"] += float(values["killed_value"])
        cell["lost"] += float(values["lost_value"])
        cell["wins"] += values.get("outcome") == "win"
        cell["n"] += 1
    for cell in totals.values():
        cell["kd"] = kd(cell["killed"], cell["lost"])
        cell["wr"] = cell["wins"] / cell["n"]
    return dict(totals)


def format_kd_wr(cell: dict[str, Any]) -> str:
    """Renders a cell as the paper does: ``0.60 (22%)``."""
    value = cell["kd"]
    return f"{format_kd(value)} ({round(100 * cell['wr'])}%)"


def format_kd(value: float | str) -> str:
    """Renders a KD with the paper's precision: ``0.60``, ``14.9``, ``153``, ``3.0k``; ``Inf`` stays."""
    if isinstance(value, str):
        return value
    if value >= 999.5:
        return f"{value / 1000:.1f}k"
    if value >= 99.95:
        return f"{value:.0f}"
    if value >= 9.995:
        return f"{value:.1f}"
    return f"{value:.2f}"
