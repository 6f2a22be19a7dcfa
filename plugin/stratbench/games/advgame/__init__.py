"""AdvGameBench's three budgeted whole-strategy games (Yuan et al. 2025), as pure simulators.

Each side writes one JSON strategy under a budget; a deterministic simulator
plays the battle with no further input. Modules: ``tower_defense`` (Human vs
Demon), ``battle_card`` (the auto-battler, Invader vs Defender),
``turn_based`` (the attribute game, Invader vs Defender); ``common`` holds
what they share (the outcome record, validation problems, the budget rule,
the released code's JSON reading). Where the paper and the released code
disagree, the released code's catalogues are the default; each module's
docstring and ``docs/ADVGAME.md`` list the differences.
"""

from stratbench.games.advgame import battle_card, tower_defense, turn_based
from stratbench.games.advgame.common import (
    Outcome,
    StrategyProblem,
    decide_winner,
    read_strategy_json,
)

GAME_IDS = ("tower_defense", "battle_card", "turn_based")
"""The three AdvGameBench games (the paper's TDG, BCG, TAG)."""

__all__ = ["GAME_IDS", "Outcome", "StrategyProblem", "decide_winner", "read_strategy_json", "simulator"]


def simulator(game_id: str):
    """Returns the simulator module of ``game_id``.

    The module has ``simulate``, ``strategy_cost``, ``validate``, ``SIDES``,
    ``BUDGETS`` and ``INIT_TRIES``.

    Raises:
        ValueError: for an unknown id, naming the known ones.
    """
    modules = {"tower_defense": tower_defense, "battle_card": battle_card, "turn_based": turn_based}
    if game_id not in modules:
        raise ValueError(f"unknown AdvGameBench game {game_id!r}; known: {', '.join(GAME_IDS)}")
    return modules[game_id]
