"""Win rate and KD of the engine's two scripted policies per LLM-SMAC map (and, with ``--tasks``, per task).

Run: ``PYTHONPATH=plugin python bench/sc2_baselines.py [--seeds 8] [--tasks]`` (prints a Markdown table).
KD = value of enemy units killed / value of own units lost (minerals + 2 x vespene), summed over the
seeds, as the released analyser does. The text baselines (``sc2-focus-fire``, ``sc2-attack-move``) play
the same maps through pysc2 and the text interface in ``pytest suites/sc2 --matches N``.
"""

from __future__ import annotations

import argparse

from stratbench.games.sc2.engine.conditions import WIN, result
from stratbench.games.sc2.engine.opponent import scripted_opponent_orders
from stratbench.games.sc2.engine.policies import attack_move_orders, focus_fire_orders
from stratbench.games.sc2.engine.scenarios import build_battle, load_scenario, scenario_names


def value(unit) -> float:
    return unit.stats.minerals + 2 * unit.stats.vespene


def episode(name: str, policy, seed: int) -> tuple[bool, float, float]:
    scenario = load_scenario(name)
    battle = build_battle(scenario, seed=seed)
    while result(battle, scenario) is None:
        if battle.loop % 8 == 0:
            policy(battle, 1)
        scripted_opponent_orders(battle, 2)
        battle.step()
    dead = [u for u in battle.units.values() if not u.alive]
    return (result(battle, scenario) == WIN, sum(value(u) for u in dead if u.owner == 2),
            sum(value(u) for u in dead if u.owner == 1))


def cell(name: str, policy, seeds: int) -> str:
    runs = [episode(name, policy, seed) for seed in range(seeds)]
    killed, lost = sum(r[1] for r in runs), sum(r[2] for r in runs)
    kd = "Inf" if lost == 0 else f"{killed / lost:.2f}"
    return f"{kd} ({round(100 * sum(r[0] for r in runs) / seeds)}%)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--tasks", action="store_true", help="also the LLM-PySC2 tasks")
    args = parser.parse_args()
    names = [n for n in scenario_names() if args.tasks or load_scenario(n).get("family") == "llm-smac"]
    print(f"| scenario | focus fire KD (WR) | attack-move KD (WR) |  ({args.seeds} seeds each)")
    print("|---|---|---|")
    for name in names:
        print(f"| {name} | {cell(name, focus_fire_orders, args.seeds)} | {cell(name, attack_move_orders, args.seeds)} |")


if __name__ == "__main__":
    main()
