"""Random playouts per second for every registered GameBench game and Tic-Tac-Toe.

Usage::

    python bench/engines.py [--games hive santorini] [--playouts 20] [--seconds 10] [--write FILE]

It measures whatever games are registered: Tic-Tac-Toe plus every game whose
``GameInfo.family`` is ``"gamebench"`` (or the names given with ``--games``).
A playout plays seeded uniformly random legal actions for every acting player
(chance nodes sampled) until the game ends. Two figures per game:

* ``engine``: only ``legal_actions`` and ``apply``, the rules engine alone;
* ``observed``: also ``observe`` for each acting player before each decision,
  as the match runner does (Hive renders its PNG there).

Each figure runs ``--playouts`` seeded playouts (seeds 0, 1, ...) or stops
early after ``--seconds``. Rates are given per wall second and per CPU second
of this process (``time.process_time``): on a shared machine the CPU figure
is the steadier one.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from dataclasses import dataclass
from importlib.metadata import version

from stratbench.core.game import CHANCE, Game
from stratbench.core.types import Action


def registry():
    """Returns a registry filled with stratbench's built-in games."""
    from stratbench.families import standalone_registry

    return standalone_registry(("games",))


def default_games(names: list[str] | None = None) -> list[str]:
    """Returns Tic-Tac-Toe and the registered GameBench games, or the names given."""
    games = registry()
    if names:
        return names
    found = [n for n in sorted(games.games) if n == "tictactoe"]
    for name in sorted(games.games):
        try:
            if games.game(name).info.family == "gamebench":
                found.append(name)
        except Exception:  # games needing a variant or options are not engines to time here
            continue
    return found


def playout(game: Game, seed: int, *, observe: bool) -> int:
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
            legal = state.legal_actions(player)
            if legal:
                joint[player] = Action(rng.choice(legal))
            else:
                action = Action(sorted(state.open_ended(player))[0], "pass")
                if not state.is_legal(player, action):  # an answer with rules (a Codenames clue)
                    action = state.fallback_action(player, rng) or action
                joint[player] = action
        state.apply(joint)
    return state.turn


@dataclass
class Figure:
    """One timed batch of playouts."""

    playouts: int
    decisions: int
    wall_s: float
    cpu_s: float

    @property
    def per_wall_s(self) -> float:
        return self.playouts / self.wall_s

    @property
    def per_cpu_s(self) -> float:
        return self.playouts / self.cpu_s

    @property
    def decisions_per_cpu_s(self) -> float:
        return self.decisions / self.cpu_s


def measure(game: Game, playouts: int, seconds: float, *, observe: bool) -> Figure:
    """Runs up to ``playouts`` seeded playouts, stopping early after ``seconds``."""
    wall, cpu = time.perf_counter(), time.process_time()
    done = decisions = 0
    while done < playouts and (done == 0 or time.perf_counter() - wall < seconds):
        decisions += playout(game, done, observe=observe)
        done += 1
    return Figure(done, decisions, time.perf_counter() - wall, time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=None, metavar="NAME")
    parser.add_argument("--playouts", type=int, default=20, metavar="N")
    parser.add_argument("--seconds", type=float, default=10.0, metavar="S")
    parser.add_argument("--write", default=None, metavar="FILE", help="Also write the table as Markdown")
    args = parser.parse_args()
    games = registry()
    rows = [
        "| game | mode | playouts | decisions/playout | playouts/s (wall) | playouts/s (CPU) | decisions/s (CPU) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in default_games(args.games):
        game = games.game(name)
        for mode in ("engine", "observed"):
            fig = measure(game, args.playouts, args.seconds, observe=mode == "observed")
            rows.append(
                f"| {name} | {mode} | {fig.playouts} | {fig.decisions / fig.playouts:.1f} | "
                f"{fig.per_wall_s:.2f} | {fig.per_cpu_s:.2f} | {fig.decisions_per_cpu_s:.0f} |"
            )
            print(rows[-1], flush=True)
    machine = (
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"Pillow {version('pillow')}; load average at the end {os.getloadavg()[0]:.2f}."
    )
    print(machine)
    if args.write:
        command = "python bench/engines.py " + " ".join(sys.argv[1:])
        with open(args.write, "w") as out:
            out.write(f"Command: `{command}`\n\n" + "\n".join(rows) + f"\n\n{machine}\n")


if __name__ == "__main__":
    main()
