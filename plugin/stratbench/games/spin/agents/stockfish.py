"""Stockfish: the chess engine agent and the engine I/O every chess metric uses.

This is the only module that talks to an engine process. It uses
python-chess's async UCI client (:func:`chess.engine.popen_uci`), bounds every
engine command with a timeout, and closes the process in ``aclose()`` (the
runner calls it after the match) or on leaving ``async with``.

**Finding the binary**: ``--stockfish PATH`` (``options["stockfish"]``), then
``stockfish`` on ``PATH``, then ``/usr/games/stockfish`` (Debian's package).

**Determinism**: one process per match, ``Threads=1``, a fixed hash size,
``ucinewgame`` at the start, and searches limited by depth or nodes (never by
time), so a replayed match gets the same moves. Stockfish's own ``Skill
Level`` below 20 (and ``UCI_Elo``) draws from a generator seeded with the
clock, so two runs differ; levels below 20 are therefore played by running
Stockfish at full strength with MultiPV 4 at depth ``1 + level`` and picking
among those moves with Stockfish's published skill formula, using the
match's seeded rng: each candidate's score gets
``(weakness * (top - score) + delta * (r % weakness)) / 128`` added, where
``weakness = 120 - 2 * level``, ``delta = min(top - 4th best, 100 cp)`` and
``r`` is random; the highest total wins. ``elo`` maps to a level the way
Stockfish does (``((elo - 1346.6) / 143.4) ** (1 / 0.806)``, clamped to 0–20).

Registered agents: ``stockfish`` (level 20) and ``stockfish0`` ... ``stockfish20``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import chess
import chess.engine

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, HarnessError, Observation
from stratbench.games.spin.metrics.solver import register_engine
from stratbench.system_components import Component

__all__ = [
    "DEBIAN_PATH",
    "DEFAULT_DEPTH",
    "default_depth",
    "ENGINE_TIMEOUT_S",
    "STOCKFISH_MISSING",
    "RankedMove",
    "StockfishAgent",
    "StockfishEngine",
    "analyse_positions",
    "elo_to_level",
    "find_stockfish",
    "make_factory",
    "pick_skill_move",
]

DEBIAN_PATH = "/usr/games/stockfish"
STOCKFISH_MISSING = (
    "Stockfish not found: install it (apt-get install stockfish), put it on PATH or pass --stockfish PATH"
)
"""The skip reason of everything that needs the binary when it is absent."""
DEFAULT_DEPTH = 15
"""Search depth per move of the Stockfish agent: SPIN-Bench's wrapper default (see :func:`default_depth`)."""


def default_depth() -> int:
    """The Stockfish agent's depth per move: ``STRATBENCH_STOCKFISH_DEPTH`` when set (CI uses a small depth), else
    :data:`DEFAULT_DEPTH`; read when an agent is made, never at import."""
    return int(os.environ.get("STRATBENCH_STOCKFISH_DEPTH") or DEFAULT_DEPTH)


ENGINE_TIMEOUT_S = 120.0
"""The longest any single engine command may take before the match fails."""
HASH_MB = 16
_SKILL_CANDIDATES = 4
_SKILL_DELTA_CAP_CP = 100
_MATE_CP = 100_000


def find_stockfish(explicit: str | None = None) -> str | None:
    """Returns the Stockfish binary to use, or None when there is none.

    Args:
        explicit: A path given by the user (``--stockfish``); used when it exists.
    """
    if explicit:
        return explicit if Path(explicit).is_file() else None
    found = shutil.which("stockfish")
    if found:
        return found
    return DEBIAN_PATH if Path(DEBIAN_PATH).is_file() else None


def elo_to_level(elo: float) -> float:
    """Returns the skill level (0–20) Stockfish derives from a ``UCI_Elo``.

    Examples:
        >>> round(elo_to_level(1350), 2)
        0.01
    """
    base = max(0.0, (elo - 1346.6) / 143.4)
    return min(20.0, base ** (1 / 0.806))


@dataclass(frozen=True)
class RankedMove:
    """One MultiPV line: a move and its score for the side to move.

    Attributes:
        uci: The move in UCI notation.
        score_cp: Centipawns for the mover; mates are ±100000 minus the distance.
    """

    uci: str
    score_cp: int


