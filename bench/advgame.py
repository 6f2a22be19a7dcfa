"""AdvGameBench baselines: revision matches between the baselines, process metrics, and simulations per second.

Usage:
    python bench/advgame.py [--games tower_defense battle_card turn_based] [--seeds 4] [--rounds 10]

Each subject baseline (``climber``, ``random``) plays each opponent
baseline (``random``, ``greedy``, ``climber``) in every game, in both roles
and both move orders (who revises first), ``--seeds`` times each: 10-round
matches of ``core.revision.play_revision_match`` (simulate, budget rule,
exactly one side revises per round, in turn). Per game, subject and opponent
(and pooled over the opponents, "all") it prints WR, ORR and CSR (the
paper's reading, pooled counts), the improvement slope (one OLS fit over all
(round number, win) points) and the released evaluator's slope and CSR, then
simulations per second of each simulator on random-valid strategy pairs.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import time

from stratbench.core.revision import play_revision_match
from stratbench.games.advgame import GAME_IDS, simulator
from stratbench.games.advgame.baselines import BaselineWriter, random_strategy
from stratbench.metrics import advgame as metrics

SUBJECTS = ("climber", "random")
OPPONENTS = ("random", "greedy", "climber")


def play_matches(game: str, subject: str, opponent: str, seeds: int, rounds: int) -> list[metrics.MatchTrace]:
    """Plays every role, move order and seed of one pairing; returns the subject's traces."""
    module = simulator(game)
    traces = []
    for seed in range(seeds):
        for role in module.SIDES:
            other = next(side for side in module.SIDES if side != role)
            for first in module.SIDES:
                rng = random.Random(f"{game}-{subject}-{opponent}-{seed}-{role}-{first}")
                writers = {role: BaselineWriter(subject, game, role, rng),
                           other: BaselineWriter(opponent, game, other, rng)}
                match = asyncio.run(play_revision_match(module, writers, first_reviser=first, rounds=rounds))
                traces.append(match.trace(role, opponent=opponent, game=game))
    return traces


def simulations_per_second(game: str, pairs: int = 200, seed: int = 0) -> float:
    """Times ``simulate`` on ``pairs`` random-valid strategy pairs (generation not timed)."""
    module = simulator(game)
    rng = random.Random(seed)
    batch = [{side: random_strategy(game, side, rng) for side in module.SIDES} for _ in range(pairs)]
    start = time.perf_counter()
    for strategies in batch:
        module.simulate(strategies)
    return pairs / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAME_IDS), choices=GAME_IDS)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}; {args.seeds} seeds x 2 roles x 2 orders "
          f"per pairing, {args.rounds} rounds")
    print("| game | subject | opponent | matches | WR | ORR | CSR | slope | slope (released) | CSR (released) | seconds |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game in args.games:
        for subject in SUBJECTS:
            start = time.perf_counter()
            by_opponent = {opponent: play_matches(game, subject, opponent, args.seeds, args.rounds)
                           for opponent in OPPONENTS}
            seconds = time.perf_counter() - start
            rows = [*by_opponent.items(), ("all", [t for traces in by_opponent.values() for t in traces])]
            for opponent, traces in rows:
                pooled = metrics.aggregate_paper(traces)
                released = metrics.aggregate_released(traces)
                seconds_text = f"{seconds:.1f}" if opponent == "all" else ""
                print(f"| {game} | {subject} | {opponent} | {len(traces)} | {pooled['win_rate']:.3f} "
                      f"| {pooled['over_correction_rate']:.3f} | {pooled['correction_success_rate']:.3f} "
                      f"| {pooled['improvement_slope']:+.4f} | {released['improvement_slope']:+.4f} "
                      f"| {released['correction_success_rate']:.3f} | {seconds_text} |")
    print()
    print("| game | simulations/s (random-valid pairs) |")
    print("|---|---|")
    for game in args.games:
        print(f"| {game} | {simulations_per_second(game):.0f} |")


if __name__ == "__main__":
    main()
