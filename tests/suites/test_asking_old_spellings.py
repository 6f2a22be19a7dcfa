"""No code in plugin/ uses Observation's deprecated flat protocol spellings (``answer_format=``, ``.prompt``, ...).

Several suites are played in their paper protocols with a model (a loopback
fake) in a pytest subprocess whose Observation deprecation warnings are errors:
every game builds its observations, and the scaffolds read primer, verbatim
prompt, preamble, retry wording, strict readers, prompt style and conversation
keys. A warning would end the match as a harness fault and fail the run.
"""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

import pytest
from stratbench.games.spin.hanabi_paper import PRIMER
from stratbench.testing.fake_llm import FakeLLMServer
from stratbench.testing.warm_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]
SUITES = ["suites/spin/test_tictactoe.py", "suites/spin/test_connect4.py", "suites/spin/test_hanabi.py",
          "suites/spin/test_pddl.py", "suites/spin/test_diplomacy.py", "suites/gamebench/test_pit.py",
          "suites/gamebench/test_codenames.py"]
SELECTION = ("openai/m+direct-vs-minimax-s5 or openai/m+direct-vs-c4solver-s5 or openai/m+direct-2p-s0 "
             "or openai/m+direct-blocksworld/p01-s0 or openai/m+direct-vs-random-s0 or openai/m+direct-basic-skill")
GAMES = {"tictactoe", "connect4", "hanabi", "pddl", "diplomacy-nopress", "pit", "codenames"}
_SPIN_LEGAL = re.compile(r"Legal moves: \[([^\]]*)\]|<legal_moves>([^<]*)</legal_moves>")


def responder(body):
    """Answers SPIN-Bench's JSON prompts (Tic-Tac-Toe illegally first), Hanabi's primer and ids; the rest badly."""
    texts = [m["content"] if isinstance(m["content"], str) else " ".join(p.get("text", "") for p in m["content"])
             for m in body["messages"] if m["role"] == "user"]
    last = texts[-1]
    if last == PRIMER:
        return "Understood."
    if "to their descriptions:\n" in last:
        legal = ast.literal_eval(last.split("to their descriptions:\n", 1)[1].split("\n", 1)[0])
        return json.dumps({"reason": "r", "action": sorted(legal)[0]})
    decision = next((text for text in reversed(texts) if _SPIN_LEGAL.search(text)), None)
    if decision is None:
        return "I am not sure."
    if decision == last and decision.startswith("The current board is"):  # Tic-Tac-Toe: a retry each move
        return json.dumps({"reason": "r", "action": 99})
    found = _SPIN_LEGAL.search(decision)
    moves = (found.group(1) or found.group(2)).replace(",", " ").split()
    return json.dumps({"reason": "r", "action": int(moves[-1])})


@pytest.mark.slow
def test_paper_protocols_play_without_the_deprecated_observation_spellings(tmp_path):
    report = tmp_path / "report"
    # --assert=plain: Python 3.11 can fail to compile a module that assertion rewriting imports lazily in a
    # scoring thread ("AST constructor recursion depth mismatch"), which has nothing to do with this check.
    args = [*SUITES, "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
            "--assert=plain", "-W", "error:Observation:DeprecationWarning", "--report-dir", str(report),
            "--stratbench-reference=off", "--protocol", "paper", "--model", "openai/m",
            "--stratbench-cassette-dir", str(tmp_path / "cassettes"), "--record-mode=once", "-k", SELECTION]
    environment = {**os.environ, "STRATBENCH_DIPLOMACY_END_YEAR": "1901"}
    with FakeLLMServer(responder=responder) as server:
        result = run_pytest([*args, "--api-base", server.api_base], cwd=ROOT, env=environment,
                                timeout=900)
        bodies = [r.body for r in server.requests]
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert "is deprecated; " not in output
    records = [json.loads(line) for line in (report / "results.jsonl").read_text().splitlines()]
    assert {r["game"] for r in records} == GAMES
    assert all(r["protocol"] == "paper" and r["status"] == "scored" for r in records), [
        (r["game"], r["status"]) for r in records]
    users = [[m["content"] for m in b["messages"] if m["role"] == "user"] for b in bodies]
    assert sum(texts == [PRIMER] for texts in users) == 2  # Hanabi's primer: asked once per seat
    assert sum(len(texts) > 1 and texts[0] == PRIMER for texts in users) > 2  # then heading each decision
    assert any("Illegal move, try again" in texts for texts in users)  # a paper retry prompt was sent
    assert any(len(texts) > 1 and texts[0].startswith("You are playing Tic-Tac-Toe") for texts in users)
