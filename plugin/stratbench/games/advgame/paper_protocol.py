"""The paper protocol of the advgame family: AdvGameBench as its released code played it.

The released code's prompt wording (``games.advgame.prompts.paper_initial_prompt``
and ``paper_revision_prompt``: the side, the budget, the Appendix A rules,
the catalogue, an example and the "Important: ..." line; the revision
skeleton of digest B2.3), its JSON reader alone (no prose dropped around the
object), temperature 0.3 and 10 rounds. The match loop, the budget rule, the
over-budget re-prompt and the simulators are the same in both protocols.
Opponents are the ones the user names: the paper's three fixed opponent
models are given as ``--model``s (every model plays every other one, both
roles, both move orders); the greedy and random baselines stay as opponents
so the suite plays offline (``-k "not -vs-greedy and not -vs-random"``
leaves them out).
"""

from __future__ import annotations

from stratbench.protocols import PAPER, Protocol
from stratbench.registry import Registry
from stratbench.games.advgame import GAME_IDS

SOURCE = ("Yuan et al. 2025, 'Tracing LLM Reasoning Processes with Strategic Games' (AdvGameBench), and its "
          "released code "
          "(xia0pengyuan/AdvGameBench at 44a43b3: init.py, battle.py prompts; temperature 0.3 and top-p 1, "
          "10 rounds, §4)")


def register(registry: Registry) -> None:
    """Registers the paper protocol of each game of the family."""
    for game in GAME_IDS:
        registry.add_protocol(game, Protocol(
            PAPER,
            source=SOURCE,
            game_options={"protocol": "paper", "rounds": 10},
            agent_options={"temperature": 0.3},
        ))
