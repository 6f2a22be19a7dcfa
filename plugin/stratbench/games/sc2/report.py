"""The StarCraft II report section: KD (WR) per map or task, the run's beside the paper's.

Rows are the run's agents, one per backend (``mock``, ``engine``, ``live``:
a backend is never mixed into another's row), then the paper's published
rows, labelled with their table: Table 2 for LLM-SMAC maps, Table 3 for the
tasks at level 1, Table 4 for gpt-3.5-turbo at levels 1-3. Variants named
``task<N>-level<L>`` (or ``_level``, with or without the released maps'
``pvz_`` prefix, as the engine's scenario files are named) fill the task
columns of their level; any other variant is a column of its own.
"""

from __future__ import annotations

import re
from typing import Any

from stratbench.games.sc2.metrics import (
    PAPER_TABLE2,
    PAPER_TABLE3,
    PAPER_TABLE4,
    SMAC_MAPS,
    TASKS,
    format_kd_wr,
    kd_wr,
)
from stratbench.report.unplayed import beside, unplayed_counts

_TASK = re.compile(r"^(?:pvz_)?(task\d)[-_]level(\d)$")


def sc2_tables(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """Builds the KD (WR) table of every SC2 record; None without any.

    The note says how many episodes each run cell pools, with the agent's
    errored and skipped episodes of that map or task beside (in no cell).
    """
    cells = kd_wr(records)
    unplayed = unplayed_counts(unscored, lambda r: [(r["sides"][0].get("agent", "?"), str(r.get("variant") or ""))]
                               if str(r.get("game", "")).startswith("sc2") and r.get("sides") else [])
    if not cells and not unplayed:
        return None
    variants = sorted({variant for _, _, variant in cells})
    smac = [m for m in SMAC_MAPS if m in variants]
    played_tasks = {_TASK.match(v).group(1) for v in variants if _TASK.match(v)}
    tasks = bool(played_tasks)
    task_columns = [*TASKS, *sorted(played_tasks - set(TASKS))] if tasks else []  # task8 is in no paper table
    others = [v for v in variants if v not in SMAC_MAPS and not _TASK.match(v)]
    columns = [*smac, *task_columns, *others]
    rows: list[list[Any]] = []
    for agent, backend in sorted({(a, b) for a, b, _ in cells}):
        played = [v for a, b, v in cells if (a, b) == (agent, backend)]
        source = f"this run ({backend or 'unknown'} backend)"
        if any(not _TASK.match(v) for v in played):  # maps and other variants: one row
            rows.append([agent, source, *[format_kd_wr(cells[(agent, backend, c)])
                                          if c not in task_columns and (agent, backend, c) in cells else ""
                                          for c in columns]])
        for level in sorted({_TASK.match(v).group(2) for v in played if _TASK.match(v)}):  # a row per task level
            by_task = {_TASK.match(v).group(1): cells[(agent, backend, v)] for v in played
                       if _TASK.match(v) and _TASK.match(v).group(2) == level}
            rows.append([agent, f"{source}, level {level}",
                         *[format_kd_wr(by_task[c]) if c in by_task else "" for c in columns]])
    if smac:
        for model, values in PAPER_TABLE2.items():
            published = dict(zip(SMAC_MAPS, values))
            rows.append([model, "paper Table 2 (LLM-SMAC)", *[published.get(c, "") for c in columns]])
    if tasks:
        for model, values in PAPER_TABLE3.items():
            published = dict(zip(TASKS, values))
            rows.append([model, "paper Table 3 (tasks, level 1)", *[published.get(c, "") for c in columns]])
        for level, values in PAPER_TABLE4.items():
            published = dict(zip(TASKS, values))
            rows.append(["gpt-3.5-turbo", f"paper Table 4 ({level})", *[published.get(c, "") for c in columns]])
    episodes: dict[tuple[str, str], int] = {}
    for (agent, _, variant), cell in cells.items():
        episodes[(agent, variant)] = episodes.get((agent, variant), 0) + cell["n"]
    counted = "; ".join(
        f"{agent} {variant} {episodes.get((agent, variant), 0)}"
        + (f" ({beside(unplayed.get((agent, variant)))})" if beside(unplayed.get((agent, variant))) else "")
        for agent, variant in sorted({*episodes, *unplayed})
    )
    return {
        "title": "StarCraft II (LLM-PySC2): KD (WR)",
        "columns": ["agent", "source", *columns],
        "rows": rows,
        "note": "KD = value of enemy units killed / value of own units lost (minerals + 2 × vespene), summed over "
                "the episodes before dividing, as the released analyser does; 'Inf' when nothing was lost. "
                "WR = share of episodes won. Rows marked 'paper' are the published numbers (LLM-PySC2, "
                "arXiv 2411.05348), not results of this run; backends are never pooled. Episodes scored per "
                f"agent and map or task (all backends), with the errored and skipped ones beside (in no cell): "
                f"{counted}.",
    }
