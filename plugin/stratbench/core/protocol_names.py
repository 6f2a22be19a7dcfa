"""Protocol names as a schedule and a match id carry them (what a protocol is: :mod:`stratbench.protocols`)."""

from __future__ import annotations

DEFAULT = "default"
"""The project's own protocol, played unless a suite's marker or ``--protocol`` names another."""
PAPER = "paper"
"""A family's paper protocol: as the paper's released code played the game."""


def id_prefix(name: str) -> str:
    """Returns the match-id prefix of a protocol (empty for the default)."""
    return "" if name == DEFAULT else f"{name}-"
