"""The plugin end to end, as a user runs it: statuses, results, summary, record/replay, xdist."""

from __future__ import annotations

import json

import pytest

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=4, seats="half")
def test_tictactoe(match):
    match.play()
"""


@pytest.fixture
def suite(pytester):
    pytester.makepyfile(test_ttt=SUITE)
    return pytester


def results(pytester, directory="reports/latest"):
    path = pytester.path / directory / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_baselines_play_offline_with_scored_statuses(suite):
    result = suite.runpytest_subprocess("-v", "-p", "no:cacheprovider")
    result.assert_outcomes()  # no passed/failed: every match has a scored category
    result.stdout.fnmatch_lines([
        "*test_tictactoe?random-vs-minimax-second-s0? LOST 0.00*",
        "*stratbench: per-agent summary*",
        "agent*matches*W*D*L*mean*illegal*tokens*cost $",
        "minimax * 4 *",
        "random * 4 *",
        "*results: *reports/latest/results.jsonl",
    ])
    assert result.ret == 0
    records = results(suite)
    assert len(records) == 4
    # summed over the run, each agent's own outcomes: random's losses are minimax's wins, never "4 lost"
    wins = sum(r["scores"][1 - r["subject"]] == 1.0 for r in records)
    draws = sum(r["scores"] == [0.5, 0.5] for r in records)
    minimax = ", ".join(part for part in (f"{wins} won" if wins else "", f"{draws} drew" if draws else "") if part)
    random_ = ", ".join(part for part in (f"{draws} drew" if draws else "", f"{wins} lost" if wins else "") if part)
    assert f"outcomes: minimax {minimax}; random {random_}" in result.stdout.lines
    assert result.stdout.lines[-1].startswith("=") and " 4 scored in " in result.stdout.lines[-1]
    assert result.parseoutcomes() == {"scored": 4}
    first = records[0]
    assert first["game"] == "tictactoe" and first["sides"][first["subject"]]["agent"] == "random"
    assert sum(first["scores"]) == 1.0 and first["result"] in ("won", "lost", "draw")
    assert first["metrics"][str(first["subject"])]["moves"] >= 2
    assert (suite.path / "reports/latest" / first["transcript"]).is_file()
    assert [r["subject"] for r in records] == [1, 1, 0, 0]


def test_a_second_run_keeps_the_first_runs_results(suite):
    suite.runpytest_subprocess("-p", "no:cacheprovider")
    suite.runpytest_subprocess("-p", "no:cacheprovider", "--matches", "1")
    files = sorted(p.name for p in (suite.path / "reports/latest").glob("results*.jsonl"))
    assert len(files) == 2 and "results.jsonl" in files
    assert len(results(suite)) == 1


@pytest.mark.slow
def test_record_then_replay_under_xdist_gives_identical_outcomes(suite, fake_llm):
    args = ["-p", "no:cacheprovider", "--model", "openai/m", "--matches", "2"]
    recorded = suite.runpytest_subprocess(*args, "--api-base", fake_llm.api_base, "--record-mode=once", "-n", "0")
    assert recorded.ret == 0, recorded.stdout.str()
    live = {r["match_id"]: (r["scores"], r["turns"], r["tokens"]) for r in results(suite)}
    assert len(live) == 4 and len(fake_llm.requests) > 0
    # a model litellm has no price for spent tokens: "unpriced", never a cost of 0 that reads as free
    row = next(line for line in recorded.stdout.lines if line.startswith("openai/m+direct "))  # the summary's
    assert row.split()[-1] == "unpriced" and int(row.split()[-2]) > 0
    assert "unpriced: tokens no price covers (litellm has none for the model); give one with --price MODEL=IN,OUT " \
           "(USD per million input, output tokens)" in recorded.stdout.lines
    assert [line.split()[-1] for line in recorded.stdout.lines if line.startswith("minimax ")][:1] == ["0.0000"]
    fake_llm.stop()  # replay must not need the server
    collected_0 = suite.runpytest_subprocess(*args, "--collect-only", "-q", "-n", "0").stdout.lines
    replayed = suite.runpytest_subprocess(*args, "--record-mode=none", "-n", "2")
    assert replayed.ret == 0, replayed.stdout.str()
    again = {r["match_id"]: (r["scores"], r["turns"], r["tokens"]) for r in results(suite)}
    assert again == live
    ids = sorted(line for line in collected_0 if "::" in line)
    assert ids == sorted(live)


@pytest.mark.slow
def test_replay_without_a_cassette_fails_naming_it(suite):
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "--model", "openai/m", "--matches", "1",
                                        "--record-mode=none")
    result.stdout.fnmatch_lines(["*CassetteMissError: no cassette *openai_m+direct-vs-minimax-s0.yaml*"])
    assert result.ret == 1
    stored = results(suite)
    assert [r["status"] for r in stored] == ["errored", "scored"] or [r["status"] for r in stored] == [
        "scored", "errored"]  # the baseline match still scored; the model's match is listed, not lost
    errored = next(r for r in stored if r["status"] == "errored")
    assert errored["fault"] == "harness" and errored["reason"].startswith("CassetteMissError: no cassette ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--matches", "0"], "*--matches: expected a whole number of at least 1, got '0'*"),
        (["--matches", "ten"], "*--matches: expected a whole number of at least 1, got 'ten'*"),
        (["--scaffold", "tree"], "*stratbench: unknown scaffold 'tree'; known: constrained, cot, direct*"),
        (["--stratbench-agent", "alphazero"], "*stratbench: unknown agent 'alphazero'; known: *minimax*random*"),
        (["--model", "nonsense-model-xyz"], "*--model 'nonsense-model-xyz': litellm cannot tell its provider*"),
        (["--model", "openai/m", "--api-base", "http://127.0.0.1:9/v1"], "*cannot reach --api-base http://127.0.0.1:9/v1*"),
        (["--api-base", "localhost:8000"], "*--api-base: expected an http:// or https:// URL*"),
        (["--stratbench-agent", "human"], "*the human agent reads your moves from the terminal; run pytest with -s*"),
    ],
)
def test_bad_input_gets_one_clear_line_and_keeps_results(suite, args, message):
    suite.runpytest_subprocess("-p", "no:cacheprovider", "--matches", "1")
    before = (suite.path / "reports/latest/results.jsonl").read_text()
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", *args)
    assert result.ret in (pytest.ExitCode.USAGE_ERROR, 4)
    result.stderr.fnmatch_lines([message])
    assert "Traceback" not in result.stderr.str()
    assert (suite.path / "reports/latest/results.jsonl").read_text() == before


def test_an_unknown_game_is_a_collection_error_with_one_line(pytester):
    pytester.makepyfile(test_bad="""
