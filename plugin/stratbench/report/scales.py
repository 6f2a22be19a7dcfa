"""Score scales of the built-in games, for records that do not carry their game's scale.

A record names its game (and variant) but, before record version 2 of the
session, not the game's score range and sum. The report needs them to keep
quantities on different scales apart, so it asks the built-in game itself.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["builtin_scales"]

Scale = tuple[tuple[float, float], "float | None"]


def builtin_scales(games: dict[str, Any]) -> dict[str, Scale]:
    """Returns ``(score_range, score_sum)`` of each named installed game (any family's), built in the given variant.

    Args:
        games: Game name to one variant seen in the records (or None).

    Returns:
        The scales of the games that could be built; games no installed family registers, or that fail
        to build, are left out, which keeps them out of the overall average.
    """
    registry = _installed_games()
    if registry is None:
        return {}
    out: dict[str, Scale] = {}
    for name, variant in sorted(games.items()):
        if name not in registry.games:
            continue
        try:
            info = registry.game(name, variant).info
        except Exception:  # noqa: BLE001 - a game that cannot be built here just has no known scale
            continue
        low, high = info.score_range
        out[name] = ((float(low), float(high)), None if info.score_sum is None else float(info.score_sum))
    return out


@functools.cache
def _installed_games() -> Any:
    """The installed families' games, registered once per process (the report and the gate both ask); None when
    the families cannot be loaded."""
    from stratbench.families import FamilyLoadError, standalone_registry  # cli: loads pytest and every family

    try:
        return standalone_registry(("games",))
    except FamilyLoadError:
        return None
