"""Order queues (shift), automatic targeting and simultaneous resolution, hand-computed."""

import pytest
from stratbench.games.sc2.engine.abilities import order_cast
from stratbench.games.sc2.engine.battle import ATTACK_MOVE, ATTACK_UNIT, HOLD, MOVE, STOP, Battle, Order
from stratbench.games.sc2.engine.unit_data import LOOPS_PER_SECOND


def _stalker_and_holding_zergling(battle: Battle):
    stalker = battle.add("Protoss.Stalker", 1, 10.0, 10.0)
    zergling = battle.add("Zerg.Zergling", 2, 15.0, 10.0)  # 5 - 0.625 - 0.375 = 4 edge to edge: in range 6
    zergling.order = Order(HOLD)
    return stalker, zergling


def test_a_queued_move_waits_until_the_attacked_unit_dies():
    # Zergling 35 hp, no armour, Light: 13 per shot, three shots at loops 0, 30, 60 kill it (39 >= 35).
    battle = Battle(40, 40)
    stalker, zergling = _stalker_and_holding_zergling(battle)
    battle.command(stalker.tag, Order(ATTACK_UNIT, target=zergling.tag))
    assert battle.command(stalker.tag, Order(MOVE, point=(10.0, 30.0)), queued=True)
    battle.step(61)  # loops 0..60
    assert not zergling.alive and (stalker.x, stalker.y) == (10.0, 10.0)
    battle.step()  # loop 61: the attack is done, the queued move becomes the order
    assert stalker.order.kind == MOVE and stalker.queue == [] and stalker.y == 10.0
    battle.step(10)  # ten loops of walking at 4.13 per second
    assert stalker.y == pytest.approx(10.0 + 10 * 4.13 / LOOPS_PER_SECOND)


def test_an_order_that_is_not_queued_replaces_the_queue_and_a_queued_order_on_an_idle_unit_starts_at_once():
    battle = Battle(40, 40)
    stalker, zergling = _stalker_and_holding_zergling(battle)
    battle.command(stalker.tag, Order(MOVE, point=(10.0, 20.0)), queued=True)  # idle: starts now
    assert stalker.order.kind == MOVE and stalker.queue == []
    battle.command(stalker.tag, Order(ATTACK_UNIT, target=zergling.tag), queued=True)
    battle.command(stalker.tag, Order(MOVE, point=(10.0, 30.0)), queued=True)
    assert [o.kind for o in stalker.queue] == [ATTACK_UNIT, MOVE]
    battle.command(stalker.tag, Order(HOLD))
    assert stalker.order.kind == HOLD and stalker.queue == []


def test_a_queued_blink_is_cast_when_the_walk_before_it_ends():
    battle = Battle(40, 40)
    stalker = battle.add("Protoss.Stalker", 1, 10.0, 10.0)
    battle.command(stalker.tag, Order(MOVE, point=(12.0, 10.0)))
    assert order_cast(battle, stalker.tag, "blink", (12.0, 16.0), queued=True)
    assert (stalker.x, stalker.y) == (10.0, 10.0) and stalker.queue[0].ability == "blink"
    # 2 - 0.5 (arrival distance) = 1.5 at 4.13 / 22.4 = 0.184 per loop: the walk ends on its 9th loop (loop 8)
    battle.step(8)
    assert stalker.order.kind == MOVE and stalker.x == pytest.approx(10.0 + 8 * 4.13 / LOOPS_PER_SECOND)
    battle.step()
    assert stalker.order.kind == "cast" and stalker.x == pytest.approx(11.5)
    battle.step()  # loop 9: the blink, from where the walk ended (6 away: in its range of 8)
    assert (stalker.x, stalker.y) == (12.0, 16.0) and stalker.order.kind == STOP
    assert stalker.ready["blink"] == 9 + round(7.0 * LOOPS_PER_SECOND)


