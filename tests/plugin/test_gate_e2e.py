"""Gating a model upgrade, end to end: an underpowered run answers inconclusive; played until decided, a weak
upgrade fails and a strong one passes, each within its budget.

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
BUDGET = 40


def _run(pytester, server, model, report_dir, *extra):
    return pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--model", model, "--api-base", server.api_base, "--report-dir", report_dir,
        "--stratbench-bootstrap", "200", *extra)


def _gate_section(result) -> list[str]:
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "stratbench: regression gate" in line)
    return [line for line in lines[start + 1:] if line.strip() and not line.startswith("=")]


def _records(pytester, report_dir):
    lines = (pytester.path / report_dir / "results.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r.get("type") == "match"]


@pytest.mark.runs_first
@pytest.mark.slow
def test_an_underpowered_gate_is_inconclusive_and_until_decided_fails_the_weak_and_passes_the_strong(
        pytester, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-gate")
    pytester.makepyfile(test_suite=SUITE)
    with FakeLLMServer(responder=solver_responder) as strong, \
            FakeLLMServer(responder=random_legal_responder(7)) as weak:
        baseline = _run(pytester, strong, "openai/strong", "base")
        assert baseline.ret == 0, baseline.stdout.str()
        base = json.loads((pytester.path / "base" / "results.json").read_text())
        by_game = {g: [m["scores"][m["agents"].index(STRONG)] for m in base["matches"] if m["game"] == g]
                   for g in ("tictactoe", "connect4")}
        assert by_game == {"tictactoe": [0.5] * 4, "connect4": [1.0] * 2}  # perfect play

        # 4 + 2 pairs cannot tell: the weak model is worse in every pair, yet the answer is "not yet"
        unsure = _run(pytester, weak, "openai/weak", "weak", "--baseline", "base/results.json",
                      "--stratbench-gate-map", f"{WEAK}={STRONG}")
        assert unsure.ret == 6, unsure.stdout.str()
        gate = _gate_section(unsure)
        assert gate[0] == "stratbench gate: INCONCLUSIVE (not yet decided)"
        more = [line for line in gate if line.startswith("  more  ")]
        assert [line.split(": ")[1] for line in more] == ["connect4", "tictactoe"]
        assert all(line.startswith(f"  more  {WEAK} vs {STRONG}: ") and "more unit(s)" in line for line in more)
        assert "  note  Bonferroni over 2 test(s): each at alpha 0.025, beta 0.025 " + \
            "(H0 -50 normalized Elo or a score drop of 0.1, H1 +0 Elo or no score drop)" in gate
        data = json.loads((pytester.path / "weak" / "results.json").read_text())
        assert data["gate"]["decision"] == "inconclusive"
        assert {t["game"]: t["pairs"] for t in data["gate"]["tests"]} == {"tictactoe": 4, "connect4": 2}

        # Played until decided, against a baseline with enough seeds, within the budget
        # (its own cassettes: with 40 matches the "half" seating puts seeds 2 and 3 the other way round).
        # A coarse gate, H0 -150 normalized Elo: an unchanged deterministic model passes within 40 units
        # (at the default -50 it takes about 140). The baseline starts each seed from the opening book, so the
        # gated runs do too (as the baseline did) and a deterministic model does not play one game over and over.
        wide = _run(pytester, strong, "openai/strong", "base-wide", "-k", "tictactoe", "--matches", str(BUDGET),
                    "--stratbench-cassette-dir", "cassettes-wide", "--openings", "book")
        assert wide.ret == 0, wide.stdout.str()
        failed = _run(pytester, weak, "openai/weak", "weak-decided", "-k", "tictactoe", "--matches", str(BUDGET),
                      "--baseline", "base-wide", "--stratbench-gate-map", f"{WEAK}={STRONG}",
                      "--gate-until-decided", "--budget", str(BUDGET), "--stratbench-cassette-dir", "cassettes-wide",
                      "--gate-elo0", "-150")
        assert failed.ret == 1, failed.stdout.str()
        gate = _gate_section(failed)
        assert gate[0] == "stratbench gate: FAILED"
        assert gate[1].startswith(f"  FAIL  {WEAK} vs {STRONG}: tictactoe: LLR -")
        played = [r for r in _records(pytester, "weak-decided") if r["status"] == "scored"]
        skipped = [r for r in _records(pytester, "weak-decided") if r["status"] == "skipped"]
        assert 0 < len(played) < BUDGET and len(played) + len(skipped) == BUDGET
        (reason,) = {r["reason"] for r in skipped}
        (test,) = json.loads((pytester.path / "weak-decided" / "results.json").read_text())["gate"]["tests"]
        decided_at = test["decided_at"]
        assert reason == f"--gate-until-decided: {WEAK} on tictactoe is decided (fail) after {decided_at} unit(s)"
        assert all(r["test_id"].endswith("-book") and r["opening"] for r in played)  # as the baseline started
        # the next match is chosen while one is in play; a unit that repeats an earlier one's games counts once
        assert decided_at + test["repeats"] in (len(played), len(played) - 1)
        assert any(line.startswith(f"stratbench gate: {WEAK} on tictactoe: LLR ") and line.endswith(": inconclusive")
                   for line in failed.stdout.lines)

        passed = _run(pytester, strong, "openai/strong-v2", "again", "-k", "tictactoe", "--matches", str(BUDGET),
                      "--baseline", "base-wide", "--stratbench-gate-map", f"{STRONG_AGAIN}={STRONG}",
                      "--gate-until-decided", "--budget", str(BUDGET), "--stratbench-cassette-dir", "cassettes-wide",
                      "--gate-elo0", "-150")
        assert passed.ret == 0, passed.stdout.str()
        gate = passed_gate = _gate_section(passed)
        assert gate[0] == "stratbench gate: passed"
        assert gate[1].startswith(f"  ok    {STRONG_AGAIN} vs {STRONG}: tictactoe: LLR +")
        played_again = [r for r in _records(pytester, "again") if r["status"] == "scored"]
        assert 0 < len(played_again) < BUDGET

    # The same answers from the stored results, with the command line's --map.
    def gate_cli(current, baseline, mapping, *extra):
        args = build_parser().parse_args(["gate", str(pytester.path / current), str(pytester.path / baseline),
                                          "--map", mapping, *extra])
        capsys.readouterr()
        status = cmd_gate(args)
        return status, capsys.readouterr().out.splitlines()

    assert gate_cli("weak", "base/results.json", f"{WEAK}={STRONG}")[0] == 6
    assert gate_cli("again", "base-wide", f"{STRONG_AGAIN}={STRONG}", "--elo0", "-150") == (0, passed_gate)


H2H_SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=[], baselines=[], matches=6)
def test_tictactoe(match):
    match.play()
"""


