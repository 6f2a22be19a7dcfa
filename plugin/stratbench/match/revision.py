"""Playing a strategy-and-revision match (AdvGameBench) in a session: writers, the loop, the outcome.

The session builds an :class:`~stratbench.games.advgame.game.AdvGame`, then,
instead of the move-by-move runner, this module: one writer per side (a
``--model`` subject writes through a :class:`ModelSession`, so its calls go
through the one LLM client and the match's cassette; the ``random``,
``greedy`` and ``climber`` baselines write without a model), then
``core.revision.play_revision_match``. The result becomes an ordinary
:class:`MatchOutcome`: each side scores its share of the rounds (a draw
half), so ratings, results and reports take it as any two-sided match; the
whole match (every round's strategies, costs, violations, winner, simulator
summary) rides in ``outcome.extra["advgame"]`` and the record's ``advgame``.
"""

from __future__ import annotations

import random
import time
from functools import partial
from typing import Any

from stratbench.agents.advgame_writer import ModelStrategyWriter
from stratbench.core.revision import RevisionMatch, play_revision_match
from stratbench.core.runner import MatchOutcome
from stratbench.core.schedule import MatchSpec
from stratbench.core.transcript import Transcript
from stratbench.core.types import HarnessError
from stratbench.games.advgame.baselines import BASELINE_KINDS, BaselineWriter
from stratbench.games.advgame.common import read_strategy_json
from stratbench.llm.session import ModelSession


class CataloguedGame:
    """A simulator module seen through one catalogue (the strategy game ``play_revision_match`` takes)."""

    def __init__(self, module: Any, catalogue: str) -> None:
        self.module, self.catalogue = module, catalogue
        self.SIDES, self.BUDGETS, self.INIT_TRIES = module.SIDES, module.BUDGETS, module.INIT_TRIES

    def strategy_cost(self, strategy: dict, side: str) -> float:
        return self.module.strategy_cost(strategy, side, catalogue=self.catalogue)

    def validate(self, strategy: dict, side: str) -> list:
        return self.module.validate(strategy, side, catalogue=self.catalogue)

    def simulate(self, strategies: dict) -> Any:
        return self.module.simulate(strategies, catalogue=self.catalogue)


def build_writers(
    client: Any, spec: MatchSpec, game: Any, transcript: Transcript, options: dict[str, Any]
) -> tuple[dict[str, Any], dict[int, ModelSession]]:
    """Returns one writer per side name and the model sessions of the model-written seats.

    Raises:
        HarnessError: a side's agent can write no strategies (only models and the baselines can).
    """
    writers: dict[str, Any] = {}
    sessions: dict[int, ModelSession] = {}
    for player, side in enumerate(game.sides):
        agent = spec.sides[player]
        if agent.uses_llm:
            settings = {key: options[key] for key in ("temperature", "max_tokens") if options.get(key) is not None}
            if options.get("seed") is not None:
                settings["seed"] = int(options["seed"])
            session = ModelSession(client=client, model=str(agent.model), player=player, transcript=transcript,
                                   settings=settings, vision=False, scaffold=agent.scaffold or "direct")
            sessions[player] = session
            writers[side] = ModelStrategyWriter(session, game.game_id, side, catalogue=game.catalogue,
                                                protocol=game.protocol)
        elif agent.kind in BASELINE_KINDS:
            rng = random.Random(f"{spec.seed}:{player}:{agent.label}")
            writers[side] = BaselineWriter(agent.kind, game.game_id, side, rng, catalogue=game.catalogue)
        else:
            raise HarnessError(f"agent {agent.label!r} cannot write {game.game_id} strategies; "
                               f"use a --model or one of {', '.join(BASELINE_KINDS)}")
    return writers, sessions


def outcome_of(game: Any, match: RevisionMatch, duration_s: float) -> MatchOutcome:
    """Returns a played revision match as a match outcome (scores: each side's share of rounds, draws half)."""
    sides = game.sides
    rounds = len(match.rounds)
    wins = {side: sum(r.winner == side for r in match.rounds) for side in sides}
    draws = rounds - sum(wins.values())
    scores = [(wins[side] + draws / 2) / rounds for side in sides]
    terminal = f"{sides[0]} won {wins[sides[0]]}, {sides[1]} won {wins[sides[1]]}, {draws} drawn of {rounds} rounds"
    revisions = {side: sum(r.reviser == side for r in match.rounds) for side in sides}
    return MatchOutcome(
        scores=scores,
        terminal=terminal,
        turns=rounds,
        decisions={p: len(match.initial_attempts[side]) + revisions[side] for p, side in enumerate(sides)},
        illegal={p: sum(bool(r.violations[side]) for r in match.rounds) for p, side in enumerate(sides)},
        fallbacks={p: 0 for p in range(len(sides))},
        forfeited_by=None,
        history=[],
        duration_s=duration_s,
        extra={"advgame": match.to_dict()},
    )


async def play_revision(
    game: Any, spec: MatchSpec, writers: dict[str, Any], transcript: Transcript, *, rounds: int
) -> MatchOutcome:
    """Plays the match (the subject's move order from the variant) and returns its outcome.

    The paper protocol reads answers with the released reader only (no prose dropped around the object).
    """
    started = time.perf_counter()
    reader = partial(read_strategy_json, released_only=game.protocol == "paper")
    match = await play_revision_match(CataloguedGame(game.strategy_game, game.catalogue), writers,
                                      first_reviser=game.first_reviser(spec.subject), rounds=rounds,
                                      transcript=transcript, reader=reader)
    return outcome_of(game, match, time.perf_counter() - started)
