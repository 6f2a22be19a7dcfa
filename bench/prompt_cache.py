"""Prompt caching in a long game: tokens billed and cost with and without it, against a loopback model.

One full game of Hanabi (2 players, the model in both seats, the default
protocol: its rules are the system prompt, the same at every decision) is
played by pytest in a subprocess, through litellm, against the loopback
server (``stratbench.testing.fake_llm``), which reports cache use in each
provider's shape:

- ``anthropic/claude-sonnet-4-5``, which caches only what a request marks
  (``cache_control``): with ``--prompt-cache auto`` (stratbench marks the
  stable prefix) and ``off`` (no marks, so nothing is cached);
- ``openai/gpt-4o``, which caches a repeated prefix by itself: against a
  server that caches (as OpenAI does) and one that does not.

The responder answers every decision with a legal action: a hint where one
is legal, else a discard (chosen by a hash of the prompt, so every run plays
the same game, and the game lasts until the deck runs out). Tokens are the server's
word counts; cost is litellm's price map (cached reads and cache writes at
their own prices), read from each match record. Figures per run: model calls,
prompt tokens, of them read from the cache and written to it, completion
tokens, the cost in USD and its ratio to the same model without caching.

Usage:
    python bench/prompt_cache.py [--seed 0]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "plugin"))

from stratbench.testing.fake_llm import FakeLLMServer  # noqa: E402

SUITE = """
import pytest

@pytest.mark.stratbench(game="hanabi", variants=["2p"], baselines=[], matches=1, illegal_tolerance=5,
                        fallback="random")
def test_hanabi(match):
    match.play()
"""

RUNS = (
    ("anthropic/claude-sonnet-4-5", "on_request", "auto", "marked prefix (--prompt-cache auto)"),
    ("anthropic/claude-sonnet-4-5", "on_request", "off", "no marks (--prompt-cache off)"),
    ("openai/gpt-4o", "auto", "auto", "provider caches by itself"),
    ("openai/gpt-4o", "off", "auto", "provider without a cache"),
)
"""(model, the server's cache rule, --prompt-cache, what the run shows)."""

_ACTIONS = re.compile(r"(\d+): '\((Reveal|Discard|Play)")


def hanabi_responder(body: dict[str, Any]) -> str:
    """Answers in the E.2 JSON format with a legal action id from the last user turn: a hint where one is
    legal, else a discard, else a play (so the game runs to the end of the deck instead of losing its lives)."""
    text = json.dumps(body.get("messages", [])[-1:])
    listed = _ACTIONS.findall(text)
    if not listed:
        return '{"reason": "nothing to do", "action": 0}'
    for kind in ("Reveal", "Discard", "Play"):
        ids = [int(action) for action, what in listed if what == kind]
        if ids:
            pick = ids[hashlib.sha256(text.encode()).digest()[0] % len(ids)]
            return json.dumps({"reason": f"a legal {kind.lower()}", "action": pick})
    return '{"reason": "nothing to do", "action": 0}'


def run(project: Path, model: str, server_cache: str, prompt_cache: str, seed: int, tag: str) -> dict[str, Any]:
    """Plays the game once; returns the subject side's usage from its match record."""
    report = project / "reports" / tag
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "plugin"), os.environ.get("PYTHONPATH", "")]),
           "ANTHROPIC_API_KEY": "sk-ant-bench", "OPENAI_API_KEY": "sk-bench"}
    with FakeLLMServer(responder=hanabi_responder, cache=server_cache) as server:
        base = server.base_url if model.startswith("anthropic/") else server.api_base
        command = [
            sys.executable, "-m", "pytest", "test_hanabi.py", "-q", "-p", "no:cacheprovider", "-n", "0",
            "--model", model, "--api-base", base, "--prompt-cache", prompt_cache, "--seed", str(seed),
            "--record-mode", "all", "--stratbench-cassette-dir", str(project / "cassettes" / tag),
            "--report-dir", str(report), "--stratbench-bootstrap", "10", "--stratbench-reference", "off",
        ]
        done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{tag}: pytest exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    [record] = [json.loads(line) for line in (report / "results.jsonl").read_text().splitlines()
                if json.loads(line).get("type") == "match"]
    usage = dict(record["usage"][record["subject"]])
    usage.update(decisions=record["decisions"][record["subject"]], turns=record["turns"], score=record["scores"][0])
    return usage


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()[0]:.2f} (1-min load average, {os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        (project / "pytest.ini").write_text("[pytest]\n")
        (project / "test_hanabi.py").write_text(SUITE)
        print(f"\n{'model':<28} {'run':<36} {'calls':>5} {'prompt':>7} {'cached':>7} {'written':>7} "
              f"{'answer':>6} {'cost USD':>9} {'vs none':>7}")
        without: dict[str, float] = {}
        rows = []
        for index, (model, server_cache, prompt_cache, what) in enumerate(RUNS):
            usage = run(project, model, server_cache, prompt_cache, args.seed, f"run{index}")
            rows.append((model, what, usage))
            if what.startswith(("no marks", "provider without")):
                without[model] = usage["cost_usd"]
        for model, what, usage in rows:
            ratio = usage["cost_usd"] / without[model] if without.get(model) else float("nan")
            print(f"{model:<28} {what:<36} {usage['calls']:>5} {usage['prompt_tokens']:>7} "
                  f"{usage.get('cached_tokens', 0) or 0:>7} {usage.get('cache_write_tokens', 0) or 0:>7} "
                  f"{usage['completion_tokens']:>6} {usage['cost_usd']:>9.5f} {ratio:>6.2f}x")
        print(f"\none game each: {rows[0][2]['decisions']} decisions, {rows[0][2]['turns']} turns, "
              f"fireworks {rows[0][2]['score']:.0f}")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
