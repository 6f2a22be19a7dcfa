"""The ``revision`` match shape: one strategy writer per side, and the strategy rounds of ``core.revision``.

A :class:`~stratbench.core.revision.RevisionGame` (the AdvGameBench games)
is played here instead of by the move-by-move runner: one writer per side
(a ``--model`` subject writes through a :class:`ModelSession`, so its calls
go through the one LLM client and the match's cassette; a baseline the game
names in ``baseline_kinds`` writes without a model), then
``core.revision.play_revision_match`` over the game's rules. The result
becomes an ordinary :class:`MatchOutcome`: each side scores its share of
the rounds (a draw half), so ratings, results and reports take it as any
two-sided match; the whole match (every round's strategies, costs,
violations, winner, simulator summary) rides in ``outcome.extra["advgame"]``
and the record's ``advgame``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from stratbench.core.revision import RevisionGame, play_revision_match
from stratbench.core.schedule import MatchSpec
from stratbench.core.shapes import REVISION, MatchSetup, PreparedMatch
from stratbench.core.traces import MatchOutcome, RevisionMatch
from stratbench.core.transcript import Transcript
from stratbench.core.types import HarnessError
from stratbench.llm.session import ModelSession, request_settings


class RevisionShape:
    """Plays a :class:`RevisionGame` by strategy rounds (the game's ``rounds_option`` when the run sets it, else
    the game's own rounds)."""

    name = REVISION

    def prepare(self, game: RevisionGame, setup: MatchSetup) -> PreparedMatch:
        """Builds one writer per side; the match plays the subject's move order.

        Raises:
            HarnessError: a side's agent can write no strategies.
        """
        writers, sessions = build_writers(setup.client, setup.spec, game, setup.transcript, setup.options)
        rounds = (setup.options.get(game.rounds_option) if game.rounds_option else None) or game.rounds

        def start() -> Any:
            return play_revision(game, setup.spec, writers, setup.transcript, rounds=rounds)

        return PreparedMatch(start=start, sessions=sessions)


def build_writers(
    client: Any, spec: MatchSpec, game: RevisionGame, transcript: Transcript, options: dict[str, Any]
) -> tuple[dict[str, Any], dict[int, ModelSession]]:
    """Returns one writer per side name and the model sessions of the model-written seats.

    Raises:
        HarnessError: a side's agent can write no strategies (only models and the game's baselines can).
    """
    writers: dict[str, Any] = {}
    sessions: dict[int, ModelSession] = {}
    for player, side in enumerate(game.sides):
        agent = spec.sides[player]
        if agent.uses_llm:
            if dict(agent.params).get("answer_format", "text") != "text":
                raise HarnessError(f"{game.info.name}: a strategy is a JSON document, not a move: "
                                   f"play it with --answer-format text")
            settings = request_settings(options, dict(agent.params))
            # A strategy is read as the model wrote it, cut or not (the writer asks once per revision).
            session = ModelSession(client=client, model=str(agent.model), player=player, transcript=transcript,
                                   settings=settings, vision=False, scaffold=agent.scaffold or "direct",
                                   on_truncation="read")
            sessions[player] = session
            writers[side] = game.model_writer(session, side)
        elif agent.kind in game.baseline_kinds:
            rng = random.Random(f"{spec.seed}:{player}:{agent.label}")
            writers[side] = game.baseline_writer(agent.kind, side, rng)
        else:
            raise HarnessError(f"agent {agent.label!r} cannot write {game.info.name} strategies; "
                               f"use a --model or one of {', '.join(game.baseline_kinds)}")
    return writers, sessions


def outcome_of(game: RevisionGame, match: RevisionMatch, duration_s: float) -> MatchOutcome:
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
    game: RevisionGame, spec: MatchSpec, writers: dict[str, Any], transcript: Transcript, *, rounds: int
) -> MatchOutcome:
    """Plays the match (the subject's move order from the variant) and returns its outcome.

    Answers are read with the game's reader (the AdvGameBench paper protocol: the released reader only).
    """
    started = time.perf_counter()
    match = await play_revision_match(game.strategy_rules(), writers, first_reviser=game.first_reviser(spec.subject),
                                      rounds=rounds, transcript=transcript, reader=game.reader())
    return outcome_of(game, match, time.perf_counter() - started)
