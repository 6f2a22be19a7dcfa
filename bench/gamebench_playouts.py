"""Random playouts per second for registered games, with and without observations.

Usage:
    python bench/gamebench_playouts.py [--games air_land_sea sea_battle] [--seconds 5]

A playout picks uniformly random legal actions for every acting player until
the game ends. ``engine`` counts only ``legal_actions`` and ``apply``;
``observed`` also builds every acting player's observation, as the match
runner does before each decision.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from stratbench.core.game import CHANCE
from stratbench.core.types import Action


def _registry():
    from stratbench.families import standalone_registry

    return standalone_registry(("games",))


def playout(game, seed: int, *, observe: bool) -> int:
    """Plays one seeded random game and returns its number of decisions."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        players = state.current_players()
        if players == [CHANCE]:
            outcomes = state.chance_outcomes()
            state.apply({CHANCE: Action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])})
            continue
        joint = {}
        for player in players:
            if observe:
                game.observe(state, player)
            joint[player] = Action(rng.choice(state.legal_actions(player)))
        state.apply(joint)
    return state.turn


def measure(game, seconds: float, *, observe: bool) -> tuple[float, float]:
    """Returns (playouts per second, mean decisions per playout) over about ``seconds``."""
    start, games, turns = time.perf_counter(), 0, 0
    while time.perf_counter() - start < seconds:
        turns += playout(game, games, observe=observe)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, turns / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["air_land_sea", "sea_battle"])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    registry = _registry()
    print(f"python {platform.python_version()} on {platform.machine()}, {args.seconds:g} s per figure")
    print(f"{'game':<14} {'engine/s':>9} {'observed/s':>11} {'turns':>7}")
    for name in args.games:
        game = registry.game(name)
        rate, turns = measure(game, args.seconds, observe=False)
        observed, _ = measure(game, args.seconds, observe=True)
        print(f"{name:<14} {rate:>9.1f} {observed:>11.1f} {turns:>7.1f}")


if __name__ == "__main__":
    main()
