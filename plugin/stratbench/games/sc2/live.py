"""Live StarCraft II: ``SC2Env`` factories for the installed game and the user's maps.

The game is found through ``SC2PATH`` (pysc2's own variable); the maps (the
released ``llm_smac`` and ``llm_pysc2`` folders, or any ``.SC2Map``) come from
``--sc2-maps DIR``. :func:`live_problem` says in one line why live play cannot
happen here (for skips); :func:`live_env_factory` checks the map file and
returns a factory of ``SC2Env`` s with the text interface's interface format,
the agent as Protoss against the built-in AI. Nothing here starts the game
until the factory is called.

Entry points: :func:`live_problem`, :func:`live_env_factory`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stratbench.games.sc2.config import interface_format
from stratbench.games.sc2.pysc2_compat import import_pysc2, unavailable_reason

SC2PATH = "SC2PATH"


def live_problem(maps_dir: Path | None) -> str | None:
    """Returns why the live game cannot play here (one line), or None when it can."""
    reason = unavailable_reason()
    if reason is not None:
        return reason
    game = os.environ.get(SC2PATH)
    if not game:
        return f"StarCraft II is not installed here ({SC2PATH} is not set)"
    if not Path(game).is_dir():
        return f"{SC2PATH}={game} is not a folder"
    if maps_dir is None:
        return "no maps folder given (--sc2-maps DIR)"
    return None


def map_file(maps_dir: Path, map_name: str) -> Path:
    """Returns ``map_name``'s file in ``maps_dir`` (searched recursively).

    Raises:
        FileNotFoundError: naming the map and the folder, in one line.
    """
    wanted = map_name if map_name.endswith(".SC2Map") else f"{map_name}.SC2Map"
    found = sorted(Path(maps_dir).rglob(wanted))
    if not found:
        raise FileNotFoundError(f"--sc2-maps: no {wanted} in {maps_dir}")
    return found[0].resolve()


def live_env_factory(map_name: str, maps_dir: Path, *, difficulty: str = "very_hard", enemy_race: str = "zerg",
                     step_mul: int = 1, game_steps_per_episode: int = 0) -> Callable[[], Any]:
    """Returns a factory of ``SC2Env`` s playing ``map_name`` from ``maps_dir``.

    Args:
        map_name: The map's file name without ``.SC2Map``.
        maps_dir: The user's maps folder (``--sc2-maps``).
        difficulty: The built-in AI's level (pysc2 ``Difficulty`` name; the released default ``very_hard``).
        enemy_race: The built-in AI's race (the tasks are PvZ).
        step_mul: Game loops per environment step (released: 1).
        game_steps_per_episode: The episode limit in game loops (0: the map's triggers end it).

    Raises:
        FileNotFoundError: when the map file is not in ``maps_dir``.
    """
    path = map_file(maps_dir, map_name)

    def factory() -> Any:
        pysc2 = import_pysc2()
        from pysc2.maps import lib  # optional: the [sc2] extra, after import_pysc2()

        definition = type(f"stratbench_{path.stem}", (lib.Map,), {
            "directory": str(path.parent), "filename": path.stem, "players": 2,
            "game_steps_per_episode": game_steps_per_episode, "step_mul": step_mul,
        })
        sc2_env = pysc2.sc2_env
        return sc2_env.SC2Env(
            map_name=definition(),
            players=[sc2_env.Agent(sc2_env.Race.protoss),
                     sc2_env.Bot(getattr(sc2_env.Race, enemy_race), getattr(sc2_env.Difficulty, difficulty))],
            agent_interface_format=interface_format(),
            step_mul=step_mul,
            game_steps_per_episode=game_steps_per_episode,
        )

    return factory
