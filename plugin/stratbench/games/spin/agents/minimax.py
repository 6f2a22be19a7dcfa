"""The ``minimax`` solver agent: perfect Tic-Tac-Toe.

It plays a move of the best exact value, choosing uniformly at random among
equally good moves (as SPIN-Bench's solver does), with the match's seeded rng.
"""

from __future__ import annotations

from stratbench.core.agent import AgentContext
from stratbench.core.match_work import offload
from stratbench.core.types import Action, Observation
from stratbench.games.spin import tictactoe
from stratbench.games.spin.metrics.solver import register_engine


class MinimaxAgent:
    """Plays optimally by exhaustive search of the game tree."""

    supported_games = ("tictactoe",)

    def __init__(self, context: AgentContext) -> None:
        if context.game.info.name not in self.supported_games:
            raise ValueError(
                f"agent 'minimax' plays only {', '.join(self.supported_games)}, not {context.game.info.name!r}"
            )
        self.rng = context.rng
        register_engine(context.game, context.player, {"agent": "minimax", "search": "full depth"})

    async def act(self, observation: Observation) -> Action:
        """Returns one of the best moves for the board in the observation."""
        board = observation.data["board"]
        values = await offload(tictactoe.move_values, board)  # off the loop, stoppable by the match's time limit
        best = max(values.values())
        choices = sorted(cell for cell, value in values.items() if value == best)
        cell = str(self.rng.choice(choices))
        return Action(observation.data.get("labels", {}).get(cell, cell))  # a renamed variant's label

