"""Scripted agents that play through the text interface, as a model would.

They read the observation's data (the pysc2 observation and their teams) and
answer with text in the released layout, so every decision exercises the
parser and the translator:

* ``sc2-noop``: writes an empty ``Actions:`` block (the released default action);
* ``sc2-attack-nearest``: each team attacks the visible enemy nearest to its
  centre (ties broken by the lower tag), one ``<Attack_Unit(tag)>`` per team.
"""

from __future__ import annotations

import math

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, Observation
from stratbench.games.sc2.game import REPLY
from stratbench.games.sc2.unit_table import ENEMY, UnitTable


class NoOpAgent:
    """Answers every decision with no actions."""

    def __init__(self, context: AgentContext | None = None) -> None:
        self.context = context

    async def act(self, observation: Observation) -> Action:
        """Returns an empty ``Actions:`` block."""
        return Action(REPLY, "Analysis:\n  Waiting.\nActions:\n")


class AttackNearestAgent:
    """Each team attacks the visible enemy nearest to its centre."""

    def __init__(self, context: AgentContext | None = None) -> None:
        self.context = context

    async def act(self, observation: Observation) -> Action:
        """Writes one ``<Attack_Unit(tag)>`` per team that sees an enemy."""
        return Action(REPLY, reply_for(observation))


def reply_for(observation: Observation) -> str:
    """Returns the attack-nearest reply text for an observation."""
    table = UnitTable.from_observation(observation.data["observation"])
    enemies = [u for u in table.of(ENEMY) if u.screen is not None]
    lines = ["Analysis:", "  Attack the nearest enemy.", "Actions:"]
    for team, tags in observation.data["teams"].items():
        members = [table.by_tag(int(tag, 16)) for tag in tags]
        points = [u.screen for u in members if u is not None and u.screen is not None]
        if not points or not enemies:
            continue
        centre = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
        target = min(enemies, key=lambda u: (math.dist(centre, u.screen), u.tag))  # type: ignore[arg-type]
        lines.append(f"  Team {team}:")
        lines.append(f"    <Attack_Unit({hex(target.tag)})>")
    return "\n".join(lines) + "\n"
