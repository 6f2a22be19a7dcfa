"""Stockfish agent: finding the binary, deterministic play, skill levels, sanity games."""

import asyncio
import random

import pytest
from stratbench.agents.random_agent import RandomAgent
from stratbench.games.spin.agents.stockfish import (
    STOCKFISH_MISSING,
    RankedMove,
    StockfishAgent,
    StockfishEngine,
    elo_to_level,
    find_stockfish,
    pick_skill_move,
)
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import HarnessError
from stratbench.games.spin.chess_game import ChessGame

STOCKFISH = find_stockfish()
needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason=STOCKFISH_MISSING)


def _context(game, player, kind="stockfish", seed=0, options=None):
    return AgentContext(
        spec=AgentSpec(kind=kind),
        game=game,
        player=player,
        side=player,
        rng=random.Random(f"{seed}:{player}:{kind}"),
        transcript=Transcript(),
        options=options or {},
    )


def _match(make_white, make_black, seed):
    game = ChessGame()
    agents = {0: make_white(_context(game, 0, seed=seed)), 1: make_black(_context(game, 1, seed=seed))}

    async def play():
        try:
            return await run_match(game, game.new_initial_state(seed), agents, rng=random.Random(seed))
        finally:
            for agent in agents.values():
                if hasattr(agent, "aclose"):
                    await agent.aclose()

    return asyncio.run(play()), game


def _engine(level, depth):
    return lambda context: StockfishAgent(context, level=level, depth=depth)


def test_find_stockfish_prefers_an_explicit_path(tmp_path):
    assert find_stockfish(str(tmp_path / "missing")) is None
    binary = tmp_path / "stockfish"
    binary.write_text("")
    assert find_stockfish(str(binary)) == str(binary)


def test_a_missing_binary_is_a_harness_error_with_the_skip_reason(tmp_path):
    with pytest.raises(HarnessError, match="Stockfish not found"):
        StockfishAgent(_context(ChessGame(), 0, options={"stockfish": str(tmp_path / "nope")}))


def test_skill_pick_is_the_best_line_at_full_strength_and_varies_below():
    lines = [RankedMove("e2e4", 50), RankedMove("d2d4", 45), RankedMove("g1f3", 40), RankedMove("a2a3", -60)]
    assert all(pick_skill_move(lines, 20, [d] * 4) == "e2e4" for d in range(0, 200, 7))
    rng = random.Random(1)
    weak = {pick_skill_move(lines, 0, [rng.randrange(1 << 16) for _ in lines]) for _ in range(200)}
    assert len(weak) > 1
    with pytest.raises(ValueError):
        pick_skill_move([], 0, [])


def test_elo_maps_to_levels_between_0_and_20():
    assert elo_to_level(1000) == 0
    assert 0 < elo_to_level(1500) < elo_to_level(2000) < 20
    assert elo_to_level(4000) == 20


@pytest.mark.slow
@needs_stockfish
@pytest.mark.parametrize("level", [20, 3])
def test_replays_are_identical(level):
    first, _ = _match(_engine(level, 6), _engine(level, 6), seed=5)
    second, _ = _match(_engine(level, 6), _engine(level, 6), seed=5)
    assert first.history == second.history
    assert len(first.history) > 10


@pytest.mark.slow
@needs_stockfish
def test_level_20_beats_level_0_in_at_least_9_of_10_games():
    wins = 0
    for seed in range(10):
        strong_white = seed % 2 == 0
        white, black = (_engine(20, 4), _engine(0, 4)) if strong_white else (_engine(0, 4), _engine(20, 4))
        outcome, _ = _match(white, black, seed)
        wins += outcome.scores[0 if strong_white else 1] == 1.0
    assert wins >= 9


@needs_stockfish
def test_random_never_beats_stockfish_and_engine_moves_are_marked():
    for seed in range(3):
        outcome, game = _match(_engine(20, 4), RandomAgent, seed)
        assert outcome.scores[0] >= 0.5
        assert game.engine_players == {0} and game.stockfish_path == STOCKFISH


@needs_stockfish
def test_engine_analysis_ranks_moves_best_first():
    import chess

    async def analyse():
        async with StockfishEngine(STOCKFISH) as engine:
            await engine.new_game()
            lines = await engine.analyse(chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"), multipv=3, depth=6)
            move = await engine.play(chess.Board(), depth=4)
            return lines, move

    lines, move = asyncio.run(analyse())
    assert lines[0].uci == "a1a8" and lines[0].score_cp > 90_000  # back-rank mate in one
    assert [line.score_cp for line in lines] == sorted((line.score_cp for line in lines), reverse=True)
    assert move.uci() in {m.uci() for m in chess.Board().legal_moves}


@needs_stockfish
def test_an_engine_that_does_not_answer_in_time_is_a_harness_error():
    import chess

    async def slow():
        engine = StockfishEngine(STOCKFISH, timeout_s=0.05)
        try:
            await engine.analyse(chess.Board(), multipv=10, depth=40)
        finally:
            await engine.aclose()

    with pytest.raises(HarnessError, match="did not answer"):
        asyncio.run(slow())
