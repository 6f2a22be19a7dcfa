"""Win rate and KD of the scripted SC2 baselines per LLM-SMAC map (and, with ``--tasks``, per task).

Run: ``PYTHONPATH=plugin python bench/sc2_baselines.py [--seeds 8] [--tasks] [--text] [--maps 2s3z,3s_vs_3z]``
(prints a Markdown table). Engine level (default): the policies of ``engine/policies.py`` act on the
battle every 8 game loops. ``--text``: the text baselines ``sc2-focus-fire`` and ``sc2-attack-move``
play through pysc2's ``SC2Env`` on the engine and the text interface (the released decision loop,
parser and translator: the path ``pytest suites/sc2`` takes), one episode per seed. KD = value of
enemy units killed / value of own units lost (minerals + 2 x vespene), summed over the seeds, as the
released analyser does.
"""

from __future__ import annotations

import argparse
import asyncio

from stratbench.games.sc2.engine.conditions import WIN, result
from stratbench.games.sc2.engine.opponent import scripted_opponent_orders
from stratbench.games.sc2.engine.policies import attack_move_orders, focus_fire_orders
from stratbench.games.sc2.engine.scenarios import (
    build_battle,
    load_scenario,
    scenario_names,
)


def value(unit) -> float:
    return unit.stats.minerals + 2 * unit.stats.vespene


def episode(name: str, policy, seed: int) -> tuple[bool, float, float]:
    """One engine-level episode: won, value killed, value lost."""
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


def text_episode(name: str, agent_class, seed: int) -> tuple[bool, float, float]:
    """One episode of a text baseline through SC2Env on the engine: won, value killed, value lost."""
    from stratbench.games.sc2.engine.games import smac_game, tasks_game

    game = tasks_game(name) if load_scenario(name).get("family") == "llm-pysc2" else smac_game(name)
    state = game.new_initial_state(seed)
    agents = [agent_class() for _ in range(game.info.num_players)]
    while not state.is_terminal():
        players = state.current_players()
        actions = {p: asyncio.run(agents[p].act(game.observe(state, p))) for p in players}
        state.apply(actions)
    outcome = game.results[-1]
    return outcome.outcome == "win", outcome.killed_value, outcome.lost_value


def cell(runs: list[tuple[bool, float, float]]) -> str:
    killed, lost = sum(r[1] for r in runs), sum(r[2] for r in runs)
    kd = "Inf" if lost == 0 else f"{killed / lost:.2f}"
    return f"{kd} ({round(100 * sum(r[0] for r in runs) / len(runs))}%)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--tasks", action="store_true", help="also the LLM-PySC2 tasks")
    parser.add_argument("--text", action="store_true", help="the text baselines through SC2Env on the engine")
    parser.add_argument("--maps", default="", help="comma-separated scenario names (default: every SMAC map)")
    args = parser.parse_args()
    if args.maps:
        names = args.maps.split(",")
    else:
        names = [n for n in scenario_names() if args.tasks or load_scenario(n).get("family") == "llm-smac"]
    if args.text:
        from stratbench.games.sc2.engine.text_baselines import (
            AttackMoveAgent,
            FocusFireAgent,
        )
        from stratbench.games.sc2.pysc2_compat import import_pysc2

        import_pysc2()
        pair, play, level = (FocusFireAgent, AttackMoveAgent), text_episode, "text, through SC2Env"
    else:
        pair, play, level = (focus_fire_orders, attack_move_orders), episode, "engine"
    print(f"| scenario | focus fire KD (WR) | attack-move KD (WR) |  ({level}; {args.seeds} seeds each)")
    print("|---|---|---|")
    for name in names:
        cells = [cell([play(name, side, seed) for seed in range(args.seeds)]) for side in pair]
        print(f"| {name} | {cells[0]} | {cells[1]} |", flush=True)


if __name__ == "__main__":
    main()
