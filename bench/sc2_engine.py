"""Simulated game seconds per wall (and CPU) second of the SC2 engine, through pysc2's SC2Env and bare.

Run: ``PYTHONPATH=plugin python bench/sc2_engine.py`` (prints a Markdown table).
"""

from __future__ import annotations

import time

from stratbench.games.sc2.engine.policies import attack_move_orders, play
from stratbench.games.sc2.engine.scenarios import build_battle, load_scenario, scenario_names
from stratbench.games.sc2.engine.unit_data import LOOPS_PER_SECOND


def bare(name: str) -> tuple[int, float, float, float]:
    """Units, game seconds, wall seconds and CPU seconds of one attack-move episode on the bare engine."""
    scenario = load_scenario(name)
    battle = build_battle(scenario, seed=0)
    start, cpu = time.perf_counter(), time.process_time()
    play(battle, attack_move_orders, scenario["time_limit_loops"])
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return len(battle.units), battle.loop / LOOPS_PER_SECOND, wall, cpu


def through_sc2env(name: str) -> tuple[float, float]:
    from stratbench.games.sc2.config import interface_format
    from stratbench.games.sc2.engine.run_config import engine_backend
    from stratbench.games.sc2.pysc2_compat import import_pysc2

    pysc2 = import_pysc2()  # before any _pb2 import (protobuf implementation switch)
    from pysc2.env import sc2_env
    with engine_backend():
        env = sc2_env.SC2Env(map_name=name, players=[sc2_env.Agent(sc2_env.Race.protoss)],
                             agent_interface_format=interface_format(raw_actions=True), step_mul=8)
        try:
            start = time.perf_counter()
            timestep = env.reset()[0]
            while not timestep.last():
                timestep = env.step([pysc2.actions.RAW_FUNCTIONS.no_op()])[0]
            wall = time.perf_counter() - start
            loops = int(timestep.observation.game_loop[0])
        finally:
            env.close()
    return loops / LOOPS_PER_SECOND, wall


def main() -> None:
    names = scenario_names()
    largest = max(names, key=lambda n: bare(n)[0])
    print("| scenario | units | game s | wall s (bare engine) | game s / wall s | game s / CPU s |")
    print("|---|---|---|---|---|---|")
    for name in names:
        units, game_s, wall, cpu = bare(name)
        print(f"| {name} | {units} | {game_s:.1f} | {wall:.2f} | {game_s / wall:.0f}x | {game_s / cpu:.0f}x |")
    print(f"\nLargest: {largest}. CPU time is this process's own (it differs from wall time on a shared machine).")
    game_s, wall = through_sc2env(largest)
    print(f"\nThrough pysc2 SC2Env (feature layers 84/64, raw units, no-op agent) on {largest}: "
          f"{game_s:.1f} game s in {wall:.2f} wall s = {game_s / wall:.1f}x real time.")


if __name__ == "__main__":
    main()
