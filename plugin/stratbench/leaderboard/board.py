"""Everything the leaderboard pages show, computed from the runs (no I/O, no markup).

Each pool of runs (:mod:`stratbench.leaderboard.pooling`) is analysed as one
report would analyse its matches (:func:`stratbench.report.analysis.analyse`:
Bradley–Terry ratings with bootstrap intervals, average scores, the families'
sections); each run is also analysed alone, for the history
(:mod:`stratbench.leaderboard.history`); costs per agent and pool come from
:mod:`stratbench.leaderboard.cost`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from stratbench.leaderboard.cost import cost_rows
from stratbench.leaderboard.history import Line, history_lines
from stratbench.leaderboard.pooling import Pool, pool_runs
from stratbench.leaderboard.runs import Run
from stratbench.report.gate import finite_number

__all__ = ["Board", "UnknownAgent", "build_board", "model_of", "played_agents", "ranking"]


class UnknownAgent(ValueError):
    """An agent named by ``--baseline`` or ``--map`` that no run played; the message is one line."""


@dataclass
class Board:
    """The leaderboard's content.

    Attributes:
        runs: Every run, oldest first.
        pools: The pools, in the order of their oldest run.
        pooled: Each pool's analysis by pool name.
        per_run: Each run's own analysis by run label.
        lines: Every agent's (or upgrade's) history.
        costs: Each pool's cost rows by pool name.
        baseline: The agent costs per rating point are measured from (None: not asked).
        agent_map: The upgrades drawn as one line (``NEW=OLD``).
    """

    runs: list[Run]
    pools: list[Pool]
    pooled: dict[str, dict[str, Any]]
    per_run: dict[str, dict[str, Any]]
    lines: list[Line]
    costs: dict[str, list[dict[str, Any]]]
    baseline: str | None = None
    agent_map: dict[str, str] = field(default_factory=dict)

    @functools.cached_property
    def agents(self) -> list[str]:
        """Every agent any run played."""
        return played_agents(self.runs)

    @functools.cached_property
    def models(self) -> dict[str, list[str]]:
        """Each model (an agent's model string; an agent without one stands for itself) and its agents."""
        out: dict[str, set[str]] = {}
        for run in self.runs:
            for record in run.records:
                for side in record["sides"]:
                    out.setdefault(model_of(side), set()).add(side["agent"])
        return {model: sorted(agents) for model, agents in sorted(out.items())}

    @functools.cached_property
    def model_of_agent(self) -> dict[str, str]:
        """Each agent's model (:attr:`models` inverted)."""
        return {agent: model for model, agents in self.models.items() for agent in agents}

    @functools.cached_property
    def rankings(self) -> dict[str, list[dict[str, Any]]]:
        """Each pool's ranked list (:func:`ranking`) by pool name."""
        return {pool.name: ranking(self.pooled[pool.name].get("ratings")) for pool in self.pools}


def ranking(ratings: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The agents a pool rated, best first: ``{"rank", "agent", "mean", "low", "high", "matches"}``, ranks 1, 2, 3...
    in order of descending rating (equal ratings by agent name); an agent without a rating is left out."""
    if not ratings:
        return []
    rows = [{"agent": agent, "mean": mean, "low": low, "high": high, "matches": matches}
            for agent, mean, low, high, matches in zip(ratings["agents"], ratings["mean"], ratings["low"],
                                                       ratings["high"], ratings["n_matches"])
            if finite_number(mean)]
    rows.sort(key=lambda row: (-row["mean"], row["agent"]))
    return [{"rank": rank, **row} for rank, row in enumerate(rows, start=1)]


def played_agents(runs: list[Run]) -> list[str]:
    """Every agent the runs played, sorted."""
    return sorted({side["agent"] for run in runs for r in run.records for side in r["sides"]})


def model_of(side: dict[str, Any]) -> str:
    """Returns the model a side played (its agent label when it names none: an engine, a baseline)."""
    return str(side.get("model") or side["agent"])


def build_board(runs: list[Run], *, sections: dict[str, Any] | None = None, resamples: int = 2000,
                agent_map: dict[str, str] | None = None, baseline: str | None = None) -> Board:
    """Pools the runs and analyses every pool and every run.

    Args:
        runs: The runs, oldest first (:func:`stratbench.leaderboard.runs.collect_runs`).
        sections: The families' report section builders (``Registry.report_sections``).
        resamples: Bootstrap resamples B of every analysis.
        agent_map: Upgrades ``NEW=OLD`` to draw as one line.
        baseline: The agent costs per rating point are measured from.

    Raises:
        UnknownAgent: ``baseline`` or an agent of ``agent_map`` is in no run.
    """
    from stratbench.report.analysis import analyse  # leaderboard: report.analysis loads the rating stack

    agent_map = dict(agent_map or {})
    known = played_agents(runs)
    if baseline is not None and baseline not in known:
        raise UnknownAgent(f"--baseline {baseline}: no run played this agent (known: {', '.join(known)})")
    for new, old in agent_map.items():
        if new not in known and old not in known:
            raise UnknownAgent(f"--map {new}={old}: no run played either agent (known: {', '.join(known)})")
    pools = pool_runs(runs)
    records = {pool.name: pool.records for pool in pools}  # each pool's records, renamed once
    pooled = {name: analyse(records[name], sections=sections, resamples=resamples) for name in records}
    per_run = {run.label: analyse(run.records, resamples=resamples) for run in runs}
    costs = {name: cost_rows(records[name], pooled[name].get("ratings"), baseline) for name in records}
    return Board(runs=runs, pools=pools, pooled=pooled, per_run=per_run,
                 lines=history_lines(runs, per_run, agent_map), costs=costs, baseline=baseline,
                 agent_map=agent_map)
