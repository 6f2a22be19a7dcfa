"""Gating a model upgrade, end to end: a strong baseline, a weak upgrade that fails, a strong one that passes.

The models are loopback servers: the strong one answers perfect Tic-Tac-Toe
(minimax) and Connect Four (the exact solver) moves read from the prompt, the
weak one random legal moves. Every request goes through litellm and vcrpy.
"""

from __future__ import annotations

import json

import pytest
from stratbench.cli import build_parser, cmd_gate
from stratbench.testing.fake_llm import FakeLLMServer
from stratbench.testing.solver_responder import random_legal_responder, solver_responder

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=4, seats="half")
def test_tictactoe(match):
    match.play()

@pytest.mark.stratbench(game="connect4", opponents=["random"], baselines=[], matches=2, seats="half")
def test_connect4(match):
    match.play()
"""

STRONG, WEAK, STRONG_AGAIN = "openai/strong+direct", "openai/weak+direct", "openai/strong-v2+direct"


def _run(pytester, server, model, report_dir, *extra):
    return pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--model", model, "--api-base", server.api_base, "--report-dir", report_dir,
        "--stratbench-bootstrap", "500", *extra)


def _gate_section(result) -> list[str]:
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "stratbench: regression gate" in line)
    return [line for line in lines[start + 1:] if line.strip() and not line.startswith("=")]


@pytest.mark.slow
def test_a_weak_upgrade_fails_the_gate_and_a_strong_one_passes(pytester, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-gate")
    pytester.makepyfile(test_suite=SUITE)
    with FakeLLMServer(responder=solver_responder) as strong, FakeLLMServer(responder=random_legal_responder(7)) as weak:
        baseline = _run(pytester, strong, "openai/strong", "base")
        assert baseline.ret == 0, baseline.stdout.str()
        base = json.loads((pytester.path / "base" / "results.json").read_text())
        strong_scores = [m["scores"][m["agents"].index(STRONG)] for m in base["matches"]]
        by_game = {g: [m["scores"][m["agents"].index(STRONG)] for m in base["matches"] if m["game"] == g]
                   for g in ("tictactoe", "connect4")}
        assert by_game == {"tictactoe": [0.5] * 4, "connect4": [1.0] * 2}, strong_scores  # perfect play

        failed = _run(pytester, weak, "openai/weak", "weak", "--baseline", "base/results.json",
                      "--stratbench-gate-map", f"{WEAK}={STRONG}")
        assert failed.ret == 1, failed.stdout.str()
        gate = failed_gate = _gate_section(failed)
        assert gate[0] == "stratbench gate: FAILED"
        assert len(gate) <= 24
        failures = [line for line in gate if line.startswith("  FAIL  ")]
        assert failures and all(f"  FAIL  {WEAK}: " in line for line in failures)
        assert any(f"below the baseline {STRONG} " in line for line in failures)
        weak_data = json.loads((pytester.path / "weak" / "results.json").read_text())
        weak_scores = {g: [m["scores"][m["agents"].index(WEAK)] for m in weak_data["matches"] if m["game"] == g]
                       for g in ("tictactoe", "connect4")}
        weak_means = {g: sum(scores) / len(scores) for g, scores in weak_scores.items()}
        assert weak_means["tictactoe"] < 0.5 and weak_means["connect4"] < 1.0
        per_game = [line for line in gate if line.startswith("          ")]
        assert per_game == [
            f"          connect4: mean score {weak_means['connect4']:.2f} vs baseline 1.00 over 2 matches",
            f"          tictactoe: mean score {weak_means['tictactoe']:.2f} vs baseline 0.50 over 4 matches",
        ]

        passed = _run(pytester, strong, "openai/strong-v2", "again", "--seed", "100", "--baseline", "base",
                      "--stratbench-gate-map", f"{STRONG_AGAIN}={STRONG}")
        assert passed.ret == 0, passed.stdout.str()
        gate = passed_gate = _gate_section(passed)
        assert gate[0] == "stratbench gate: passed"
        assert not [line for line in gate if "FAIL" in line]
        assert any(line.startswith(f"  ok    {STRONG_AGAIN}: ") for line in gate)

    # The same verdicts from the stored results, with the command line's --map.
    def gate_cli(current, mapping):
        args = build_parser().parse_args(["gate", str(pytester.path / current),
                                          str(pytester.path / "base" / "results.json"), "--map", mapping])
        capsys.readouterr()
        status = cmd_gate(args)
        return status, capsys.readouterr().out.splitlines()

    assert gate_cli("weak", f"{WEAK}={STRONG}") == (1, failed_gate)
    assert gate_cli("again", f"{STRONG_AGAIN}={STRONG}") == (0, passed_gate)
