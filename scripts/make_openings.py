"""Writes the opening books of Connect Four and chess (``stratbench.games.spin.openings``).

    python scripts/make_openings.py connect4   # ~20 s: every 4-ply position the solver scores a draw
    python scripts/make_openings.py chess      # ~2 min: Stockfish's top lines, 4 plies, within 40 cp

Connect Four: every sequence of four columns from the empty board is solved exactly
(``stratbench.games.spin.c4_solver`` with its opening book); the positions scored 0 (a draw
with best play) are kept once each (the first move order that reaches them).

Chess: from the start, Stockfish's ``--width`` best moves (MultiPV) at each of ``--plies`` plies;
each position reached is kept once (transpositions merged) when Stockfish at ``--depth`` scores it
within ``--within`` centipawns of equality for the side to move.

Both files are stored in a fixed shuffled order (seed ``stratbench-openings``), so consecutive
seeds start from unrelated positions; the tests check a sample of each against the solver and
Stockfish.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from pathlib import Path

from stratbench.games.spin.openings import ORDER_SEED  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "plugin" / "stratbench" / "games" / "spin"


def connect4() -> dict:
    from stratbench.games.spin import c4_solver
    from stratbench.games.spin.connect_four import COLUMNS

    solver = c4_solver.default_solver()
    seen, positions = set(), []
    for moves in itertools.product(range(COLUMNS), repeat=4):
        position = c4_solver.Position.from_moves(moves)
        if position.key() in seen:
            continue
        seen.add(position.key())
        if solver.solve(position) == 0:
            positions.append({"moves": list(moves), "score": 0})
    random.Random(ORDER_SEED).shuffle(positions)
    return {"about": "Connect Four positions four plies in that the solver scores a draw (0), once each; "
                     "columns 0-based from the left. Written by scripts/make_openings.py connect4.",
            "solver": solver.describe(), "positions": positions}


def chess_book(stockfish: str, plies: int, width: int, depth: int, within: int) -> dict:
    import chess
    import chess.engine

    engine = chess.engine.SimpleEngine.popen_uci(stockfish)
    try:
        engine.configure({"Threads": 1, "Hash": 64})
        lines = [[]]
        for _ in range(plies):
            grown = []
            for moves in lines:
                board = chess.Board()
                for uci in moves:
                    board.push_uci(uci)
                infos = engine.analyse(board, chess.engine.Limit(depth=depth), multipv=width)
                grown += [moves + [info["pv"][0].uci()] for info in infos if info.get("pv")]
            lines = grown
        seen, positions = set(), []
        for moves in lines:
            board = chess.Board()
            for uci in moves:
                board.push_uci(uci)
            key = board.epd()
            if key in seen:
                continue
            seen.add(key)
            score = engine.analyse(board, chess.engine.Limit(depth=depth))["score"].white()
            cp = score.score()
            if cp is None or abs(cp) > within:
                continue
            san = chess.Board().variation_san([chess.Move.from_uci(m) for m in moves])
            positions.append({"moves": moves, "san": san, "cp_white": cp})
        name = engine.id.get("name", "Stockfish")
    finally:
        engine.quit()
    random.Random(ORDER_SEED).shuffle(positions)
    return {"about": f"Chess openings of {plies} plies: Stockfish's {width} best moves at each ply, positions "
                     f"scored within {within} centipawns at depth {depth}, once each. Written by "
                     "scripts/make_openings.py chess.",
            "engine": name, "depth": depth, "positions": positions}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=("connect4", "chess"))
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--plies", type=int, default=4)
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--within", type=int, default=40)
    args = parser.parse_args(argv)
    data = connect4() if args.game == "connect4" else chess_book(
        args.stockfish, args.plies, args.width, args.depth, args.within)
    path = OUT / f"openings_{args.game}.json"
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{path}: {len(data['positions'])} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
