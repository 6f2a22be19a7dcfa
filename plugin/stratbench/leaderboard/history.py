"""Each agent's rating and per-game score run by run, and model upgrades drawn as one line.

Pure computation over per-run analyses (each run rated on its own, so a
point shows what that run alone says). An agent map ``NEW=OLD`` (as
``stratbench gate --map`` takes it) joins the two agents into one *line*,
``OLD → NEW``; maps chain (``c=b``, ``b=a`` give ``a → b → c``). Every line
has at most one point per run: where a run holds several of its agents, the
newest one's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stratbench.leaderboard.runs import Run

__all__ = ["Line", "history_lines", "lineages"]


@dataclass
class Line:
    """One agent (or one chain of upgraded agents) through the runs.

    Attributes:
        name: The agent, or ``OLD → NEW`` for a mapped upgrade.
        agents: Its agents, oldest first.
        points: One per run it played in: ``{"run", "date", "index", "agent", "rating", "low", "high",
            "games": {game: mean score}}``, ``index`` being the run's position among all runs.
    """

    name: str
    agents: list[str]
    points: list[dict[str, Any]] = field(default_factory=list)

    @property
    def games(self) -> list[str]:
        """The games it has a score in."""
        return sorted({game for point in self.points for game in point["games"]})


def lineages(agents: list[str], agent_map: dict[str, str]) -> list[list[str]]:
    """Returns the agents grouped into lines, each oldest first: mapped pairs ``NEW=OLD`` chained, others alone."""
    older = {new: old for new, old in agent_map.items() if new != old}
    newer = {old: new for new, old in older.items()}
    chains, placed = [], set()
    for agent in sorted(set(agents) | set(older) | set(newer)):
        if agent in placed:
            continue
        first = agent
        while first in older and older[first] not in placed and older[first] != agent:
            first = older[first]
        chain = [first]
        while chain[-1] in newer and newer[chain[-1]] not in chain:
            chain.append(newer[chain[-1]])
        placed.update(chain)
        chains.append(chain)
    present = set(agents)
    return [chain for chain in chains if present & set(chain)]


def history_lines(runs: list[Run], analyses: dict[str, dict[str, Any]],
                  agent_map: dict[str, str]) -> list[Line]:
    """Builds every line's points from the runs' own analyses.

    Args:
        runs: The runs, oldest first.
        analyses: Each run's ``analyse()`` result by run label.
        agent_map: Upgrades, ``NEW=OLD`` as the gate takes them.
    """
    agents = sorted({side["agent"] for run in runs for r in run.scored for side in r["sides"]})
    lines = []
    for chain in lineages(agents, agent_map):
        line = Line(name=" → ".join(chain), agents=chain)
        for index, run in enumerate(runs):
            data = analyses[run.label]
            played = {side["agent"] for r in run.scored for side in r["sides"]}
            present = [agent for agent in chain if agent in played]
            if not present:
                continue
            agent = present[-1]
            rating, low, high = _rating(data.get("ratings"), agent)
            games = {game: per[agent]["mean"] for game, per in (data.get("average_scores") or {})
                     .get("per_game", {}).items() if agent in per}
            line.points.append({"run": run.label, "date": run.date, "index": index, "agent": agent,
                                "rating": rating, "low": low, "high": high, "games": games})
        lines.append(line)
    return lines


def _rating(ratings: dict[str, Any] | None, agent: str) -> tuple[float | None, float | None, float | None]:
    if not ratings or agent not in ratings["agents"]:
        return None, None, None
    k = ratings["agents"].index(agent)
    return ratings["mean"][k], ratings["low"][k], ratings["high"][k]
