"""Three realistic runs for the leaderboard tests, written by the real results store and report writer.

* ``seed0`` and ``seed1``: the same settings (protocol default, the same rules and settings hashes), seeds
  0-3 and 4-7, a day apart; ``openai/m1+direct`` plays in seed0 and its upgrade ``openai/m2+direct`` in seed1.
* ``paper``: protocol paper (its own rules and hashes), a day later, ``openai/m2+direct`` again.

Every run: the model agent against ``minimax`` and ``random`` on tictactoe and connect4, and ``random``
against ``minimax``; the model side costs ``MODEL_USD`` per match.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from stratbench.report.analysis import analyse, manifest_for
from stratbench.report.render import write_reports
from stratbench.run.results import ResultStore

DAY = 86_400.0
T0 = 1_795_000_000.0  # 2026-11-18
MODEL_USD = 0.02
MODEL_TOKENS = 900
GAMES = ("tictactoe", "connect4")


def _hash(match_id: str, seed: int, protocol: str) -> str:
    return hashlib.sha256(f"{match_id}|{seed}|{protocol}".encode()).hexdigest()[:16]


def match_record(agents: tuple[str, str], scores: tuple[float, float], *, game: str, seed: int, run_id: str,
                 started: float, protocol: str = "default", subject: int = 0) -> dict[str, Any]:
    """One scored match record with the fields a run writes (usage, timings, settings hash, rules)."""
    test_id = f"{agents[0]}-vs-{agents[1]}-s{seed}"
    match_id = f"suites/spin/test_{game}.py::test_{game}[{test_id}]" + ("" if protocol == "default" else "-paper")
    models = [agent.split("+")[0] if agent.startswith("openai/") else None for agent in agents]
    sides = [{"agent": agent, "kind": "llm" if model else agent, "model": model,
              "scaffold": "direct" if model else None, "players": [k], "roles": [f"P{k}"], "params": {}}
             for k, (agent, model) in enumerate(zip(agents, models))]
    usage = [{"calls": 3 if model else 0, "prompt_tokens": MODEL_TOKENS - 100 if model else 0,
              "completion_tokens": 100 if model else 0, "cost_usd": MODEL_USD if model else 0.0} for model in models]
    record = {
        "type": "match", "version": 1, "status": "scored", "match_id": match_id, "test_id": test_id,
        "game": game, "variant": None, "family": "spin", "sides": sides, "scores": list(scores),
        "subject": subject, "score_range": [0.0, 1.0], "score_sum": 1.0,
        "result": "won" if scores[subject] == 1 else "lost" if scores[subject] == 0 else "draw",
        "terminal": "done", "turns": 7, "illegal": [0, 0], "decisions": [4, 3], "metrics": {}, "seed": seed,
        "run_id": run_id, "started_at": started + seed, "duration_s": 0.5 if any(models) else 0.1,
        "protocol": protocol, "game_options": {} if protocol == "default" else {"protocol": protocol},
        "rules": {"fallback": "forfeit", "illegal_tolerance": 10 if protocol == "default" else 11},
        "settings_hash": _hash(match_id, seed, protocol), "usage": usage,
        "tokens": sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage),
        "cost_usd": sum(u["cost_usd"] for u in usage),
        "versions": {"litellm": "1.106.2", "pytest-stratbench": "0.1.0"},
    }
    return record


def run_records(model: str, seeds: range, *, run_id: str, started: float,
                protocol: str = "default") -> list[dict[str, Any]]:
    """One run's records: per game and seed, the model against minimax (loses) and random (wins, or draws
    on every fourth seed), and random against minimax (loses)."""
    records = []
    for game in GAMES:
        for seed in seeds:
            records.append(match_record((model, "minimax"), (0.0, 1.0), game=game, seed=seed, run_id=run_id,
                                        started=started, protocol=protocol))
            won = (0.5, 0.5) if seed % 4 == 3 else (1.0, 0.0)
            records.append(match_record((model, "random"), won, game=game, seed=seed, run_id=run_id,
                                        started=started, protocol=protocol))
            records.append(match_record(("random", "minimax"), (0.0, 1.0), game=game, seed=seed, run_id=run_id,
                                        started=started, protocol=protocol))
    return records


def _events(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"kind": "action", "t": 0.1, "turn": 0, "player": 0, "attempt": 1, "action": "4"}]


def write_run(directory: Path, records: list[dict[str, Any]], *, report: bool = True,
              options: tuple[str, ...] = ()) -> Path:
    """Stores the records as a run does (results.jsonl, transcripts) and, with ``report``, writes its report
    (its manifest's command line with ``options`` added)."""
    store = ResultStore(directory, records[0]["run_id"])
    for record in records:
        store.append(record, _events(record))
    if report:
        stored = [json.loads(line) for line in store.path.read_text().splitlines()]
        manifest = manifest_for(stored, command=["pytest", "suites/spin", "--api-base",
                                                 "http://user:SECRET@127.0.0.1:9/v1", "--report-dir", str(directory),
                                                 *options])
        write_reports(analyse(stored, resamples=200, manifest=manifest), directory)
    return directory


def three_runs(root: Path) -> dict[str, Path]:
    """Writes the three runs under ``root`` (``seed0``, ``seed1``, ``paper``) and returns their directories."""
    return {
        "seed0": write_run(root / "seed0", run_records("openai/m1+direct", range(0, 4), run_id="20261118T000000-aaaaaa",
                                                       started=T0)),
        "seed1": write_run(root / "seed1", run_records("openai/m2+direct", range(4, 8), run_id="20261119T000000-bbbbbb",
                                                       started=T0 + DAY)),
        "paper": write_run(root / "paper", run_records("openai/m2+direct", range(0, 4), run_id="20261120T000000-cccccc",
                                                       started=T0 + 2 * DAY, protocol="paper")),
    }
