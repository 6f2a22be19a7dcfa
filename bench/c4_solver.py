"""Benchmarks the Connect Four solver against bitbully, position set by position set.

Each set holds seeded random positions with a given number of discs (the game
not over, the player to move unable to win at once): 0-6 plies (every ply
count from 0 to 6), then 8, 12, 16 and 24 plies. For every position both
solvers score **all** playable columns from a cold start (empty
transposition table, empty lookup caches; the opening books stay loaded),
and the scores must agree. Reported per set: median and worst time for
stratbench and for bitbully (wall, and CPU time of this process: bitbully runs
in-process too, so CPU time compares both fairly on a busy machine), and the
ratio of the CPU medians.

Past the book our solver searches with the numba-compiled negamax when numba
is installed (``--no-jit``: the pure-Python search). The one-time cost of the
compiled search (importing numba, then compiling, or loading the on-disk
cache) is paid and reported before the sets are timed.

bitbully (AGPL-3.0, C++) is only a side-by-side reference here:
``pip install 'pytest-stratbench[c4-reference]'``. Without it the script
times stratbench alone.

Usage::

    python bench/c4_solver.py [--per-set 10] [--seed 0] [--no-jit] [--sets 12 16]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time

from stratbench.games.spin.c4_solver import OpeningBook, Position, Solver, jit_available

SETS = [("0-6", list(range(7))), ("8", [8]), ("12", [12]), ("16", [16]), ("24", [24])]


def random_position(rng: random.Random, plies: int) -> list[int]:
    """Returns 0-based moves reaching an open position with ``plies`` discs and no immediate win."""
    while True:
        position, moves = Position(), []
        for _ in range(plies):
            column = rng.choice([c for c in range(7) if position.can_play(c)])
            if position.is_winning_move(column):
                break
            position.play(column)
            moves.append(column)
        else:
            if not position.can_win_next():
                return moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-set", type=int, default=10, help="positions per set (0-6: per ply count, at least 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-jit", action="store_true", help="search with the pure-Python negamax")
    parser.add_argument("--sets", nargs="+", metavar="NAME", help="only these sets (0-6, 8, 12, 16, 24)")
    args = parser.parse_args()
    jit = not args.no_jit and jit_available()
    try:
        import bitbully
    except ImportError:
        bitbully = None
        print("bitbully is not installed: timing stratbench alone", file=sys.stderr)

    book = OpeningBook()
    started = time.perf_counter()
    book.load()
    print(f"opening books loaded in {time.perf_counter() - started:.1f} s (once per process)")
    if jit:
        # The first compiled search imports numba and compiles (or loads the on-disk cache).
        wall, cpu = time.perf_counter(), time.process_time()
        Solver(None, jit=True).solve(Position.from_moves([int(c) - 1 for c in "44455554221"]))
        print(f"compiled search ready in {time.perf_counter() - wall:.1f} s wall / "
              f"{time.process_time() - cpu:.1f} s CPU (numba import + compile or cache load, once per process)")
    print(f"search past the book: {'numba' if jit else 'pure Python'}")
    reference = bitbully.BitBully() if bitbully is not None else None
    rng = random.Random(args.seed)
    print(f"python {platform.python_version()}, {platform.machine()}, positions per set: {args.per_set}, "
          f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| plies | positions | ours median s (wall / CPU) | ours worst s (wall / CPU) | "
          "bitbully median s (wall / CPU) | bitbully worst s (wall / CPU) | CPU median ratio | agree |")
    print("|---|---|---|---|---|---|---|---|")
    for name, plies_list in SETS:
        skip = bool(args.sets) and name not in args.sets  # positions are still drawn: same seeds
        walls, cpus, refs, ref_cpus, agree, count = [], [], [], [], True, 0
        for plies in plies_list:
            for _ in range(1 if plies == 0 else (max(1, args.per_set // 3) if len(plies_list) > 1 else args.per_set)):
                moves = random_position(rng, plies)
                if skip:
                    continue
                book.clear_cache()
                solver = Solver(book if book.available else None, jit=jit)
                wall, cpu = time.perf_counter(), time.process_time()
                ours = solver.score_moves(Position.from_moves(moves))
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                count += 1
                if reference is not None:
                    reference.reset_transposition_table()
                    board = bitbully.Board.from_moves(moves)
                    wall, cpu = time.perf_counter(), time.process_time()
                    theirs = dict(reference.score_all_moves(board))
                    refs.append(time.perf_counter() - wall)
                    ref_cpus.append(time.process_time() - cpu)
                    agree &= theirs == ours
        if skip:
            continue
        row = [name, str(count), f"{statistics.median(walls):.3f} / {statistics.median(cpus):.3f}",
               f"{max(walls):.3f} / {max(cpus):.3f}"]
        if refs:
            ref_cpu = statistics.median(ref_cpus)
            ratio = f"{statistics.median(cpus) / ref_cpu:.1f}x" if ref_cpu > 0 else "-"
            row += [f"{statistics.median(refs):.4f} / {ref_cpu:.4f}", f"{max(refs):.4f} / {max(ref_cpus):.4f}",
                    ratio, "yes" if agree else "NO"]
        else:
            row += ["-", "-", "-", "-"]
        print("| " + " | ".join(row) + " |", flush=True)
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
