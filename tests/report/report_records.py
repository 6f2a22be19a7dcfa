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


WIDE_AGENTS = (
    "openai/gpt-4o-2024-11-20+direct(effort=high)",
    "openai/gpt-4o-2024-11-20+direct(effort=low)",
    "anthropic/claude-3-5-sonnet-20241022+cot",
    "anthropic/claude-3-5-sonnet-20241022+cot(answers=tools)",
    "gemini/gemini-2.0-flash-thinking-exp-01-21+direct",
    "gemini/gemini-2.0-flash-thinking-exp-01-21+revise",
)
"""Three models with long labels, each under two settings or scaffolds (efforts, answer formats, scaffolds)."""

_WIDE_TAGS = {"mystery:7": "obf-mystery-s7"}


def wide_run(seeds: int = 6) -> list[dict[str, Any]]:
    """A run whose report has every wide table: three models with long labels against minimax in two games,
    with token usage and costs, truncation counts and memorisation probes (every match played once more
    renamed)."""
    rng = random.Random(7)
    records = []
    for game in ("tictactoe", "connect4"):
        for agent in WIDE_AGENTS:
            model, scaffold = agent.split("+")[0], agent.split("+")[1].split("(")[0]
            for seed in range(seeds):
                for renaming in (None, "mystery:7"):
                    seat = seed % 2
                    score = rng.choice((0.0, 0.5, 1.0))
                    pair = (agent, "minimax") if seat == 0 else ("minimax", agent)
                    tag = f"-{_WIDE_TAGS[renaming]}" if renaming else ""
                    r = record(f"suites/test_{game}.py::test_{game}[{pair[0]}-vs-{pair[1]}-s{seed}{tag}]", pair,
                               (score, 1.0 - score) if seat == 0 else (1.0 - score, score), game=game, seed=seed,
                               subject=seat, models=tuple(model if a == agent else None for a in pair),
                               scaffolds=tuple(scaffold if a == agent else None for a in pair))
                    decisions, calls, truncated = 4 + seed, 5 + seed, int(seed % 4 == 1)
                    prompt, completion = 900 * calls, 160 * calls
                    usage = {"calls": calls, "prompt_tokens": prompt, "completion_tokens": completion,
                             "cost_usd": round((prompt * 2.5 + completion * 10) / 1e6, 6),
                             "reasoning_tokens": 90 * calls, "cached_tokens": 300 * calls}
                    cost = {"decisions": decisions, "calls": calls, "prompt_tokens": prompt,
                            "completion_tokens": completion}
                    none = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}
                    r.update(usage=[usage if k == seat else none for k in range(2)],
                             decision_cost=[cost if k == seat else None for k in range(2)],
                             decisions=[decisions, decisions], illegal=[seed % 3 if k == seat else 0 for k in range(2)],
                             fallbacks=[0, 0], format_errors=[seed % 2 if k == seat else 0 for k in range(2)],
                             truncated=[truncated if k == seat else 0 for k in range(2)], score_range=[0.0, 1.0],
                             score_sum=1.0, cost_usd=usage["cost_usd"], tokens=prompt + completion,
                             game_options={"obfuscation": renaming, "obfuscation_tag": _WIDE_TAGS[renaming]}
                             if renaming else {})
                    r["sides"][seat]["truncation_retries"] = truncated
                    records.append(r)
    return records
