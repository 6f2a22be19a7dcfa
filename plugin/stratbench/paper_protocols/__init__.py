"""The paper protocols of the built-in families (see :mod:`stratbench.protocols`).

One module per family registers its games' ``paper`` protocol; the wording,
answer formats and readers live with the games themselves. ``docs/PROTOCOLS.md``
lists every difference from the default.
"""

from __future__ import annotations

from stratbench.registry import Registry

FAMILIES = ("solver_games", "planning", "probes", "hanabi", "diplomacy", "gamebench", "advgame", "sc2")


def register_all(registry: Registry) -> None:
    """Registers every built-in family's paper protocol."""
    import importlib

    for family in FAMILIES:
        importlib.import_module(f"stratbench.paper_protocols.{family}").register(registry)
