"""The focus-fire baseline's ability rules (hand-placed units on a 128 px screen, 16/3 px per world unit)."""

from stratbench.games.sc2.engine import text_abilities as rules
from stratbench.games.sc2.unit_table import ENEMY, SELF, UnitInfo

PX = 128 / 24
_TAGS = iter(range(0x100000001, 0x200000000, 0x40000))


def _unit(kind: str, x: float, y: float, *, enemy: bool = False, health: int = 100, shield: int = 0,
          energy: int = 0) -> UnitInfo:
    race = "Zerg" if enemy else "Protoss"
    return UnitInfo(tag=next(_TAGS), type_id=0, type_name=kind, race=race, alliance=ENEMY if enemy else SELF,
                    health=health, shield=shield, energy=energy, health_ratio=255, shield_ratio=255,
                    weapon_cooldown=0, minimap=(0, 0), screen=(round(x), round(y)), is_selected=False)


def test_a_storm_lands_on_the_biggest_clump_and_never_near_own_units():
    templar = _unit("HighTemplar", 40, 64, energy=75)
    lings = [_unit("Zergling", 80 + dx, 64 + dy, enemy=True) for dx, dy in ((0, 0), (4, 0), (0, 4), (4, 4))]
    lone = _unit("Zergling", 40, 100, enemy=True)
    text = rules.storms([templar], lings + [lone], [templar], loop=0, memory={})
    # the clump's four lings are within 1.5 + 0.5 of the first one (1.06 world units apart at most)
    assert text == ["    <Ability_PsiStorm_Screen([80, 64])>"]
    guard = _unit("Zealot", 80, 64 + 2 * PX)  # two world units from the clump: inside SAFE_DISTANCE
    assert rules.storms([templar], lings, [templar, guard], loop=0, memory={}) == []
    assert rules.storms([_unit("HighTemplar", 40, 64, energy=74)], lings, [], loop=0, memory={}) == []


def test_a_shieldless_stalker_blinks_seven_from_the_nearest_enemy_once_per_cooldown():
    stalker = _unit("Stalker", 64, 64, health=40, shield=0)
    healthy = _unit("Stalker", 64, 80, health=80, shield=80)
    roach = _unit("Roach", 80, 64, enemy=True)
    memory: dict = {}
    # three world units (16 px) from the Roach: a blink of four more along the line away from it, 21.3 px left
    assert rules.blink([stalker, healthy], [roach], loop=100, memory=memory) == [
        f"    <Select_Unit_Blink_Screen({hex(stalker.tag)}, [43, 64])>", "    <Hold_Position()>"]
    assert rules.blink([stalker, healthy], [roach], loop=100 + 156, memory=memory) == []  # 7 s = 157 loops
    assert rules.blink([stalker, healthy], [roach], loop=100 + 157, memory=memory) != []


def test_graviton_beam_lifts_the_nearest_worker_and_the_team_attacks_it_while_it_floats():
    phoenixes = [_unit("Phoenix", 40, 64, energy=50), _unit("Phoenix", 40, 70)]
    near, far = _unit("Drone", 60, 64, enemy=True), _unit("Drone", 90, 64, enemy=True)
    queen = _unit("Queen", 50, 64, enemy=True)
    memory: dict = {}
    assert rules.graviton(phoenixes, [queen, near, far], loop=0, memory=memory) == [
        f"    <Ability_GravitonBeam_Unit({hex(near.tag)})>"]  # a worker before the nearer Queen
    phoenixes[1] = _unit("Phoenix", 40, 70, energy=50)
    assert rules.graviton(phoenixes, [queen, near, far], loop=64, memory=memory) == [
        f"    <Attack_Unit({hex(near.tag)})>", f"    <Ability_GravitonBeam_Unit({hex(far.tag)})>"]
    drained = [_unit("Phoenix", 40, 64, energy=49)]
    assert rules.graviton(drained, [queen, far], loop=64 + 160, memory=memory) == []  # nothing floats any more


def test_guardian_shield_against_ranged_enemies_once_it_has_ended():
    sentry = _unit("Sentry", 64, 64, energy=75)
    roach = _unit("Roach", 64 + 8 * PX, 64, enemy=True)
    ling = _unit("Zergling", 64 + 1 * PX, 64, enemy=True)
    memory: dict = {}
    assert rules.guardian_shield("Sentry-1", [sentry], [ling], loop=0, memory=memory) == []  # melee only
    assert rules.guardian_shield("Sentry-1", [sentry], [roach], loop=0, memory=memory) == ["    <Ability_GuardianShield()>"]
    assert rules.guardian_shield("Sentry-1", [sentry], [roach], loop=127, memory=memory) == []  # 5.71 s = 128 loops
    assert rules.guardian_shield("Sentry-1", [sentry], [roach], loop=128, memory=memory) != []


def test_purification_nova_once_per_disruptor_per_cooldown():
    disruptor = _unit("Disruptor", 40, 64)
    roaches = [_unit("Roach", 90 + dx, 64, enemy=True) for dx in (0, 8, 16)]  # 1.5 world units apart
    memory: dict = {}
    assert rules.nova("Disruptor-1", [disruptor], roaches, [disruptor], loop=0, memory=memory) == [
        f"    <Ability_PurificationNova_Attack({hex(roaches[1].tag)})>"]  # the middle Roach catches all three
    assert rules.nova("Disruptor-1", [disruptor], roaches, [disruptor], loop=478, memory=memory) == []  # 21.4 s = 479
    assert rules.nova("Disruptor-1", [disruptor], roaches, [disruptor], loop=479, memory=memory) != []


def test_a_warp_prism_flies_to_the_army_phases_and_the_gates_warp_zealots_around_it():
    prism = _unit("WarpPrism", 20, 64)
    stalkers = [_unit("Stalker", 80, 60), _unit("Stalker", 80, 68)]
    memory: dict = {}
    assert rules.warp_ins([prism], [prism, *stalkers], memory) == ["    <Move_screen(now, [80, 64])>"]
    there = _unit("WarpPrism", 80, 64)
    offset = round(1.5 * PX)  # 8 px: 1.5 world units from the prism, inside its 3.75 field
    assert rules.warp_ins([there], [there, *stalkers], memory) == [
        "    <Morph_WarpPrismPhasingMode()>", "    <select_warp_gates(select)>",
        f"    <TrainWarp_Zealot_screen(now, [{80 + offset}, 64])>"]
    assert rules.warp_ins([there], [there, *stalkers], memory) == [
        "    <select_warp_gates(select)>", "    <TrainWarp_Zealot_screen(now, [84, 71])>",
        "    <TrainWarp_Zealot_screen(now, [76, 71])>"]  # at 60 and 120 degrees
