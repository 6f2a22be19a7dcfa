"""The paper protocol of the solver_games family."""

from __future__ import annotations

from stratbench.registry import Registry


def register(registry: Registry) -> None:
    """Registers the paper protocol of each game of the family."""
