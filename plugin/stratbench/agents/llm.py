"""The ``llm`` agent: a model plus a scaffold."""

from __future__ import annotations

from stratbench.core.agent import AgentContext
from stratbench.core.messages import Outgoing
from stratbench.core.types import Action, HarnessError, Observation
from stratbench.llm.session import ModelSession, request_settings, supports_vision
from stratbench.scaffolds.base import Scaffold


class LLMAgent:
    """Acts by running its scaffold against its model.

    Args:
        context: The agent context; needs ``context.llm`` and ``context.spec.model``.
        scaffold: The scaffold instance for this agent.
    """

    def __init__(self, context: AgentContext, scaffold: Scaffold) -> None:
        if context.llm is None or context.spec.model is None:
            raise HarnessError("an LLM agent needs a model and an LLM client")
        settings = request_settings(context.options, dict(context.spec.params))
        self.scaffold = scaffold
        self.session = ModelSession(
            client=context.llm,
            model=context.spec.model,
            player=context.player,
            transcript=context.transcript,
            settings=settings,
            vision=supports_vision(context.spec.model, context.options.get("vision") or "auto"),
            scaffold=context.spec.scaffold or "direct",
            answer_format=str(dict(context.spec.params).get("answer_format") or "text"),
            on_truncation=str(context.options.get("on_truncation") or "retry"),
        )

    async def act(self, observation: Observation) -> Action:
        """Delegates to the scaffold; ``last_answer`` then holds the reply it read (None when unknown)."""
        if hasattr(self.scaffold, "last_reply"):
            self.scaffold.last_reply = None
        try:
            return await self.scaffold.decide(observation, self.session)
        finally:
            self.last_answer: str | None = getattr(self.scaffold, "last_reply", None)
            self.last_answer_cut = bool(getattr(self.scaffold, "last_reply_cut", False))

    async def negotiate(self, observation: Observation) -> list[Outgoing]:
        """Delegates a negotiation round to the scaffold (silent if it cannot talk)."""
        negotiate = getattr(self.scaffold, "negotiate", None)
        return [] if negotiate is None else list(await negotiate(observation, self.session))
