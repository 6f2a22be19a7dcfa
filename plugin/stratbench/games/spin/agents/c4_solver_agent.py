"""The ``c4solver`` agent: perfect Connect Four.

It scores every playable column with the exact solver
(:mod:`stratbench.games.spin.c4_solver`) and plays one of the best, choosing
uniformly at random among equally good columns with the match's seeded rng,
as SPIN-Bench's solver service does.
"""

from __future__ import annotations

from stratbench.core.agent import AgentContext
from stratbench.core.match_work import offload
from stratbench.core.types import Action, Observation
from stratbench.games.spin import c4_solver
from stratbench.games.spin.metrics.solver import register_engine

__all__ = ["C4SolverAgent", "best_columns"]


def best_columns(scores: dict[int, int]) -> list[int]:
    """Returns the columns of the highest score, in ascending order.

    Examples:
        >>> best_columns({0: -2, 3: 1, 4: 1})
        [3, 4]
    """
    best = max(scores.values())
    return sorted(column for column, score in scores.items() if score == best)


class C4SolverAgent:
    """Plays a best-scoring column; ties are broken at random with the match rng."""

    supported_games = ("connect4",)

    def __init__(self, context: AgentContext) -> None:
        if context.game.info.name not in self.supported_games:
            raise ValueError(
                f"agent 'c4solver' plays only {', '.join(self.supported_games)}, not {context.game.info.name!r}"
            )
        self.rng = context.rng
        self.solver = c4_solver.default_solver()
        register_engine(context.game, context.player, {
            "agent": "c4solver", **self.solver.describe(), "ties": "uniform among best columns (match rng)"})

    async def act(self, observation: Observation) -> Action:
        """Returns one of the best columns for the position in the observation."""
        moves = list(observation.data["moves"])
        scores = await offload(c4_solver.move_scores, moves, self.solver)  # off the loop, stoppable
        column = str(self.rng.choice(best_columns(scores)))
        return Action(observation.data.get("labels", {}).get(column, column))  # a renamed variant's label
