"""A model as an AdvGameBench strategy writer: one side of ``core.revision.play_revision_match``.

The initial strategy is one conversation: an over-budget answer gets the
released re-prompt as the next user turn, after the model's own answer.
Each revision is a fresh single-turn request (the released code keeps no
history between rounds either). Answers are returned as text; the match
loop reads them (``read_strategy_json``) and counts unreadable ones.
"""

from __future__ import annotations

from stratbench.games.advgame.prompts import initial_prompt, revision_prompt
from stratbench.llm.session import ModelSession


class ModelStrategyWriter:
    """Asks a model (through a :class:`ModelSession`) for one side's strategies."""

    def __init__(self, session: ModelSession, game: str, side: str, *, catalogue: str = "released"):
        self.session, self.game, self.side, self.catalogue = session, game, side, catalogue
        self._conversation: list[dict[str, str]] = []

    async def initial(self, request) -> str:
        """Answers an ``InitialRequest`` (attempt 1, or a retry carrying the over-budget message)."""
        if request.attempt == 1 or not self._conversation:
            self._conversation = [{"role": "user", "content": initial_prompt(self.game, self.side,
                                                                            catalogue=self.catalogue)}]
        else:
            self._conversation.append({"role": "user", "content": request.feedback})
        completion = await self.session.complete(list(self._conversation), purpose="initial strategy")
        self._conversation.append({"role": "assistant", "content": completion.text})
        return completion.text

    async def revise(self, request) -> str:
        """Answers a ``RevisionRequest``."""
        prompt = revision_prompt(self.game, request, catalogue=self.catalogue)
        completion = await self.session.complete([{"role": "user", "content": prompt}], purpose="revise strategy")
        return completion.text
