"""The Agent contract and what an agent is built with.

An agent is built once per player per match and may keep state between its
decisions. Its one job: ``await agent.act(observation)`` returns an
:class:`~stratbench.core.types.Action` (or raises
:class:`~stratbench.core.types.ActionParseError` for an unreadable reply).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, Observation

if TYPE_CHECKING:
    from stratbench.core.game import Game
    from stratbench.llm.client import LLMClient


@runtime_checkable
class Agent(Protocol):
    """Chooses actions for one player."""

    async def act(self, observation: Observation) -> Action:
        """Returns the action for ``observation``; a retry carries ``feedback``."""
        ...


MODEL_PARAM_LABELS = {"reasoning_effort": "effort", "thinking_budget": "thinking", "answer_format": "answers"}
"""How a model agent's parameters are named in its label (``--reasoning-effort``, ``--thinking-budget``,
``--answer-format``)."""


@dataclass(frozen=True)
class AgentSpec:
    """Which agent plays a side, as chosen on the command line or in a suite.

    Attributes:
        kind: The registered agent name (``"random"``, ``"minimax"``, ``"llm"``).
        model: The litellm model string, for LLM agents.
        scaffold: The registered scaffold name, for LLM agents.
        params: Extra keyword arguments for the agent factory.
    """

    kind: str
    model: str | None = None
    scaffold: str | None = None
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        """Returns the name used in test ids, tables and ratings (a model seat's: ``seat=model+scaffold``).

        A model's request parameters follow its scaffold
        (``o3-mini+cot(effort=high,answers=tools)``, :data:`MODEL_PARAM_LABELS`);
        without any, the label is ``model+scaffold``.
        """
        if self.model is not None:
            played = f"{self.model}+{self.scaffold or 'direct'}"
            if self.params:
                labelled = ",".join(f"{MODEL_PARAM_LABELS.get(k, k)}={v}" for k, v in self.params)
                played = f"{played}({labelled})"
            return played if self.kind == "llm" else f"{self.kind}={played}"
        if self.params:
            args = ",".join(f"{k}={v}" for k, v in self.params)
            return f"{self.kind}({args})"
        return self.kind

    @property
    def uses_llm(self) -> bool:
        """Tells whether this agent calls a language model."""
        return self.model is not None

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-safe description."""
        return {
            "agent": self.label,
            "kind": self.kind,
            "model": self.model,
            "scaffold": self.scaffold,
            "params": dict(self.params),
        }


@dataclass
class AgentContext:
    """Everything an agent factory may use to build an agent for one player.

    Attributes:
        spec: The agent's spec.
        game: The game being played.
        player: The player index the agent acts for.
        side: The player's side.
        rng: A random generator seeded for this player in this match.
        transcript: The match transcript, for agents that log (LLM calls).
        llm: The LLM client, for LLM agents; None when no model is in play.
        options: Run-wide settings (temperature, seed, max_tokens, ...).
    """

    spec: AgentSpec
    game: Game
    player: int
    side: int
    rng: random.Random
    transcript: Transcript
    llm: LLMClient | None = None
    options: dict[str, Any] = field(default_factory=dict)
