"""The ``probe_solver`` agent: answers the planning probes exactly, from the observation's data.

It is the probes' ceiling and checks their scoring end to end: it replays
the trajectory (factual retrieval) or the moves (spatial tracking) given in
``observation.data`` — the same information as the prompt — and answers in
the requested ``$$`` format.
"""

from __future__ import annotations

import json

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, Observation

__all__ = ["ProbeSolverAgent"]


class ProbeSolverAgent:
    """Computes the probe's answer from the structured observation."""

    supported_games = ("factual_retrieval", "spatial_tracking")

    def __init__(self, context: AgentContext) -> None:
        if context.game.info.name not in self.supported_games:
            raise ValueError(
                f"agent 'probe_solver' plays only {', '.join(self.supported_games)}, not {context.game.info.name!r}"
            )
        self.game = context.game.info.name

    async def act(self, observation: Observation) -> Action:
        """Returns the exact answer."""
        data = observation.data
        if self.game == "factual_retrieval":
            state = dict(data["initial"])
            for step in data["steps"][: data["asked_step"]]:
                state[step["property"]] = step["value"]
            payload = {"state": state}
        else:
            x, y = data["start"]
            for move in data["moves"]:
                dx, dy = data["directions"][move]
                x, y = x + dx, y + dy
            payload = {"position": [x, y]}
        return Action("answer", f"$$\n{json.dumps(payload)}\n$$")
