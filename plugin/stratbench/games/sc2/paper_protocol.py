"""The paper protocol of the LLM-PySC2 family: as the released code prompts, reads and decides.

Differences from the default (``docs/PROTOCOLS.md``, "LLM-PySC2"): the released
2025 ``CombatGroupPrompt`` verbatim (one combat rule, example input ``xxxxx``,
the generic output format as the example answer); the text observation
without the project's ``Last Step Action Errors`` and off-screen sections;
actions read only after an ``Actions:`` line and team blocks only under a
``Team <name>:`` header; temperature 0.1. An empty reply is asked up to
5 times in all (the released 5 query attempts), then the decision plays no action.
"""

from __future__ import annotations

from stratbench.protocols import Protocol
from stratbench.registry import Registry

SOURCE = (
    "LLM-PySC2 (arXiv 2411.05348) §2.2-2.4 and Appendix A; prompt, reader and defaults as the released code "
    "(NKAI-Decision-Team/LLM-PySC2 llm_pysc2/lib/llm_prompt.py, llm_action.py, AgentConfig)"
)
QUERY_ATTEMPTS = 5
"""The released ``MAX_LLM_QUERY_TIMES``."""

GAMES = ("sc2_mock", "sc2_smac", "sc2_tasks")
"""The family's games registered here; the offline engine's games register theirs beside them."""


def protocol() -> Protocol:
    """Returns the family's paper protocol (for every SC2 text game)."""
    return Protocol(
        "paper",
        source=SOURCE,
        game_options={"protocol": "paper"},
        agent_options={"temperature": 0.1},
        suite={"illegal_tolerance": QUERY_ATTEMPTS, "fallback": "drop"},
    )


def register(registry: Registry) -> None:
    """Registers the paper protocol of the LLM-PySC2 games."""
    for game in GAMES:
        registry.add_protocol(game, protocol())
