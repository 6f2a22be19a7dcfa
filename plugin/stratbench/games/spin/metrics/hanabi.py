"""Hanabi metrics (SPIN-Bench §5): play statistics per match, mean score per player count.

:func:`play_stats` replays a match (the deck is fixed by the seed) and counts,
per player, hints, plays, misplays (a play that cost a life token) and
discards. Team values are stored with player 0: ``score`` (fireworks at the
end, the default protocol's match score), ``hle_score`` (the Learning
Environment's score, 0 when the last life token is lost),
``released_score`` (the fireworks before the last action, as SPIN-Bench's
released code reads the score: the paper protocol's match score),
``life_tokens_left`` and ``bombed_out``.

:func:`score_table` averages scores per agent and player count and adds the
human reference and SPIN-Bench's published LLM rows for comparison. A
paper-protocol match that ended on a player's exhausted retries is left out
of the mean (the released runner stopped there and saved no game) and
counted as ``left_out``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from statistics import mean, pstdev
from typing import Any

from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome
from stratbench.core.types import Action

__all__ = ["HUMAN_REFERENCE", "SPIN_BENCH_TABLE1", "play_stats", "score_table"]

HUMAN_REFERENCE = {
    "source": "SPIN-Bench §5.4: 54,977 human games from BoardGameGeek, 2 to 5 players",
    "typical_range": (15, 25),
    "note": "quartiles are only plotted (SPIN-Bench Fig. 4); no LLM reaches the human first quartile",
}
"""The human baseline SPIN-Bench reports for Hanabi (no numeric quartiles are published)."""

SPIN_BENCH_TABLE1 = {
    "o1": (16.4, 14.8, 14.8, 14.2),
    "o4-mini": (12.8, 11.0, 12.6, 13.2),
    "o1-mini": (6.8, 7.4, 11.4, 10.2),
    "o3-mini": (8.8, 7.6, 8.8, 8.0),
    "GPT-4o": (6.6, 4.8, 4.8, 4.6),
    "GPT-4-turbo": (5.2, 5.6, 5.0, 6.0),
    "Claude 3.5 Sonnet": (8.2, 9.4, 7.4, 8.4),
    "Claude 3.5 Haiku": (2.4, 4.0, 2.8, 2.8),
    "DeepSeek R1": (6.0, 16.0, 11.3, 13.0),
    "Llama4 Maverick": (3.0, 4.2, 4.4, 5.6),
    "Llama-3.3-70b": (2.4, 0.8, 0.6, 1.4),
}
"""SPIN-Bench Table 1: mean Hanabi score (of 25) for 2, 3, 4 and 5 players."""


def play_stats(game: Game, outcome: MatchOutcome, seed: int) -> dict[int, dict[str, Any]]:
    """Counts hints, plays, misplays and discards per player; team values go with player 0."""
    state = game.new_initial_state(seed)
    stats = {p: {"hints": 0, "plays": 0, "misplays": 0, "discards": 0} for p in range(game.info.num_players)}
    for joint in outcome.history:
        ((player, text),) = joint.items()
        action = Action.from_text(text)
        described = state.describe(action.id)
        lives = state.view(0).life_tokens
        state.apply({int(player): action})
        counts = stats[int(player)]
        if described.startswith("(Reveal"):
            counts["hints"] += 1
        elif described.startswith("(Discard"):
            counts["discards"] += 1
        else:
            counts["plays"] += 1
            counts["misplays"] += int(state.view(0).life_tokens < lives)
    view = state.view(0)
    stats[0].update({
        "score": view.score,
        "hle_score": state.hle_score(),
        "released_score": state.released_score(),
        "life_tokens_left": view.life_tokens,
        "bombed_out": view.life_tokens == 0,
    })
    return stats


def score_table(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Returns mean Hanabi scores per agent and player count, then the reference rows.

    Each row: ``agent``, ``source`` (``"run"``, ``"SPIN-Bench Table 1"`` or
    ``"human"``) and per player count ``"2p"``..``"5p"`` a dict with ``mean``,
    ``sd`` and ``n`` (``mean`` only for published rows); a run row with
    paper-protocol matches ended by exhausted retries counts them as ``left_out``.
    """
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    left_out: dict[str, int] = defaultdict(int)
    for record in records:
        if record.get("game") == "hanabi" and record.get("variant"):
            agent = record["sides"][0]["agent"]
            if record.get("protocol") == "paper" and record.get("forfeited_by_side") is not None:
                left_out[agent] += 1
                scores[agent]  # noqa: B018 - the agent keeps its row
                continue
            scores[agent][record["variant"]].append(float(record["scores"][0]))
    rows: list[dict[str, Any]] = []
    for agent in sorted(scores):
        row: dict[str, Any] = {"agent": agent, "source": "run"}
        if left_out[agent]:
            row["left_out"] = left_out[agent]
        for variant, values in sorted(scores[agent].items()):
            row[variant] = {"mean": mean(values), "sd": pstdev(values), "n": len(values)}
        rows.append(row)
    for model, values in SPIN_BENCH_TABLE1.items():
        rows.append({"agent": model, "source": "SPIN-Bench Table 1",
                     **{f"{n}p": {"mean": v} for n, v in zip((2, 3, 4, 5), values)}})
    rows.append({"agent": "human", "source": "human", "note": HUMAN_REFERENCE["source"],
                 "typical_range": HUMAN_REFERENCE["typical_range"]})
    return rows
