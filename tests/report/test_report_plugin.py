"""Reports, the ratings summary and the regression gate at the end of a pytest run (pytester subprocesses)."""

from __future__ import annotations

import json

import pytest
from report_records import record
from stratbench.report.analysis import analyse, manifest_for
from stratbench.report.render import write_reports

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=4)
def test_tictactoe(match):
    match.play()
"""
FAST = ("-p", "no:cacheprovider", "--stratbench-bootstrap", "200")


@pytest.fixture
def suite(pytester):
    pytester.makepyfile(test_ttt=SUITE)
    return pytester


def _assert_reports(directory, matches):
    for name in ("report.html", "report.md", "results.json"):
        assert (directory / name).is_file(), name
    data = json.loads((directory / "results.json").read_text())
    assert data["n_matches"] == matches
    assert data["ratings"]["n_resamples"] == 200 and sorted(data["ratings"]["agents"]) == ["minimax", "random"]
    assert data["manifest"]["command_line"][0] == "pytest" and "--stratbench-bootstrap" in data["manifest"]["command_line"]
    html = (directory / "report.html").read_text()
    assert '<table id="ratings-table">' in html and '<svg class="rating-plot"' in html
    pages = sorted((directory / "transcripts").glob("*.html"))
    assert len(pages) == matches
    assert all(f'href="transcripts/{page.name}"' in html for page in pages)
    return data


def _baseline(path, random_score, matches=8):
    """Writes a baseline results.json of the suite's matches, seated as it seats them (random first on even seeds),
    random's score in each given."""
    records = [
        record(f"test_ttt.py::test_tictactoe[random-vs-minimax-s{k}]", ("random", "minimax"),
               (random_score, 1.0 - random_score), seed=k) if k % 2 == 0 else
        record(f"test_ttt.py::test_tictactoe[random-vs-minimax-s{k}]", ("minimax", "random"),
               (1.0 - random_score, random_score), seed=k, subject=1)
        for k in range(matches)
    ]
    write_reports(analyse(records, resamples=200, manifest=manifest_for(records)), path)
    return path / "results.json"


@pytest.mark.slow
def test_reports_ratings_table_and_an_underpowered_gate_answers_inconclusive(suite):
    # random loses every match to minimax, as in the baseline: 4 identical pairs cannot decide yet
    baseline = _baseline(suite.path / "baseline", 0.0)
    result = suite.runpytest_subprocess(*FAST, "--baseline", str(baseline.parent), "--stratbench-gate-tolerance", "1")
    assert result.ret == 6, result.stdout.str()
    result.stdout.fnmatch_lines([
        "*stratbench: per-agent summary*",
        "*stratbench: ratings*",
        "Bradley-Terry, game-balanced bootstrap B=200, 90% intervals, alpha=*, ties drop, failed resamples 0",
        "agent*rating*interval*matches",
        "minimax * +*.** ?+*.**, +*.**? * 4",
        "random * -*.** ?-*.**, -*.**? * 4",
        "wrote *reports/latest/report.html",
        "wrote *reports/latest/report.md",
        "wrote *reports/latest/results.json",
        "*stratbench: regression gate*",
        "stratbench gate: INCONCLUSIVE (not yet decided)",
        "  more  random: tictactoe: LLR +*(-2.94, +2.94) after 4 unit(s); score difference per game *; about * more "
        "unit(s)",
    ])
    assert "nan" not in result.stdout.str()  # no pooled Elo column left behind
    data = _assert_reports(suite.path / "reports" / "latest", 4)
    assert data["gate"]["decision"] == "inconclusive" and data["gate"]["tests"][0]["pairs"] == 4
    # The hand-made records of the report tests carry every key of a stored record that the report reads.
    stored = json.loads((suite.path / "reports" / "latest" / "results.jsonl").read_text().splitlines()[0])
    made = record("m1")
    for key in ("match_id", "test_id", "game", "sides", "scores", "subject", "result", "illegal", "decisions",
                "metrics", "seed", "run_id", "cassette", "versions", "transcript"):
        assert key in stored and key in made, key
    assert set(made["sides"][0]) <= set(stored["sides"][0])
    asked = suite.runpytest_subprocess(*FAST, "--baseline", str(baseline), "--gate-inconclusive", "pass")
    assert asked.ret == 0, asked.stdout.str()


