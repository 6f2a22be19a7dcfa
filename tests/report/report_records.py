"""Hand-made result records for the report, gate and CLI tests."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

EVIL_SCRIPT = "<script>alert(1)</script>"
EVIL_IMG = "<img src=x onerror=alert(2)>"
EVIL = EVIL_SCRIPT + EVIL_IMG


def record(
    match_id: str,
    agents: tuple[str, ...] = ("a", "b"),
    scores: tuple[float, ...] = (1.0, 0.0),
    *,
    game: str = "tictactoe",
    seed: int = 0,
    subject: int = 0,
    run_id: str = "run-1",
    models: tuple[str | None, ...] | None = None,
    scaffolds: tuple[str | None, ...] | None = None,
    cassette: dict[str, Any] | None = None,
    versions: dict[str, str] | None = None,
    transcript: str | None = None,
    metrics: dict[str, Any] | None = None,
    test_id: str | None = None,
) -> dict[str, Any]:
    """Builds one result record with the keys the report reads."""
    models = models or (None,) * len(agents)
    scaffolds = scaffolds or (None,) * len(agents)
    return {
        "type": "match",
        "match_id": match_id,
        "test_id": test_id or match_id.rsplit("[", 1)[-1].rstrip("]"),
        "game": game,
        "sides": [
            {"agent": agent, "kind": "llm" if model else agent, "model": model, "scaffold": scaffold,
             "players": [k], "roles": [f"P{k}"]}
            for k, (agent, model, scaffold) in enumerate(zip(agents, models, scaffolds))
        ],
        "scores": list(scores),
        "subject": subject,
        "result": "won" if scores[subject] > max(scores) - 1e-9 and len(set(scores)) > 1 else
                  "draw" if len(set(scores)) == 1 else "lost",
        "terminal": "done",
        "turns": 5,
        "illegal": [0] * len(agents),
        "decisions": [3] * len(agents),
        "metrics": metrics or {},
        "seed": seed,
        "run_id": run_id,
        "cassette": cassette,
        "versions": versions if versions is not None else {"litellm": "1.106.2", "pytest-stratbench": "0.1.0"},
        "transcript": transcript,
        "tokens": 0,
        "cost_usd": 0.0,
    }


def league(strength: dict[str, float], *, games: tuple[str, ...] = ("tictactoe", "connect4"), matches: int = 20,
           seed: int = 0, run_id: str = "run-1") -> list[dict[str, Any]]:
    """Plays a synthetic round robin: P(a beats b) = sigmoid(strength[a] - strength[b]).

    Match ids depend only on game, agents and index, so two leagues share
    match ids exactly where they share pairings.
    """
    rng = random.Random(seed)
    names = sorted(strength)
    out = []
    for game in games:
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                p = 1.0 / (1.0 + math.exp(strength[b] - strength[a]))
                for k in range(matches):
                    score = 1.0 if rng.random() < p else 0.0
                    match_id = f"suites/test_{game}.py::test_{game}[{a}-vs-{b}-s{k}]"
                    out.append(record(match_id, (a, b), (score, 1.0 - score), game=game, seed=k, run_id=run_id))
    return out


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    """Writes records as a results.jsonl file (creating the directory)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def unscored(
    match_id: str,
    agents: tuple[str, ...],
    status: str,
    *,
    game: str,
    variant: str | None = None,
    models: tuple[str | None, ...] | None = None,
    reason: str = "LLMProviderError: 503 from the provider after 5 attempts",
) -> dict[str, Any]:
    """Builds a skipped or errored record with the keys the report reads (as ``match_record.unscored_record``)."""
    models = models or (None,) * len(agents)
    return {
        "type": "match", "status": status, "reason": reason, "fault": "provider" if status == "errored" else None,
        "match_id": match_id, "test_id": match_id, "game": game, "seed": 0, "variant": variant,
        "sides": [{"agent": agent, "kind": "llm" if model else agent, "model": model}
                  for agent, model in zip(agents, models)],
        "subject": 0, "scores": None, "result": status, "run_id": "run-1", "cassette": None,
    }
