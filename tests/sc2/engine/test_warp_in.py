"""Warp-in on task 8 through pysc2's SC2Env (raw functions): power field, cost, warp time, gate cooldown."""

import pytest
from stratbench.games.sc2.config import interface_format
from stratbench.games.sc2.engine.run_config import engine_backend
from stratbench.games.sc2.pysc2_compat import import_pysc2


@pytest.mark.slow
def test_zealots_warp_in_at_a_phasing_warp_prism_for_100_minerals_after_4_seconds():
    pysc2 = import_pysc2()
    from pysc2.env import sc2_env

    units, functions = pysc2.units, pysc2.actions.RAW_FUNCTIONS
    with engine_backend():
        env = sc2_env.SC2Env(map_name="pvz_task8_level1", players=[sc2_env.Agent(sc2_env.Race.protoss)],
                             agent_interface_format=interface_format(raw_actions=True), step_mul=1, random_seed=0)
        try:
            timestep = env.reset()[0]
            observation = timestep.observation
            assert int(observation.player.minerals) == 1600 and int(observation.player.vespene) == 0
            raw = observation.raw_units
            prism = next(u for u in raw if u.unit_type == units.Protoss.WarpPrism)
            gates = sorted(int(u.tag) for u in raw if u.unit_type == units.Protoss.WarpGate)
            beside = [int(prism.x) + 2, int(prism.y)]  # raw pixels are world units on this 64 x 64 map
            # no power field yet: refused, nothing spent
            timestep = env.step([functions.TrainWarp_Zealot_pt("now", gates, beside)])[0]
            assert int(timestep.observation.player.minerals) == 1600
            env.step([functions.Morph_WarpPrismPhasingMode_quick("now", [int(prism.tag)])])
            timestep = env.step([functions.TrainWarp_Zealot_pt("now", gates, beside)])[0]
            timestep = env.step([functions.TrainWarp_Zealot_pt("now", gates, [int(prism.x), int(prism.y) + 3])])[0]
            timestep = env.step([functions.TrainWarp_Stalker_pt("now", gates, beside)])[0]  # 50 vespene: refused
            assert int(timestep.observation.player.minerals) == 1600 - 2 * 100
            assert int(timestep.observation.game_loop[0]) == 5  # the warp commands ran on loops 2 and 3

            def zealots(step):
                return sum(1 for u in step.observation.raw_units
                           if u.unit_type == units.Protoss.Zealot and u.alliance == 1)

            seen = {}
            while int(timestep.observation.game_loop[0]) < 95:
                seen[int(timestep.observation.game_loop[0])] = zealots(timestep)
                timestep = env.step([functions.no_op()])[0]
            # 4 s = 90 loops: they arrive on loops 92 and 93 (seen in the observations after those loops)
            assert (seen[92], seen[93], seen[94]) == (0, 1, 2) and max(seen[loop] for loop in range(5, 93)) == 0
        finally:
            env.close()


def test_a_warp_gate_waits_20_seconds_after_a_zealot_and_eight_gates_warp_eight():
    from stratbench.games.sc2.engine.battle import Battle
    from stratbench.games.sc2.engine.warp_in import (
        COOLDOWN,
        NO_POWER,
        SUCCESS,
        morph_prisms,
        warp_in,
    )

    battle = Battle(40, 40)
    battle.resources[1] = {"minerals": 1000.0, "vespene": 0.0}
    prism = battle.add("Protoss.WarpPrism", 1, 20.0, 20.0)
    gates = [battle.add("Protoss.WarpGate", 1, 5.0, 5.0 + 4 * i) for i in range(2)]
    assert warp_in(battle, gates, "Protoss.Zealot", (21.0, 20.0)) == NO_POWER
    assert morph_prisms(battle, [prism], phasing=True) == SUCCESS
    assert [warp_in(battle, gates, "Protoss.Zealot", (21.0, 20.0)) for _ in range(3)] == [SUCCESS, SUCCESS, COOLDOWN]
    assert battle.resources[1]["minerals"] == 800
    battle.step(448)  # 20 s
    assert warp_in(battle, gates, "Protoss.Zealot", (20.0, 23.7)) == SUCCESS  # 3.7 from the prism: inside 3.75
    assert warp_in(battle, gates, "Protoss.Zealot", (20.0, 23.8)) == NO_POWER
    battle.step(2)
    assert sum(u.name == "Protoss.Zealot" for u in battle.alive(1)) == 2 and (prism.x, prism.y) == (20.0, 20.0)
