"""Annotating a played match: the registered LLM judges of its game, after the match."""

from __future__ import annotations

from typing import Any

from stratbench.core.runner import MatchOutcome
from stratbench.core.transcript import Transcript
from stratbench.llm.session import ModelSession


def annotator_settings(seed: int) -> dict[str, Any]:
    """Returns the request settings of a match's annotator calls: temperature 0 and the match's seed."""
    return {"temperature": 0.0, "seed": int(seed)}


async def annotate(
    client: Any,
    model: str,
    annotators: dict[str, Any],
    game: Any,
    outcome: MatchOutcome,
    transcript: Transcript,
    seed: int,
) -> dict[str, Any]:
    """Runs the annotators in name order and returns their metrics, settings, names and usage.

    The annotators' model is sampled at temperature 0 with the match's seed
    (as the agents' models are), so replays and cassette keys are stable.
    """
    judge = ModelSession(client=client, model=model, player=-1, transcript=transcript,
                         settings=annotator_settings(seed))
    merged: dict[int, dict[str, Any]] = {}
    for _, annotator in sorted(annotators.items()):
        for player, values in (await annotator(game, outcome, judge)).items():
            merged.setdefault(int(player), {}).update(values)
    return {
        "metrics": merged,
        "settings": dict(judge.settings),
        "annotators": sorted(annotators),
        "usage": judge.usage.to_dict(),
        "retries": judge.retries,
        "dropped_params": sorted(judge.dropped_params),
    }