class StockfishEngine:
    """One Stockfish process with deterministic settings.

    Use ``async with StockfishEngine(path) as engine`` or call :meth:`start`
    and :meth:`aclose`.

    Args:
        path: The binary.
        timeout_s: The limit for every engine command.
    """

    def __init__(self, path: str, *, timeout_s: float = ENGINE_TIMEOUT_S) -> None:
        self.path = path
        self.timeout_s = timeout_s
        self._engine: chess.engine.UciProtocol | None = None
        self._transport: asyncio.SubprocessTransport | None = None

    async def start(self) -> None:
        """Starts the process and sets ``Threads=1`` and a fixed hash size."""
        if self._engine is not None:
            return
        try:
            self._transport, self._engine = await self._run(chess.engine.popen_uci(self.path))
        except OSError as error:
            raise HarnessError(f"cannot start Stockfish ({self.path}): {error}") from None
        await self._run(self._engine.configure({"Threads": 1, "Hash": HASH_MB, "Skill Level": 20}))

    async def play(self, board: chess.Board, *, depth: int | None = None, nodes: int | None = None) -> chess.Move:
        """Returns the engine's best move for ``board`` at a fixed depth or node count."""
        engine = await self._ready()
        result = await self._run(engine.play(board, _limit(depth, nodes)))
        if result.move is None:
            raise HarnessError(f"Stockfish returned no move for {board.fen()}")
        return result.move

    async def analyse(
        self, board: chess.Board, *, multipv: int, depth: int | None = None, nodes: int | None = None
    ) -> list[RankedMove]:
        """Returns up to ``multipv`` best moves with their scores, best first."""
        engine = await self._ready()
        infos = await self._run(engine.analyse(board, _limit(depth, nodes), multipv=multipv))
        ranked = []
        for info in infos:
            pv = info.get("pv")
            score = info.get("score")
            if pv and score is not None:
                ranked.append(RankedMove(pv[0].uci(), score.relative.score(mate_score=_MATE_CP)))
        return ranked

    async def new_game(self) -> None:
        """Sends ``ucinewgame`` and clears the hash, so the next search starts fresh."""
        engine = await self._ready()
        engine.send_line("ucinewgame")
        await self._run(engine.ping())
        await self._run(engine.configure({"Clear Hash": None}))

    async def aclose(self) -> None:
        """Quits the engine process (idempotent)."""
        engine, self._engine = self._engine, None
        if engine is None:
            return
        try:
            await asyncio.wait_for(engine.quit(), timeout=10)
        except (TimeoutError, chess.engine.EngineError, chess.engine.EngineTerminatedError):
            if self._transport is not None:
                self._transport.kill()

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def _ready(self) -> chess.engine.UciProtocol:
        if self._engine is None:
            await self.start()
        assert self._engine is not None
        return self._engine

    async def _run(self, awaitable: Any) -> Any:
        try:
            return await asyncio.wait_for(awaitable, timeout=self.timeout_s)
        except TimeoutError:
            raise HarnessError(f"Stockfish ({self.path}) did not answer within {self.timeout_s:.0f} s") from None


def pick_skill_move(lines: Sequence[RankedMove], level: float, draws: Sequence[int]) -> str:
    """Picks a move from MultiPV lines the way Stockfish weakens its play at ``level`` < 20.

    Args:
        lines: The candidate moves, best first.
        level: The skill level (0–20).
        draws: One non-negative random integer per line (from the match rng).

    Returns:
        The chosen move in UCI.

    Examples:
        >>> lines = [RankedMove("e2e4", 30), RankedMove("a2a3", -20)]
        >>> pick_skill_move(lines, 20, [0, 0])
        'e2e4'
    """
    if not lines or len(draws) < len(lines):
        raise ValueError("need at least one candidate move and one random draw per candidate")
    top = lines[0].score_cp
    delta = min(top - lines[-1].score_cp, _SKILL_DELTA_CAP_CP)
    weakness = max(1, int(120 - 2 * level))
    best, best_total = lines[0].uci, None
    for line, draw in zip(lines, draws):
        total = line.score_cp + (weakness * (top - line.score_cp) + delta * (draw % weakness)) // 128
        if best_total is None or total >= best_total:
            best, best_total = line.uci, total
    return best


