"""The paper protocol of the planning family: SPIN-Bench's PDDL tasks as its released code read them.

Differences from the default (``docs/PROTOCOLS.md``): only the ``$$ ... $$``
JSON's ``plan`` string is read (:func:`read_plan_answer`, registered as
``spin_pddl_plan``); an unreadable answer fails the task (class Other) with no
retry, as the released code wrote an error string to VAL's plan file; the
request carries the released model wrapper's system prompt; temperature 0.
The prompt stays the paper's Appendix E.1.
"""

from __future__ import annotations

from stratbench.core.types import Action, ActionParseError, Observation
from stratbench.games.spin.planning.plan_parsing import PlanParseError, released_plan
from stratbench.protocols import Protocol
from stratbench.registry import Registry

SOURCE = (
    "SPIN-Bench (arXiv 2503.12349) Appendix E.1 prompt; answer read as the released code "
    "(spinbench/spinbench tasks/PDDL/inference.py) reads it; temperature 0 as its single-prompt calls"
)


def read_plan_answer(reply: str, observation: Observation) -> Action:
    """Returns the ``plan`` action with the whole reply when its ``$$ ... $$`` JSON holds a plan string.

    Raises:
        ActionParseError: naming what the released reader could not read.
    """
    try:
        released_plan(reply)
    except PlanParseError as error:
        raise ActionParseError(f"Unreadable plan: {error}.") from None
    return Action("plan", reply)


def register(registry: Registry) -> None:
    """Registers the paper protocol of ``pddl``."""
    registry.add_protocol("pddl", Protocol(
        "paper",
        source=SOURCE,
        game_options={"protocol": "paper"},
        agent_options={"temperature": 0.0},
        suite={"illegal_tolerance": 1, "fallback": "forfeit"},
    ))
