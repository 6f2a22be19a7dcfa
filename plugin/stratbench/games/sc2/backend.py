"""What the ``sc2_smac`` and ``sc2_tasks`` games play on (``--sc2-backend``), kept apart from the games.

Choosing the backend when pytest configures imports only this module: the games and
the battle engine (and numpy) load when a StarCraft II suite is collected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

BACKEND: dict[str, Any] = {"name": "engine", "maps": None}
"""The backend's name (``engine`` or ``live``) and, for live play, the maps folder."""


def select_backend(name: str, maps_dir: Path | None = None) -> None:
    """Play the engine games on ``engine`` or ``live`` (the game, maps from ``maps_dir``)."""
    if name not in ("engine", "live"):
        raise ValueError(f"unknown StarCraft II backend {name!r}; known: engine, live")
    BACKEND.update(name=name, maps=maps_dir)