@pytest.mark.slow
def test_head_to_head_in_one_run_pairs_the_two_seatings(pytester, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-gate")
    pytester.makepyfile(test_suite=H2H_SUITE)
    new, old = "openai/strong-v2+direct", "openai/strong+direct"
    with FakeLLMServer(responder=solver_responder) as server:
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "--model", "openai/strong-v2", "--model", "openai/strong",
            "--api-base", server.api_base, "--stratbench-bootstrap", "100", "--stratbench-gate-map", f"{new}={old}")
    assert result.ret == 6, result.stdout.str()  # 6 pairs of perfect play: equal, but too few to say so
    # a head-to-head gate plays each seed in both seatings (one pair per seed), and says so first
    result.stdout.fnmatch_lines(["stratbench gate: each seed of a two-seat game plays in both seatings, one unit "
                                 "of the gate (as --pairs)"])
    gate = _gate_section(result)
    assert gate[0] == "stratbench gate: INCONCLUSIVE (not yet decided)"
    assert gate[1].startswith(f"  more  {new} vs {old} head to head: tictactoe: LLR +")
    assert " after 6 pair(s); all 6 pair(s) equal: no interval;" in gate[1]  # no precision the data lacks
    data = json.loads((pytester.path / "reports" / "latest" / "results.json").read_text())
    (test,) = data["gate"]["tests"]
    assert test["pairing"] == "head-to-head" and test["pairs"] == 6 and test["incomplete"] == 0
    assert test["all_equal"] and test["interval"] == [None, None]  # every game a draw
    seatings = sorted((m["seed"], m["agents"].index(new)) for m in data["matches"])
    assert seatings == [(seed, seat) for seed in range(6) for seat in (0, 1)]


