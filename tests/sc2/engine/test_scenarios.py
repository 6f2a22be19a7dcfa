"""The SMAC scenario files and the engine-level focus-fire vs attack-move figures."""

import pytest

from stratbench.games.sc2.engine.policies import attack_move_orders, focus_fire_orders, play
from stratbench.games.sc2.engine.scenarios import build_battle, load_scenario, scenario_names

SMAC_UNITS = {
    "2s3z": ({"Protoss.Stalker": 2, "Protoss.Zealot": 3}, {"Protoss.Stalker": 2, "Protoss.Zealot": 3}),
    "3s5z": ({"Protoss.Stalker": 3, "Protoss.Zealot": 5}, {"Protoss.Stalker": 3, "Protoss.Zealot": 5}),
    "1c3s5z": ({"Protoss.Colossus": 1, "Protoss.Stalker": 3, "Protoss.Zealot": 5},
               {"Protoss.Colossus": 1, "Protoss.Stalker": 3, "Protoss.Zealot": 5}),
    "3s5z_vs_3s6z": ({"Protoss.Stalker": 3, "Protoss.Zealot": 5}, {"Protoss.Stalker": 3, "Protoss.Zealot": 6}),
    "2c_vs_64zg": ({"Protoss.Colossus": 2}, {"Zerg.Zergling": 64}),
    "3s_vs_3z": ({"Protoss.Stalker": 3}, {"Protoss.Zealot": 3}),
    "3s_vs_4z": ({"Protoss.Stalker": 3}, {"Protoss.Zealot": 4}),
    "3s_vs_5z": ({"Protoss.Stalker": 3}, {"Protoss.Zealot": 5}),
    "2s_vs_1sc": ({"Protoss.Stalker": 2}, {"Zerg.SpineCrawler": 1}),
}


def _counts(battle, owner):
    counts = {}
    for unit in battle.alive(owner):
        counts[unit.name] = counts.get(unit.name, 0) + 1
    return counts


@pytest.mark.parametrize("name", sorted(SMAC_UNITS))
def test_smac_scenario_places_the_published_armies(name):
    scenario = load_scenario(name)
    battle = build_battle(scenario)
    assert (_counts(battle, 1), _counts(battle, 2)) == SMAC_UNITS[name]
    assert all(0 <= u.x <= battle.width and 0 <= u.y <= battle.height for u in battle.alive())
    assert scenario["time_limit_loops"] % 8 == 0


def test_every_scenario_file_is_listed_and_unknown_names_say_so():
    assert set(SMAC_UNITS) <= set(scenario_names())
    with pytest.raises(ValueError, match=r"^unknown SC2 engine scenario 'nope' \(no nope.json\); known: 1c3s5z, "):
        load_scenario("nope")


@pytest.mark.parametrize("name", ["3s_vs_3z", "2s3z"])
def test_focus_fire_beats_attack_move_where_focus_fire_matters(name):
    scenario = load_scenario(name)
    focus = [play(build_battle(scenario, seed), focus_fire_orders, scenario["time_limit_loops"]) for seed in range(8)]
    plain = [play(build_battle(scenario, seed), attack_move_orders, scenario["time_limit_loops"]) for seed in range(8)]
    # 2s3z is a mirror match: attack-move against the same scripted enemy wins 1 of 8 here (a quarter over
    # 24 seeds: the scripted side re-aims every 4 loops), focus fire 6 of 8
    assert sum(r["won"] for r in focus) >= 6
    assert sum(r["won"] for r in focus) >= sum(r["won"] for r in plain) + 2
    assert sum(r["kills"] for r in focus) > sum(r["kills"] for r in plain)
    assert sum(r["deaths"] for r in focus) < sum(r["deaths"] for r in plain)
