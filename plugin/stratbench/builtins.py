"""The built-in game families: each one a plugin folder under ``games/``, installed as a ``stratbench`` entry point.

This module lists them and nothing else. A family is loaded like a
third-party one (:mod:`stratbench.families`); the list lets the loader
tell a stale install (an entry point missing) from a family that was never
there.
"""

from __future__ import annotations

FAMILIES: tuple[str, ...] = ("spin", "gamebench", "advgame", "sc2")
"""The built-in families, by entry-point name (``games/<name>/plugin.py``)."""
