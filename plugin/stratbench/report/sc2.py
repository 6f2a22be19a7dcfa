"""The StarCraft II report section: KD (WR) per map or task, the run's beside the paper's.

Rows are the run's agents, one per backend (``mock``, ``engine``, ``live``:
a backend is never mixed into another's row), then the paper's published
rows, labelled with their table: Table 2 for LLM-SMAC maps, Table 3 for the
tasks at level 1, Table 4 for gpt-3.5-turbo at levels 1-3. Variants named
``task<N>-level<L>`` (or ``_level``) fill the task columns of their level; any
other variant is a column of its own.
"""

from __future__ import annotations

import re
from typing import Any

from stratbench.metrics.sc2 import (
    PAPER_TABLE2,
    PAPER_TABLE3,
    PAPER_TABLE4,
    SMAC_MAPS,
    TASKS,
    format_kd_wr,
    kd_wr,
)

_TASK = re.compile(r"^(task\d)[-_]level(\d)$")


def sc2_tables(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Builds the KD (WR) table of every SC2 record; None without any."""
    cells = kd_wr(records)
    if not cells:
        return None
    variants = sorted({variant for _, _, variant in cells})
    smac = [m for m in SMAC_MAPS if m in variants]
    tasks = any(_TASK.match(v) for v in variants)
    others = [v for v in variants if v not in SMAC_MAPS and not _TASK.match(v)]
    columns = [*smac, *(TASKS if tasks else ()), *others]
    rows: list[list[Any]] = []
    for agent, backend in sorted({(a, b) for a, b, _ in cells}):
        levels = sorted({_TASK.match(v).group(2) for a, b, v in cells if (a, b) == (agent, backend) and _TASK.match(v)})
        for level in levels or [""]:
            row: list[Any] = [agent, f"this run ({backend or 'unknown'} backend)" + (f", level {level}" if level else "")]
            for column in columns:
                key = (agent, backend, column)
                if column in TASKS:
                    key = next(((a, b, v) for a, b, v in cells if (a, b) == (agent, backend) and _TASK.match(v)
                                and _TASK.match(v).group(1) == column and _TASK.match(v).group(2) == level), key)
                row.append(format_kd_wr(cells[key]) if key in cells else "")
            rows.append(row)
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
    return {
        "title": "StarCraft II (LLM-PySC2): KD (WR)",
        "columns": ["agent", "source", *columns],
        "rows": rows,
        "note": "KD = value of enemy units killed / value of own units lost (minerals + 2 × vespene), summed over "
                "the episodes before dividing, as the released analyser does; 'Inf' when nothing was lost. "
                "WR = share of episodes won. Rows marked 'paper' are the published numbers (LLM-PySC2, "
                "arXiv 2411.05348), not results of this run; backends are never pooled.",
    }
