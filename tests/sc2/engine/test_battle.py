"""Hand-computed fights and properties of the battle engine."""

import random

from stratbench.games.sc2.engine.battle import ARRIVAL_DISTANCE, ATTACK_UNIT, HOLD, MOVE, Battle, Order, hit
from stratbench.games.sc2.engine.opponent import scripted_opponent_orders
from stratbench.games.sc2.engine.unit_data import stats_for, unit_stats


def _run(battle: Battle, limit: int = 5000) -> int:
    while battle.winner() is None and battle.loop < limit:
        battle.step()
    return battle.loop


def test_stalker_vs_zealot_standing_fight_matches_hand_computation():
    """Zealot (2x8, 19-loop cooldown) kills a Stalker in 11 attacks: 5 strip 80 shields, 6 x 2 x (8-1) >= 80 hp.

    The last attack fires at loop 10 * 19 = 190. The Stalker (13 per shot, 30-loop
    cooldown) fires at loops 0, 30, ..., 180: seven shots; shots 1-3 leave 11 shield,
    shot 4 breaks it and deals 2 - 1 = 1 to health, shots 5-7 deal 12 each: 100 - 1 - 36 = 63.
    """
    battle = Battle()
    stalker = battle.add("Protoss.Stalker", 1, 10.0, 10.0)
    zealot = battle.add("Protoss.Zealot", 2, 11.125, 10.0)
    assert stats_for("Protoss.Zealot").cooldown_loops == 19
    assert stats_for("Protoss.Stalker").cooldown_loops == 30
    _run(battle)
    assert battle.winner() == 2
    assert battle.loop == 191
    assert stalker.health == 0 and stalker.shield == 0
    assert zealot.shield == 0 and zealot.health == 63
    assert battle.kills == {1: 0, 2: 1}
    assert battle.damage_dealt[1] == 50 + 37


def test_bonus_damage_and_armor_floor():
    battle = Battle()
    stalker = battle.add("Protoss.Stalker", 1, 0, 0)
    roach = battle.add("Zerg.Roach", 2, 0, 0)
    assert stats_for("Protoss.Stalker").hit_damage(roach.stats) == 18
    assert hit(roach, 18, 0) == 17  # armour 1
    ling = battle.add("Zerg.Zergling", 2, 0, 0)
    assert hit(ling, 0.2, 0) == 0.5  # a hit never does less than 0.5
    assert stalker.health == 80


def test_hold_does_not_chase_and_move_ignores_enemies():
    battle = Battle()
    stalker = battle.add("Protoss.Stalker", 1, 0.0, 0.0)
    zealot = battle.add("Protoss.Zealot", 2, 9.0, 0.0)
    battle.command(stalker.tag, Order(HOLD))
    battle.command(zealot.tag, Order(MOVE, point=(9.0, 20.0)))
    battle.step(200)
    assert (stalker.x, stalker.y) == (0.0, 0.0)
    assert 20.0 - ARRIVAL_DISTANCE <= zealot.y <= 20.0 and zealot.health == 100 and zealot.shield == 50


def test_stalker_outranges_zealot_when_kiting_by_orders():
    """Attack when the weapon is ready, step back while reloading: the slower Zealot never lands a hit."""
    battle = Battle(width=200, height=10)  # room to retreat
    stalker = battle.add("Protoss.Stalker", 1, 190.0, 5.0)
    zealot = battle.add("Protoss.Zealot", 2, 196.0, 5.0)
    battle.command(zealot.tag, Order(ATTACK_UNIT, target=stalker.tag))
    while battle.winner() is None and battle.loop < 5000:
        ready = battle.loop >= stalker.weapon_ready_loop
        if ready:
            battle.command(stalker.tag, Order(ATTACK_UNIT, target=zealot.tag))
        else:
            battle.command(stalker.tag, Order(MOVE, point=(stalker.x - 10, 5.0)))
        battle.step()
    assert battle.winner() == 1
    assert stalker.health == 80 and stalker.shield == 80


def _random_fight(seed: int) -> Battle:
    rng = random.Random(seed)
    names = sorted(n for n, s in unit_stats().items() if s.has_weapon and s.speed > 0 and "ground" in s.targets)
    battle = Battle()
    for owner, x in ((1, 8.0), (2, 24.0)):
        for _ in range(rng.randint(1, 6)):
            battle.add(rng.choice(names), owner, x + rng.uniform(-3, 3), 16 + rng.uniform(-6, 6))
    return battle


def _play(battle: Battle) -> list[tuple]:
    trace = []
    while battle.winner() is None and battle.loop < 3000:
        scripted_opponent_orders(battle, 1)
        scripted_opponent_orders(battle, 2)
        before = {u.tag: (u.health, u.shield, u.x, u.y, u.weapon_ready_loop) for u in battle.units.values()}
        dead = {u.tag for u in battle.units.values() if not u.alive}
        battle.step()
        for unit in battle.units.values():
            if unit.tag not in before:  # summoned this loop (a Broodling): whole, alive
                assert unit.alive and unit.health == unit.stats.health
                continue
            h, s, x, y, ready = before[unit.tag]
            assert unit.health <= h + 1e-9 and unit.health >= 0  # health never rises, never negative
            assert 0 <= unit.shield <= unit.stats.shield
            if unit.tag in dead:  # a dead unit never acts
                assert (unit.x, unit.y, unit.weapon_ready_loop) == (x, y, ready)
        trace.append(tuple((u.tag, round(u.health, 6), round(u.shield, 6), round(u.x, 6), round(u.y, 6)) for u in battle.units.values()))
    return trace


def test_properties_and_deterministic_replay():
    for seed in range(4):
        first, second = _play(_random_fight(seed)), _play(_random_fight(seed))
        assert first == second
        assert all(v >= 0 for v in _random_fight(seed).damage_dealt.values())


def test_every_table_row_names_its_source():
    for stats in unit_stats().values():
        assert stats.source.startswith("Liquipedia"), stats.name
        assert stats.health > 0 and stats.armor >= 0


def test_an_unknown_unit_type_names_the_table():
    import pytest

    with pytest.raises(KeyError, match="unit type 'Zerg.Nope' is not in units.csv; known: Protoss.Adept, "):
        Battle().add("Zerg.Nope", 1, 0, 0)