class StockfishAgent:
    """Plays chess with Stockfish at a skill level, deterministically.

    Args:
        context: The agent context (``options["stockfish"]`` may name the binary).
        level: Skill level 0–20 (20: full strength at the depth/nodes limit).
        depth: Search depth per move (default :data:`DEFAULT_DEPTH`), unless ``nodes`` is given.
        nodes: Nodes per move instead of a depth.
        elo: A target Elo (1350–2850) that sets the level instead of ``level``.

    Raises:
        HarnessError: if no Stockfish binary is found.
    """

    supported_games = ("chess",)

    def __init__(
        self,
        context: AgentContext,
        *,
        level: float = 20,
        depth: int | None = None,
        nodes: int | None = None,
        elo: float | None = None,
    ) -> None:
        if context.game.info.name not in self.supported_games:
            raise ValueError(f"agent 'stockfish' plays only chess, not {context.game.info.name!r}")
        params = dict(context.spec.params)
        level = float(params.get("level", level))
        elo = params.get("elo", elo)
        self.level = elo_to_level(float(elo)) if elo is not None else level
        if not 0 <= self.level <= 20:
            raise ValueError(f"Stockfish skill level must be 0-20, got {self.level}")
        self.nodes = params.get("nodes", nodes)
        self.depth = params.get("depth", depth) or (None if self.nodes else default_depth())
        path = find_stockfish(context.options.get("stockfish"))
        if path is None:
            raise HarnessError(STOCKFISH_MISSING)
        self.rng = context.rng
        self.engine = StockfishEngine(path)
        self._started = False
        if isinstance(getattr(context.game, "engine_players", None), set):
            settings = {"agent": "stockfish", "level": self.level, "elo": elo, "depth": self.depth,
                        "nodes": self.nodes, "threads": 1}
            register_engine(context.game, context.player, settings)
            context.game.stockfish_path = path  # type: ignore[attr-defined]

    async def act(self, observation: Observation) -> Action:
        """Returns the engine's move in UCI (the game maps it to SAN)."""
        board = chess.Board()
        for uci in observation.data["moves"]:
            board.push_uci(uci)
        if not self._started:
            await self.engine.new_game()
            self._started = True
        if self.level >= 20:
            move = await self.engine.play(board, depth=self.depth, nodes=self.nodes)
            return Action(move.uci())
        depth = int(self.level) + 1
        if self.depth is not None:
            depth = min(depth, self.depth)
        lines = await self.engine.analyse(board, multipv=_SKILL_CANDIDATES, depth=depth)
        draws = [self.rng.randrange(1 << 16) for _ in lines]
        return Action(pick_skill_move(lines, self.level, draws))

    async def aclose(self) -> None:
        """Stops the engine process."""
        await self.engine.aclose()


def make_factory(level: int | None = None):
    """Returns an agent factory for a fixed skill level (None: the spec's params or 20)."""

    def factory(context: AgentContext) -> StockfishAgent:
        if level is None:
            return StockfishAgent(context)
        return StockfishAgent(context, level=level)

    factory.__name__ = f"stockfish{'' if level is None else level}"
    return factory


async def analyse_positions(
    path: str, boards: Sequence[chess.Board], *, multipv: int, depth: int
) -> list[list[RankedMove]]:
    """Analyses each board in a fresh hash with one engine; returns the ranked moves of each."""
    results = []
    async with StockfishEngine(path) as engine:
        for board in boards:
            await engine.new_game()
            results.append(await engine.analyse(board, multipv=multipv, depth=depth))
    return results


def _limit(depth: int | None, nodes: int | None) -> chess.engine.Limit:
    if depth is None and nodes is None:
        raise ValueError("a Stockfish search needs a depth or a node count")
    return chess.engine.Limit(depth=depth, nodes=nodes)


def component() -> Component:
    """Stockfish as a system program: announced at the start of a run when missing (the chess suite skips its
    matches against it)."""
    return Component(
        name="Stockfish",
        install="apt-get install stockfish",
        option="stockfish",
        skip_reason=STOCKFISH_MISSING,
        find=find_stockfish,
        needed_by=lambda spec: any(side.kind.startswith("stockfish") for side in spec.sides),
    )