import pytest

@pytest.mark.stratbench(game="tictactoe-3d")
def test_bad(match):
    match.play()
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["*test_bad.py::test_bad: unknown game 'tictactoe-3d'; known: *tictactoe*"])
    assert result.ret == pytest.ExitCode.INTERRUPTED


def test_a_suite_without_a_marker_is_explained(pytester):
    pytester.makepyfile(test_nomark="def test_x(match):\n    match.play()\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["*uses the 'match' fixture but has no @pytest.mark.stratbench(game=...)*"])


@pytest.mark.slow
def test_max_cost_skips_the_remaining_matches(suite, fake_llm):
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rs", "--model", "openai/gpt-4o", "--api-base", fake_llm.api_base,
        "--matches", "3", "--max-cost", "0.003", "-n", "0",
    )
    result.stdout.fnmatch_lines(["*SKIPPED*--max-cost 0.003 USD reached (spent*"])
    subject_records = [r for r in results(suite) if r["sides"][r["subject"]]["agent"] == "openai/gpt-4o+direct"]
    llm_records = [r for r in subject_records if r["status"] == "scored"]
    skipped = [r for r in subject_records if r["status"] == "skipped"]
    assert 1 <= len(llm_records) < 3 and all(r["cost_usd"] > 0 for r in llm_records)
    assert len(llm_records) + len(skipped) == 3  # a match skipped for the budget is recorded with its reason
    assert all(r["reason"].startswith("--max-cost 0.003 USD reached (spent") for r in skipped)
    per_call = max(r["cost_usd"] / r["usage"][r["subject"]]["calls"] for r in llm_records)
    spent = sum(r["cost_usd"] for r in llm_records)
    assert spent <= 0.003 + 2 * per_call  # calls stop once the budget is reached


def test_help_lists_the_stratbench_options(pytester):
    result = pytester.runpytest_subprocess("--help")
    result.stdout.fnmatch_lines([
        "strategic-reasoning benchmarks:*",
        "*--model=MODEL*Evaluate this litellm model string (repeatable)*",
        "*--scaffold=NAME*",
        "*--matches=N*",
        "*--max-cost=USD*",
        "*--report-dir=DIR*",
        "*--match-timeout=S*Record a match that runs longer than S seconds as*",
        "*--resume, --stratbench-resume*",
        "*--record-mode=*",
    ])


def test_nothing_collected_exits_five(pytester):
    pytester.makepyfile(test_empty="")
    assert pytester.runpytest_subprocess("-p", "no:cacheprovider").ret == pytest.ExitCode.NO_TESTS_COLLECTED
