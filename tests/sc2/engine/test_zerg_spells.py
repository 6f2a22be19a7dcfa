"""Infestor, Viper, Swarm Host, Brood Lord and Carrier mechanics, hand-computed (22.4 loops a second)."""

import math

import pytest
from stratbench.games.sc2.engine.abilities import ABILITIES, cast, ready
from stratbench.games.sc2.engine.battle import ATTACK_UNIT, HOLD, MOVE, Battle, Order
from stratbench.games.sc2.engine.conditions import result
from stratbench.games.sc2.engine.opponent import scripted_opponent_orders
from stratbench.games.sc2.engine.policies import focus_fire_orders
from stratbench.games.sc2.engine.scenarios import build_battle, load_scenario
from stratbench.games.sc2.engine.unit_data import LOOPS_PER_SECOND, stats_for


def test_fungal_growth_deals_30_over_2_85_seconds_and_roots_as_long():
    # 2.85 s = 64 loops: 30 / 64 per loop, ignoring armour; a Marine (45 hp) keeps 15, a Zealot loses 30 shields
    battle = Battle(40, 40)
    infestor = battle.add("Zerg.Infestor", 2, 10.0, 10.0, energy=75.0)
    marine = battle.add("Terran.Marine", 1, 18.0, 10.0)
    zealot = battle.add("Protoss.Zealot", 1, 18.0, 11.5)
    far = battle.add("Terran.Marine", 1, 18.0, 14.0)  # 4 from the point: outside the radius 2.25
    for unit in (marine, zealot, far):
        battle.command(unit.tag, Order(MOVE, point=(30.0, unit.y)))
    assert ABILITIES["fungal_growth"].duration_loops == 64
    assert cast(battle, infestor, "fungal_growth", (18.0, 10.0))
    assert infestor.energy == 0.0
    battle.step(64)  # loops 0..63: 64 ticks, no step taken by the rooted units
    assert marine.health == pytest.approx(15.0) and (marine.x, zealot.x) == (18.0, 18.0)
    assert zealot.shield == pytest.approx(20.0) and zealot.health == 100.0
    assert far.health == 45.0 and far.x == pytest.approx(18.0 + 64 * 3.15 / LOOPS_PER_SECOND)
    battle.step()  # loop 64: free again, no more damage
    assert marine.health == pytest.approx(15.0) and marine.x == pytest.approx(18.0 + 3.15 / LOOPS_PER_SECOND)
    assert battle.damage_dealt[2] == pytest.approx(60.0)


def test_locusts_spawn_in_pairs_and_die_after_18_seconds_without_a_kill():
    battle = Battle(40, 40)
    host = battle.add("Zerg.SwarmHost", 2, 10.0, 10.0)
    assert cast(battle, host, "spawn_locusts")
    locusts = [u for u in battle.alive(2) if u.name == "Zerg.Locust"]
    assert len(locusts) == 2 and all(u.health == 50 for u in locusts)
    life = round(18 * LOOPS_PER_SECOND)  # 403 loops
    assert all(u.expires == life for u in locusts)
    assert not ready(battle, host, "spawn_locusts") and host.ready["spawn_locusts"] == round(43 * LOOPS_PER_SECOND)
    battle.step(life)  # loops 0..402
    assert all(u.alive for u in locusts)
    battle.step()
    assert not any(u.alive for u in locusts) and battle.kills == {1: 0, 2: 0}


def test_a_brood_lord_attack_hatches_a_broodling_at_its_ground_target_that_lives_5_71_seconds():
    battle = Battle(40, 40)
    brood_lord = battle.add("Zerg.BroodLord", 2, 10.0, 10.0)
    zealot = battle.add("Protoss.Zealot", 1, 19.0, 10.0)  # 9 - 1 - 0.5 = 7.5 edge to edge: in range 10
    zealot.order = Order(HOLD)
    battle.command(brood_lord.tag, Order(ATTACK_UNIT, target=zealot.tag))
    battle.step()
    broodlings = [u for u in battle.alive(2) if u.name == "Zerg.Broodling"]
    assert len(broodlings) == 1 and zealot.shield == 50 - 20
    assert math.hypot(broodlings[0].x - zealot.x, broodlings[0].y - zealot.y) == pytest.approx(0.5)
    assert broodlings[0].expires == round(5.71 * LOOPS_PER_SECOND) == 128
    assert stats_for("Zerg.Broodling").minerals == 0


def test_abduct_pulls_a_colossus_to_the_vipers_side():
    battle = Battle(40, 40)
    viper = battle.add("Zerg.Viper", 2, 10.0, 10.0, energy=75.0)
    colossus = battle.add("Protoss.Colossus", 1, 18.0, 10.0)
    assert cast(battle, viper, "abduct", target=colossus.tag)
    # 0.625 (Viper) + 1.0 (Colossus) + 1.0 apart, on the line it was pulled along
    assert (colossus.x, colossus.y) == (pytest.approx(12.625), 10.0) and viper.energy == 0.0


