"""Benchmarks the chess move-quality annotation: Stockfish MultiPV per annotated move.

Positions come from seeded random games (the position before each of
White's moves, as the metric annotates a subject's moves). For each depth,
one engine (one process, ``Threads=1``, fresh hash per position) analyses all
positions with MultiPV 10, exactly as :func:`stratbench.games.spin.metrics.chess.move_quality`
does. Reported: wall seconds per annotated move (mean, median, worst), the
engine's CPU seconds per move, and the engine start-up cost.

Usage::

    python bench/chess_annotate.py [--positions 60] [--depths 8 12 15] [--stockfish PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import time

import chess
from stratbench.games.spin.agents.stockfish import (
    STOCKFISH_MISSING,
    StockfishEngine,
    find_stockfish,
)
from stratbench.games.spin.metrics.chess import ANNOTATION_DEPTH, ANNOTATION_MULTIPV


def positions(count: int, seed: int) -> list[chess.Board]:
    """Returns ``count`` positions before White's moves in seeded random games."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        board = chess.Board()
        while board.outcome(claim_draw=False) is None and len(found) < count:
            if board.turn == chess.WHITE and board.fullmove_number <= 40:
                found.append(board.copy(stack=False))
            board.push(rng.choice(list(board.legal_moves)))
    return found


async def annotate(path: str, boards: list[chess.Board], depth: int) -> tuple[float, list[float]]:
    started = time.perf_counter()
    async with StockfishEngine(path) as engine:
        await engine.new_game()
        startup = time.perf_counter() - started
        times = []
        for board in boards:
            begin = time.perf_counter()
            await engine.new_game()
            await engine.analyse(board, multipv=ANNOTATION_MULTIPV, depth=depth)
            times.append(time.perf_counter() - begin)
    return startup, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--depths", type=int, nargs="+", default=[8, ANNOTATION_DEPTH, 15])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stockfish", default=None)
    args = parser.parse_args()
    path = find_stockfish(args.stockfish)
    if path is None:
        print(STOCKFISH_MISSING, file=sys.stderr)
        return 1
    boards = positions(args.positions, args.seed)
    print(f"{len(boards)} positions, MultiPV {ANNOTATION_MULTIPV}, Threads=1, engine {path}\n")
    print("| depth | mean s/move | median s/move | worst s/move | engine CPU s/move | engine start s |")
    print("|---|---|---|---|---|---|")
    for depth in args.depths:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        startup, times = asyncio.run(annotate(path, boards, depth))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / len(boards)
        print(f"| {depth}{' (default)' if depth == ANNOTATION_DEPTH else ''} | {statistics.mean(times):.3f} | "
              f"{statistics.median(times):.3f} | {max(times):.3f} | {cpu:.3f} | {startup:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
