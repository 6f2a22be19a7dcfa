"""A model as an AdvGameBench strategy writer: one side of ``core.revision.play_revision_match``.

The initial strategy is one conversation: an over-budget answer gets the
released re-prompt as the next user turn, after the model's own answer.
Each revision is a fresh single-turn request (the released code keeps no
history between rounds either). Answers are returned as text; the match
loop reads them (``read_strategy_json``) and counts unreadable ones.
``protocol="paper"`` words both requests as the released code does
(``paper_initial_prompt``, ``paper_revision_prompt``).
"""

from __future__ import annotations

from stratbench.games.advgame.prompts import (
    initial_prompt,
    paper_initial_prompt,
    paper_revision_prompt,
    revision_prompt,
)
from stratbench.llm.session import ModelSession
from stratbench.core.types import HarnessError


class ModelStrategyWriter:
    """Asks a model (through a :class:`ModelSession`) for one side's strategies."""

    def __init__(self, session: ModelSession, game: str, side: str, *, catalogue: str = "released",
                 protocol: str = "default"):
        self.session, self.game, self.side, self.catalogue = session, game, side, catalogue
        paper = protocol == "paper"
        self._initial_prompt = paper_initial_prompt if paper else initial_prompt
        self._revision_prompt = paper_revision_prompt if paper else revision_prompt
        self._conversation: list[dict[str, str]] = []

    async def initial(self, request) -> str:
        """Answers an ``InitialRequest`` (attempt 1, or a retry carrying the over-budget message)."""
        if request.attempt == 1 or not self._conversation:
            self._conversation = [{"role": "user", "content": self._initial_prompt(self.game, self.side,
                                                                                  catalogue=self.catalogue)}]
        else:
            self._conversation.append({"role": "user", "content": request.feedback})
        completion = await self.session.complete(list(self._conversation), purpose="initial strategy")
        self._conversation.append({"role": "assistant", "content": completion.text})
        return completion.text

    async def revise(self, request) -> str:
        """Answers a ``RevisionRequest``."""
        prompt = self._revision_prompt(self.game, request, catalogue=self.catalogue)
        completion = await self.session.complete([{"role": "user", "content": prompt}], purpose="revise strategy")
        return completion.text


def baseline_agent(kind: str):
    """Returns the agent factory registered for an AdvGameBench baseline name (``greedy``, ``climber``).

    The baselines write whole strategies (``games.advgame.baselines.BaselineWriter``,
    built by ``match_revision``); in a move-by-move game the factory refuses.
    """

    def build(context):
        raise HarnessError(f"the {kind} agent writes AdvGameBench strategies; it plays only tower_defense, "
                           f"battle_card and turn_based")

    return build
