"""The ``random`` baseline: a uniformly random legal action (GameBench's no-reasoning floor)."""

from __future__ import annotations

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, Observation


class RandomAgent:
    """Plays a uniformly random predefined legal action, seeded per match and player.

    Open-ended actions are answered with a fixed text only when no predefined
    action exists.
    """

    def __init__(self, context: AgentContext) -> None:
        self.rng = context.rng

    async def act(self, observation: Observation) -> Action:
        """Returns a random legal action."""
        if observation.legal_actions:
            return Action(self.rng.choice(observation.legal_actions))
        if observation.open_ended:
            return Action(self.rng.choice(sorted(observation.open_ended)), "pass")
        raise RuntimeError(f"{observation.game}: player {observation.player} has no action to take")