def test_a_blinding_cloud_brings_a_stalker_to_melee_range_for_5_71_seconds():
    battle = Battle(40, 40)
    viper = battle.add("Zerg.Viper", 2, 18.0, 14.0, energy=100.0)  # 8.9 from the point: in range 11
    stalker = battle.add("Protoss.Stalker", 1, 10.0, 10.0)
    ling = battle.add("Zerg.Zergling", 2, 13.0, 10.0)  # 3 - 1 = 2 edge to edge: in range 6, not melee
    ling.order = Order(HOLD)
    battle.command(stalker.tag, Order(HOLD))
    assert cast(battle, viper, "blinding_cloud", (10.0, 10.0))
    battle.step(128)  # 5.71 s
    assert ling.health == 35
    battle.step()  # the cloud is gone: the Stalker fires
    assert ling.health == 35 - 13


def test_a_parasitic_bomb_deals_120_over_7_seconds_to_air_units_near_its_target():
    battle = Battle(40, 40)
    viper = battle.add("Zerg.Viper", 2, 10.0, 10.0, energy=125.0)
    target = battle.add("Protoss.Phoenix", 1, 16.0, 10.0)
    near = battle.add("Protoss.Phoenix", 1, 16.0, 12.0)  # 2 from the target
    far = battle.add("Protoss.Phoenix", 1, 16.0, 15.0)  # 5 from it
    stalker = battle.add("Protoss.Stalker", 1, 16.0, 9.0)  # ground: untouched
    for unit in (target, near, far, stalker):
        unit.order = Order(HOLD)
    assert cast(battle, viper, "parasitic_bomb", target=target.tag)
    battle.step(157)  # 7 s: 120 / 157 per loop
    for phoenix in (target, near):
        assert phoenix.shield == 0 and phoenix.health == pytest.approx(120 - 60)
    assert far.health + far.shield == 180 and stalker.health + stalker.shield == 160


def _spells_battle(name: str, seed: int):
    scenario = load_scenario(name)
    battle = build_battle(scenario, seed=seed)
    for unit in battle.alive(2):
        if unit.stats.energy:
            unit.energy = unit.stats.energy  # full energy, so every spell comes up
    return scenario, battle


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pvz_task7_level2", "pvz_task5_level3"])
def test_spells_and_summons_keep_damage_positive_dead_units_still_and_replay_identically(name):
    def play(seed):
        scenario, battle = _spells_battle(name, seed)
        seen, trace, kinds = {}, [], set()
        while result(battle, scenario) is None:
            if battle.loop % 8 == 0:
                focus_fire_orders(battle, 1)
            scripted_opponent_orders(battle, 2)
            dead = {u.tag: (u.x, u.y, u.weapon_ready_loop) for u in battle.units.values() if not u.alive}
            battle.step()
            kinds |= {e.kind for e in battle.effects}
            for unit in battle.units.values():
                assert unit.health >= 0 and unit.shield >= 0
                assert unit.health + unit.shield <= seen.get(unit.tag, math.inf) + 2.0 / 16 + 1e-9
                seen[unit.tag] = unit.health + unit.shield
                if unit.tag in dead:
                    assert (unit.x, unit.y, unit.weapon_ready_loop) == dead[unit.tag]
            trace.append(tuple((u.tag, round(u.x, 6), round(u.y, 6), u.health, u.shield) for u in battle.alive()))
        summoned = {u.name for u in battle.units.values()} & {"Zerg.Locust", "Zerg.Broodling", "Protoss.Interceptor"}
        return trace, kinds, summoned

    first, kinds, summoned = play(3)
    assert play(3)[0] == first
    if name == "pvz_task7_level2":  # Infestors and Vipers cast, Brood Lords hatch, Carriers launch
        assert "fungal_growth" in kinds and kinds & {"blinding_cloud", "parasitic_bomb"}
        assert summoned == {"Zerg.Broodling", "Protoss.Interceptor"}
    else:
        assert summoned == {"Zerg.Locust"}


def test_a_carrier_launches_its_interceptors_one_per_0_27_seconds_and_docks_them_when_the_fight_ends():
    from stratbench.games.sc2.engine.interceptors import HANGAR

    battle = Battle(40, 40)
    carrier = battle.add("Protoss.Carrier", 1, 10.0, 10.0)
    ling = battle.add("Zerg.Zergling", 2, 17.0, 10.0)  # 7 - 1.25 - 0.375 = 5.375: in launch range 8
    ling.order = Order(HOLD)
    battle.command(carrier.tag, Order(ATTACK_UNIT, target=ling.tag))
    assert carrier.hangar == HANGAR == 8
    interval = round(0.27 * LOOPS_PER_SECOND)  # 6 loops
    battle.step(1 + 3 * interval)  # launches on loops 0, 6, 12, 18
    out = [u for u in battle.alive(1) if u.name == "Protoss.Interceptor"]
    assert len(out) == 4 and carrier.hangar == 4
    while ling.alive and battle.loop < 200:
        battle.step()
    assert not ling.alive and battle.damage_dealt[1] == 35  # 5 x 2 per Interceptor volley, no armour
    battle.step(60)  # the fight is over: every Interceptor flies back and docks, none lost
    assert carrier.hangar == 8 and not any(u.name == "Protoss.Interceptor" for u in battle.units.values())