@pytest.mark.slow
def test_enough_unchanged_units_pass_the_gate(suite):
    # every unit equal: evidence of no drop at about (0.144)^2 / 2 per one-match unit at the default -50
    baseline = _baseline(suite.path / "baseline", 0.0, matches=200)
    result = suite.runpytest_subprocess(*FAST, "--matches", "200", "--baseline", str(baseline))
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["stratbench gate: passed", "  ok    random: tictactoe: LLR +*after * of 200 unit(s)*"])


@pytest.mark.slow
def test_under_xdist_the_controller_writes_reports_and_the_gate_fails_a_regression(suite):
    # In the baseline random won every match, which it cannot do against a perfect player.
    baseline = _baseline(suite.path / "baseline", 1.0, matches=30)
    result = suite.runpytest_subprocess(*FAST, "-n", "2", "--matches", "30", "--report-dir", "out",
                                        "--baseline", str(baseline))
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    result.stdout.fnmatch_lines([
        "*stratbench: ratings*",
        "minimax * +*",
        "wrote *out/report.html",
        "*stratbench: regression gate*",
        "stratbench gate: FAILED",
        "  FAIL  random: tictactoe: LLR -*(-2.94, +2.94) after * of 30 unit(s); score difference per game -0.9*",
        "  note  random: rating -*lies below the baseline random +*",
    ])
    data = json.loads((suite.path / "out" / "results.json").read_text())
    assert data["n_matches"] == 30 and data["gate"]["decision"] == "fail"
    assert len(data["manifest"]["run_ids"]) == 1  # the workers used the controller's run id


def test_a_baseline_sharing_no_match_is_nothing_compared_exit_4(suite):
    records = [record(f"other.py::test_x[random-vs-minimax-s{k}]", ("random", "minimax"), (0.0, 1.0), seed=k + 50)
               for k in range(4)]
    write_reports(analyse(records, resamples=50, manifest=manifest_for(records)), suite.path / "other")
    result = suite.runpytest_subprocess(*FAST, "--baseline", str(suite.path / "other"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    # known before any match is played: no collected match has a twin in the baseline
    result.stderr.fnmatch_lines(["*stratbench gate: nothing compared: no collected match can complete a unit (the "
                                 "baseline has no match of this seed); nothing was played*"])
    assert "stratbench gate: passed" not in result.stdout.str()
    assert not (suite.path / "reports" / "latest" / "results.jsonl").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "ERROR: stratbench: --baseline *missing.json: cannot read a results.json (*No such file*)"),
        ('{"hello": 1}', "ERROR: stratbench: --baseline *bad.json: not a stratbench results.json (no 'matches')"),
        ('{"matches": "x", "agents": 5}', "ERROR: stratbench: --baseline *bad.json: 'matches' is not a list"),
        ("[1, 2]", "ERROR: stratbench: --baseline *bad.json: not a stratbench results.json (a JSON object), got list"),
        ('{"matches": [{"match_id": "m", "game": "g", "agents": ["a"]}]}',
         "ERROR: stratbench: --baseline *bad.json: matches?0?: no 'scores'"),
        ("", "ERROR: stratbench: --stratbench-gate-tolerance needs --baseline PATH*"),
    ],
    ids=["missing", "not-a-report", "wrong-shape", "not-an-object", "row-without-scores",
         "gate-option-without-baseline"],
)
def test_a_bad_baseline_is_a_usage_error_before_any_match(suite, content, message):
    if content == "":
        args = ["--stratbench-gate-tolerance", "1"]
    else:
        path = suite.path / ("missing.json" if content is None else "bad.json")
        if content is not None:
            path.write_text(content)
        args = ["--baseline", str(path)]
    result = suite.runpytest_subprocess(*FAST, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert "Traceback" not in result.stderr.str()
    assert not list(suite.path.glob("reports/**/*.json*"))  # refused before any match was played
    assert not (suite.path / "reports" / "latest" / "results.jsonl").exists()
