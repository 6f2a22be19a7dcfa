"""``nim/perfect``: Bouton's strategy, which wins every position with a non-zero nim-sum."""

from __future__ import annotations

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, Observation

from stratbench_nim.game import nim_sum


def perfect_move(heaps: list[int]) -> str:
    """The move Bouton's strategy plays: one that leaves a zero nim-sum when there is one, else one token
    from the largest heap (the position is lost against perfect play; taking little keeps the game long).

    Examples:
        >>> perfect_move([3, 4, 5])
        '1:2'
        >>> perfect_move([1, 2, 3])
        '3:1'
    """
    total = nim_sum(heaps)
    if total:
        for heap, size in enumerate(heaps, 1):
            target = size ^ total
            if target < size:
                return f"{heap}:{size - target}"
    largest = max(range(len(heaps)), key=lambda i: (heaps[i], -i))
    return f"{largest + 1}:1"


class PerfectAgent:
    """Plays :func:`perfect_move` on the heaps the observation shows (deterministic)."""

    def __init__(self, context: AgentContext) -> None:
        self.player = context.player

    async def act(self, observation: Observation) -> Action:
        """Returns the perfect move."""
        return Action(perfect_move(list(observation.data["heaps"])))
