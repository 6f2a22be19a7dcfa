"""The ``moves`` match shape: one agent per player, and the runner plays the game move by move."""

from __future__ import annotations

import random

from stratbench.core.game import Game, State
from stratbench.core.match_work import offload
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.schedule import MatchSpec
from stratbench.core.shapes import MOVES, MatchSetup, PreparedMatch
from stratbench.core.traces import MatchOutcome
from stratbench.match.build import build_agents


class MovesShape:
    """Plays a :class:`~stratbench.core.game.Game` with ``core.runner.run_match`` (the suite's retry and fallback rules)."""

    name = MOVES

    def prepare(self, game: Game, setup: MatchSetup) -> PreparedMatch:
        """Builds one agent per player; the match starts from the seeded, seated initial state."""
        spec = setup.spec
        agents, sessions = build_agents(setup.registry, setup.client, spec, game, setup.transcript, setup.options)
        rules = MatchRules(illegal_tolerance=setup.suite.illegal_tolerance, fallback=setup.suite.fallback)
        rng = random.Random(f"{spec.seed}:match")

        async def start() -> MatchOutcome:
            state = await offload(seated_state, game, spec)  # inside the time limit, off the loop
            return await run_match(game, state, agents, rng=rng, rules=rules, transcript=setup.transcript)

        return PreparedMatch(start=start, agents=agents, sessions=sessions)


def seated_state(game: Game, spec: MatchSpec) -> State:
    """Returns the match's initial state, seated as its spec says."""
    state = game.new_initial_state(spec.seed)
    if spec.seating:
        state.seat(spec.seating)
    return state
