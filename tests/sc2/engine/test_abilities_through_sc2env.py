"""Abilities reached through pysc2's own action translation on SC2Env-on-engine (raw ``Effect_*`` functions)."""

from stratbench.games.sc2.config import interface_format
from stratbench.games.sc2.engine.run_config import engine_backend
from stratbench.games.sc2.pysc2_compat import import_pysc2


def test_psionic_storm_and_guardian_shield_by_raw_function():
    pysc2 = import_pysc2()
    from pysc2.env import sc2_env

    units = pysc2.units
    with engine_backend():
        env = sc2_env.SC2Env(map_name="pvz_task6_level1", players=[sc2_env.Agent(sc2_env.Race.protoss)],
                             agent_interface_format=interface_format(raw_actions=True), step_mul=8, random_seed=0)
        try:
            timestep = env.reset()[0]
            raw = timestep.observation.raw_units
            assert min(int(u.tag) for u in raw) > len(raw)  # game-shaped tags, never read as raw_units positions
            templar = next(u for u in raw if u.unit_type == units.Protoss.HighTemplar)
            sentry = next(u for u in raw if u.unit_type == units.Protoss.Sentry)
            assert int(templar.energy) == 200 and int(sentry.energy) == 50
            # a storm 4 raw pixels (4 world units on this 64 map at raw resolution 64) ahead of the templar
            target = [int(templar.x) + 4, int(templar.y)]
            functions = pysc2.actions.RAW_FUNCTIONS
            timestep = env.step([functions.Effect_PsiStorm_pt("now", [int(templar.tag)], target)])[0]
            timestep = env.step([functions.Effect_GuardianShield_quick("now", [int(sentry.tag)])])[0]
            after = {int(u.tag): u for u in timestep.observation.raw_units}
            assert int(after[int(templar.tag)].energy) == 200 - 75  # regeneration over 16 loops is below 1
            assert int(after[int(sentry.tag)].energy) == 50  # 75 needed: refused (NotEnoughEnergy), nothing spent
        finally:
            env.close()