def test_an_attack_moving_zealot_leaves_a_target_that_walked_out_of_reach_for_one_in_reach():
    # Liquipedia "Automatic Targeting": a target is kept until it leaves weapon range; an enemy in range is taken.
    battle = Battle(40, 40)
    runner = battle.add("Protoss.Stalker", 1, 10.0, 10.0)
    blocker = battle.add("Protoss.Zealot", 1, 11.2, 11.1)
    blocker.order = Order(HOLD)
    zealot = battle.add("Protoss.Zealot", 2, 11.2, 10.0)  # 1.2 - 0.625 - 0.5 = 0.075: in reach of the Stalker
    # and 1.1 - 0.5 - 0.5 = 0.1 from the blocker: in reach too, but the Stalker is nearer
    zealot.order = Order(ATTACK_MOVE, point=(10.0, 10.0))
    battle.step()
    assert zealot.engaged_tag == runner.tag
    battle.command(runner.tag, Order(MOVE, point=(1.0, 10.0)))
    while zealot.engaged_tag == runner.tag and battle.loop < 50:
        battle.step()
    assert zealot.engaged_tag == blocker.tag and (zealot.x, zealot.y) == (11.2, 10.0)  # switched without a step
    battle.step(20)  # the swing at loop 0 hit the Stalker; the next (19-loop cooldown) hits the blocker's shields
    assert (runner.health + runner.shield, blocker.health + blocker.shield) == (160 - 16, 150 - 16)


def test_a_chased_target_is_kept_when_nothing_else_is_in_reach():
    battle = Battle(60, 20)
    runner = battle.add("Protoss.Stalker", 1, 20.0, 10.0)
    zealot = battle.add("Protoss.Zealot", 2, 21.2, 10.0)
    zealot.order = Order(ATTACK_MOVE, point=(20.0, 10.0))
    battle.step()
    battle.command(runner.tag, Order(MOVE, point=(1.0, 10.0)))
    battle.step(40)
    # the first of the 40 loops it still has the Stalker in reach (positions at the loop's start) and stands
    assert zealot.engaged_tag == runner.tag and zealot.x == pytest.approx(21.2 - 39 * 3.15 / LOOPS_PER_SECOND)


def test_two_units_that_kill_each_other_in_the_same_loop_both_fire():
    # A unit killed during a loop still acts in it: the side that acts first (lower tags) has no edge.
    battle = Battle(40, 40)
    mine = battle.add("Terran.Marine", 1, 10.0, 10.0, health=5.0)
    theirs = battle.add("Terran.Marine", 2, 14.0, 10.0, health=5.0)
    battle.step()
    assert not mine.alive and not theirs.alive
    assert battle.kills == {1: 1, 2: 1} and battle.winner() == 0


def test_two_storm_commands_to_two_selected_templars_are_cast_by_both():
    # smart-casting: one caster obeys each command, one not already ordered to cast it first
    from stratbench.games.sc2.engine.controller import EngineServer

    server = EngineServer()
    server.battle = Battle(40, 40)
    first = server.battle.add("Protoss.HighTemplar", 1, 10.0, 10.0, energy=200.0)
    second = server.battle.add("Protoss.HighTemplar", 1, 10.0, 12.0, energy=200.0)
    tags = [first.tag, second.tag]
    assert server._command(tags, 1036, point=(25.0, 10.0)) == 1  # 15 away: walks into range 9 first
    assert server._command(tags, 1036, point=(25.0, 14.0)) == 1
    assert (first.order.ability, first.order.point) == ("psionic_storm", (25.0, 10.0))
    assert (second.order.ability, second.order.point) == ("psionic_storm", (25.0, 14.0))


def test_a_graviton_beam_channel_ends_when_the_lifted_unit_dies():
    battle = Battle(40, 40)
    phoenix = battle.add("Protoss.Phoenix", 1, 10.0, 10.0, energy=50.0)
    drone = battle.add("Zerg.Drone", 2, 12.0, 10.0)
    assert order_cast(battle, phoenix.tag, "graviton_beam", target=drone.tag)
    battle.step()  # cast on loop 0: channelled until 0 + 160 (7.14 s)
    assert phoenix.busy_until == 160 and drone.lifted(1)
    battle.step(9)
    battle.deal(1, drone, 40.0)
    battle.step()  # loop 10: the channel ends with the Drone
    assert phoenix.busy_until == 10 and phoenix.channel_target is None
