"""Chess: two players, perfect information, deterministic; rules from python-chess.

The engine wraps :class:`chess.Board` and never reimplements the rules.
Legal actions are Standard Algebraic Notation (SAN, ``"Nf3"``, ``"O-O"``,
``"e8=Q+"``), sorted; an answer in SAN or in UCI (``"g1f3"``) is accepted and
mapped to SAN. As in SPIN-Bench, the game ends only when python-chess says it
is over without a claim: checkmate, stalemate, insufficient material, the
75-move rule or fivefold repetition. A win scores 1, a loss 0, a draw 0.5.

Agents get the FEN, the UCI move list and a copy of the board without its
move stack (``board.copy(stack=False)``), never the live board.

``ChessGame(protocol="paper")`` words each decision as SPIN-Bench's released
code does (:mod:`stratbench.games.spin.spin_paper`): FEN and board in tags, the
legal moves in UCI, a JSON answer naming a UCI move; actions stay SAN. Its
move-quality analysis runs at :data:`PAPER_ANNOTATION_DEPTH`.

Chess has no renamed variant (``--obfuscate``): its notation is the language
the game is played in, and renaming squares and pieces would test a different
game, not a memorised one.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

import chess
import chess.pgn
import chess.svg

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.types import Action, Asking, Observation, Rules
from stratbench.games.spin import openings as openings_
from stratbench.games.spin import spin_paper

__all__ = ["ChessGame", "ChessState", "board_svg", "move_list_text", "pgn_of"]

_COLORS = ("White", "Black")
MAX_PLIES = 17_700
"""A safety net above the longest game the 75-move rule allows (8,848.5 moves)."""
PAPER_ANNOTATION_DEPTH = 15
"""Move-quality depth under the paper protocol: SPIN-Bench's rating engine (skill 20, MultiPV 10)
searched at its wrapper's default depth, 15 (``STRATBENCH_CHESS_ANNOTATION_DEPTH`` overrides it when a game is
made)."""


def annotation_depth(default: int) -> int:
    """The move-quality analysis's Stockfish depth: ``STRATBENCH_CHESS_ANNOTATION_DEPTH`` when set, else ``default``;
    read when asked (a game made, a match annotated), never at import."""
    return int(os.environ.get("STRATBENCH_CHESS_ANNOTATION_DEPTH") or default)

INFO = GameInfo(
    name="chess",
    num_players=2,
    sides=((0,), (1,)),
    max_turns=MAX_PLIES,
    score_range=(0.0, 1.0),
    score_sum=1.0,
    family="spin",
)

RULES = Rules(
    title="Chess",
    summary=(
        "Standard chess on an 8x8 board. White moves first. Checkmate the opponent's king to win. "
        "The game is drawn by stalemate, insufficient material, 75 moves by each side without a capture "
        "or pawn move, or the same position occurring five times; draws cannot be claimed or offered. "
        "In the board diagram pieces are letters, uppercase for White (K Q R B N P) and lowercase for "
        "Black; '.' is an empty square, rank 8 is at the top and file a on the left. "
        "Answer with one legal move in Standard Algebraic Notation (for example Nf3, exd5, O-O, e8=Q) "
        "or in UCI notation (for example g1f3, e7e8q)."
    ),
)


@lru_cache(maxsize=None)
def opening_book() -> tuple[tuple[str, ...], ...]:
    """Short openings Stockfish scores near equality, as the UCI moves played from the start
    (``openings_chess.json``, ``--openings book``)."""
    return tuple(tuple(str(m) for m in moves) for moves in openings_.read_book("openings_chess.json"))


class ChessState(State):
    """A chess position with its move history.

    Attributes:
        board: The live :class:`chess.Board`; only the engine and metrics touch it.
    """

    def __init__(self, game: ChessGame) -> None:
        super().__init__(game)
        self.board = chess.Board()
        self._legal_cache: tuple[int, dict[str, chess.Move]] | None = None

    def legal_moves_by_san(self) -> dict[str, chess.Move]:
        """Returns the legal moves keyed by SAN (cached per ply)."""
        ply = len(self.board.move_stack)
        if self._legal_cache is None or self._legal_cache[0] != ply:
            self._legal_cache = (ply, {self.board.san(m): m for m in self.board.legal_moves})
        return self._legal_cache[1]

    def _current_players(self) -> list[int]:
        return [0 if self.board.turn == chess.WHITE else 1]

    def _legal_actions(self, player: int) -> list[str]:
        return sorted(self.legal_moves_by_san())

    def _apply(self, actions: dict[int, Action]) -> None:
        ((_, action),) = actions.items()
        self.board.push(self.legal_moves_by_san()[action.id])

    def _is_terminal(self) -> bool:
        return self.board.outcome(claim_draw=False) is not None

    def _scores(self) -> list[float]:
        outcome = self.board.outcome(claim_draw=False)
        if outcome is None or outcome.winner is None:
            return [0.5, 0.5]
        return [1.0, 0.0] if outcome.winner == chess.WHITE else [0.0, 1.0]

    def _terminal_reason(self) -> str:
        outcome = self.board.outcome(claim_draw=False)
        if outcome is None:
            return "unfinished"
        reason = outcome.termination.name.lower()
        if outcome.winner is None:
            return f"draw by {reason}"
        return f"{_COLORS[0 if outcome.winner == chess.WHITE else 1]} wins by {reason}"

    def __str__(self) -> str:
        return str(self.board)


class ChessGame(Game):
    """The chess rules engine (python-chess).

    Attributes:
        engine_players: Players whose moves come from an engine in this match;
            the move-quality metric does not annotate them. Engine agents add
            themselves (the game object is built anew for every match).
        engine_settings: Each engine player's settings, for the match record.
        stockfish_path: The Stockfish binary an engine agent of this match
            used, for the metric to reuse; None when no engine played.
        annotation_depth: The move-quality analysis depth, or None for the
            metric's own (``paper``: :data:`PAPER_ANNOTATION_DEPTH`).

    Args:
        protocol: ``"default"`` or ``"paper"`` (SPIN-Bench's released wording).
        openings: ``"empty"`` (the standard start) or ``"book"`` (each seed from a short opening Stockfish scores
            near equality, :func:`opening_book`; default protocol only).
    """

    info = INFO
    rules = RULES
    supports_openings = True

    def __init__(self, protocol: str = "default", openings: str = openings_.EMPTY) -> None:
        self.protocol = spin_paper.check_protocol(INFO.name, protocol)
        self.openings = openings_.check_openings(INFO.name, openings, self.protocol)
        self.annotation_depth: int | None = (
            annotation_depth(PAPER_ANNOTATION_DEPTH) if protocol == spin_paper.PAPER else None)
        self.engine_players: set[int] = set()
        self.engine_settings: dict[int, dict[str, Any]] = {}
        self.stockfish_path: str | None = None

    def new_initial_state(self, seed: int) -> ChessState:
        """Returns the standard start position, or under ``openings="book"`` the seed's book opening played from it
        (its moves on the board's move stack: the moves so far, the FEN and the record's PGN include them)."""
        state = ChessState(self)
        if self.openings == openings_.BOOK:
            for uci in openings_.pick(opening_book(), seed):
                state.board.push_uci(uci)
        return state

    def opening(self, seed: int) -> str | None:
        """The seed's book opening in SAN (``"1. e4 c5 2. Nf3 d6"``), or None from the start position."""
        if self.openings != openings_.BOOK:
            return None
        moves = openings_.pick(opening_book(), seed)
        return chess.Board().variation_san([chess.Move.from_uci(m) for m in moves])

    def snapshot(self, state: State) -> dict[str, Any]:
        """The FEN, the last move (UCI) and the text board, for the replay viewer."""
        assert isinstance(state, ChessState)
        board = state.board
        last = board.move_stack[-1].uci() if board.move_stack else None
        return {"fen": board.fen(), "lastmove": last, "text": str(board)}

    def role(self, player: int) -> str:
        """Returns ``"White"`` or ``"Black"``."""
        return _COLORS[player]

    def observe(self, state: State, player: int) -> Observation:
        """Returns the FEN, an ASCII board, the moves so far and the legal moves in SAN."""
        assert isinstance(state, ChessState)
        board = state.board
        text = (
            f"You play {_COLORS[player]}.\n"
            f"FEN: {board.fen()}\n"
            f"Board (uppercase = White, lowercase = Black):\n{_ascii_board(board)}\n"
            f"Moves so far: {move_list_text(board) or 'none'}"
        )
        if board.is_check():
            text += f"\n{_COLORS[player]} is in check."
        paper = _paper_fields(board, player) if self.protocol == spin_paper.PAPER else {}
        answer_ids = {move.uci(): san for san, move in state.legal_moves_by_san().items()} if paper else None
        return Observation(
            game=INFO.name,
            player=player,
            text=text,
            legal_actions=tuple(state.legal_actions(player)),
            rules=RULES,
            role=_COLORS[player],
            turn=state.turn,
            data={
                "fen": board.fen(),
                "moves": [m.uci() for m in board.move_stack],
                "board": board.copy(stack=False),
                **({"answer_ids": answer_ids} if paper else {}),
            },
            asking=Asking(instructions="Answer with one legal move in SAN (e.g. Nf3) or UCI (e.g. g1f3).", **paper),
        )

    def canonical_action(self, state: State, player: int, text: str) -> str | None:
        """Maps a SAN or UCI answer to the move's SAN, or None if it names no legal move."""
        assert isinstance(state, ChessState)
        if player not in state.current_players():
            return None
        wanted = text.strip().rstrip(".!?")
        by_san = state.legal_moves_by_san()
        if wanted in by_san:
            return wanted
        board = state.board
        for parse in (board.parse_san, board.parse_uci):
            try:
                move = parse(wanted)
            except ValueError:
                continue
            if move in board.legal_moves:
                return board.san(move)
        lowered = wanted.lower()
        for san, move in by_san.items():
            if move.uci() == lowered:
                return san
        return None


def move_list_text(board: chess.Board) -> str:
    """Returns the game's moves as numbered SAN (``1. e4 e5 2. Nf3``)."""
    replay = chess.Board()
    parts = []
    for move in board.move_stack:
        if replay.turn == chess.WHITE:
            parts.append(f"{replay.fullmove_number}.")
        parts.append(replay.san(move))
        replay.push(move)
    return " ".join(parts)


def pgn_of(board: chess.Board, *, white: str = "White", black: str = "Black") -> str:
    """Returns the game on ``board`` (from its move stack) as PGN text."""
    game = chess.pgn.Game.from_board(board)
    game.headers["White"] = white
    game.headers["Black"] = black
    game.headers["Result"] = board.result(claim_draw=False)
    return str(game)


def board_svg(fen: str, *, lastmove: str | None = None, size: int = 360) -> str:
    """Renders a position as an SVG image (python-chess's renderer).

    Args:
        fen: The position.
        lastmove: A UCI move to highlight, if any.
        size: The image width and height in pixels.

    Returns:
        A standalone ``<svg>`` document.
    """
    board = chess.Board(fen)
    move = chess.Move.from_uci(lastmove) if lastmove else None
    return chess.svg.board(board, lastmove=move, size=size)


def _paper_intro(player: int) -> str:
    color, other = _COLORS[player], _COLORS[1 - player]
    mine, theirs = ("uppercase", "lowercase") if player == 0 else ("lowercase", "uppercase")
    return (
        f"You are playing a text game of Chess as {color} against an opponent playing {other}. "
        f"In the board, your pieces are represented by {mine} letters (K Q R B N P) and your opponent's "
        f"by {theirs} letters; '.' is an empty square. White moves first. Checkmate the opponent's king to win.\n"
        "Your action is one legal move in UCI notation: the start square and the end square, plus the "
        "promotion piece if any (for example e2e4, g1f3, e7e8q)."
    )


def _paper_fields(board: chess.Board, player: int) -> dict[str, Any]:
    """The paper protocol's conversation for one decision (legal moves in UCI)."""
    state = (f"The current state of the game is:\n<FEN>{board.fen()}</FEN>\n"
             f"<board_state>\n{_ascii_board(board)}\n</board_state>")
    moves = " ".join(sorted(move.uci() for move in board.legal_moves))
    action_prompt = (
        f"{spin_paper.answer_format('string')}\n"
        f"<legal_moves>{moves}</legal_moves>\n"
        "You must select one legal move from this list."
    )
    return spin_paper.paper_fields(_paper_intro(player), state, action_prompt)


def _ascii_board(board: chess.Board) -> str:
    rows = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            cells.append(piece.symbol() if piece else ".")
        rows.append(f"{rank + 1} " + " ".join(cells))
    rows.append("  a b c d e f g h")
    return "\n".join(rows)
