"""The c4solver agent: best moves with seeded tie-breaks; sanity games against random and itself."""

import asyncio
import random

import pytest
from stratbench.games.spin.agents.c4_solver_agent import C4SolverAgent, best_columns
from stratbench.agents.random_agent import RandomAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import run_match
from stratbench.core.transcript import Transcript
from stratbench.games.spin.c4_solver import OpeningBook, Position, Solver, default_solver
from stratbench.games.spin.connect_four import ConnectFour
from stratbench.games.spin.tictactoe import TicTacToe


def _context(game, player, kind, seed):
    return AgentContext(
        spec=AgentSpec(kind=kind), game=game, player=player, side=player,
        rng=random.Random(f"{seed}:{player}:{kind}"), transcript=Transcript(),
    )


def _play(game, state, factories, seed):
    agents = {p: factory(_context(game, p, factory.__name__, seed)) for p, factory in factories.items()}
    return asyncio.run(run_match(game, state, agents, rng=random.Random(seed)))


def test_best_columns_keeps_every_tie():
    assert best_columns({0: -1, 2: 3, 5: 3}) == [2, 5]


def test_the_agent_refuses_other_games():
    with pytest.raises(ValueError, match="connect4"):
        C4SolverAgent(_context(TicTacToe(), 0, "c4solver", 0))


def _won_positions(count):
    """Late positions (24-30 discs) the player to move wins, found by seeded random play."""
    rng, solver, found = random.Random(3), Solver(), []
    while len(found) < count:
        game = ConnectFour()
        state = game.new_initial_state(0)
        for _ in range(rng.randint(24, 30)):
            legal = state.legal_actions(state.current_players()[0])
            position = Position.from_moves(state.moves)
            safe = [c for c in legal if not position.is_winning_move(int(c))]
            if not safe:
                break
            state.drop(int(rng.choice(safe)))
        else:
            score = solver.solve(Position.from_moves(state.moves))
            if score > 0:
                found.append((list(state.moves), score))
    return found


@pytest.mark.parametrize("index", range(3))
def test_the_solver_never_loses_to_itself_from_a_won_position(index):
    moves, score = _won_positions(3)[index]
    game = ConnectFour()
    state = game.state_from_moves(moves)
    mover = state.current_players()[0]
    outcome = _play(game, state, {0: C4SolverAgent, 1: C4SolverAgent}, seed=index)
    assert outcome.scores[mover] == 1.0
    # Perfect play on both sides ends exactly as the score says: the winner drops 22 - score discs.
    winner_discs = (len(state.moves) + (1 if mover == 0 else 0)) // 2
    assert 22 - winner_discs == score


@pytest.mark.slow
@pytest.mark.skipif(not OpeningBook().available, reason="bitbully-databases is not installed")
@pytest.mark.parametrize("seed", range(3))
def test_random_never_beats_the_solver(seed):
    default_solver()
    game = ConnectFour()
    solver_first = seed % 2 == 0
    factories = {0: C4SolverAgent, 1: RandomAgent} if solver_first else {0: RandomAgent, 1: C4SolverAgent}
    outcome = _play(game, game.new_initial_state(seed), factories, seed)
    assert outcome.scores[0 if solver_first else 1] >= 0.5