@pytest.mark.slow
def test_pairs_play_each_seed_in_both_seatings_and_the_head_to_head_test_pairs_them(pytester, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-gate")
    pytester.makepyfile(test_suite=H2H_SUITE.replace("matches=6", "matches=3"))
    new, old = "openai/strong-v2+direct", "openai/strong+direct"
    with FakeLLMServer(responder=solver_responder) as server:
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "--model", "openai/strong-v2", "--model", "openai/strong", "--pairs",
            "--api-base", server.api_base, "--stratbench-bootstrap", "100", "--stratbench-gate-map", f"{new}={old}")
    assert result.ret == 6, result.stdout.str()
    data = json.loads((pytester.path / "reports" / "latest" / "results.json").read_text())
    seatings = sorted((m["seed"], m["agents"].index(new)) for m in data["matches"])
    assert seatings == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]  # each seed with the sides swapped
    (test,) = data["gate"]["tests"]
    assert test["pairing"] == "head-to-head" and test["pairs"] == 3 and test["incomplete"] == 0
    # pairs start each seed from its own book position, both seatings of a seed from the same one (said first)
    result.stdout.fnmatch_lines(["stratbench: the games with an opening book (Tic-Tac-Toe, Connect Four, chess) start "
                                 "each seed from a balanced position of it (--openings book: the gate's default when "
                                 "it plays pairs; the paper protocol keeps the empty board)"])
    records = [json.loads(line) for line in
               (pytester.path / "reports" / "latest" / "results.jsonl").read_text().splitlines()]
    matches = [r for r in records if r.get("type") == "match"]
    assert all(r["test_id"].endswith("-book") and r["game_options"] == {"openings": "book"} for r in matches)
    by_seed = {}
    for r in matches:
        by_seed.setdefault(r["seed"], set()).add(r["opening"])
    assert all(len(opening) == 1 for opening in by_seed.values()) and len(set().union(*by_seed.values())) == 3
    # one game per seed: the two models are one solver, so a seed's two seatings play the same moves
    assert len({r["game_digest"] for r in matches}) == 3 and test["repeats"] == 0


MAP_SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=40, seats="half")
def test_tictactoe(match):
    match.play()
"""


@pytest.mark.slow
def test_the_map_renames_the_candidate_only_so_minimax_for_random_pairs_and_passes(pytester):
    """Candidate minimax and baseline random, both against the minimax opponent: every match pairs."""
    pytester.makepyfile(test_ttt=MAP_SUITE)
    base = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-agent", "random",
                                         "--report-dir", "base", "--stratbench-bootstrap", "50")
    assert base.ret == 0, base.stdout.str()
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-agent", "minimax", "--baseline",
                                           "base", "--stratbench-gate-map", "minimax=random", "--report-dir", "new",
                                           "--stratbench-bootstrap", "50")
    assert result.ret == 0, result.stdout.str()  # on main: exit 4, "nothing compared"
    result.stdout.fnmatch_lines(["stratbench gate: passed",
                                 "  ok    minimax vs random: tictactoe: LLR +* after * of 40 unit(s); score difference "
                                 "per game +0.*"])
    (test,) = json.loads((pytester.path / "new" / "results.json").read_text())["gate"]["tests"]
    assert test["pairs"] == 40 and test["incomplete"] == 0 and test["score_difference"] > 0
