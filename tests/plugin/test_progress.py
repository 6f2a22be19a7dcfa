"""The live progress line: before the first match ends, with model use so far, in one process and under xdist;
never under -q."""

from __future__ import annotations

import re

import pytest
from stratbench.run.progress import progress_line
from stratbench.testing.fake_llm import FakeLLMServer

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=2)
def test_tictactoe(match):
    match.play()
"""
LINE = re.compile(r"^stratbench: progress: (\d+)/(\d+) matches done, (\d+) in flight(; (\d+) model call\(s\), "
                  r"[\d,]+ tokens, (unpriced|[\d.]+ USD))?; \d+:\d\d elapsed(, about \d+:\d\d left)?$")


def test_the_line_says_done_of_all_in_flight_model_use_and_time_left():
    assert progress_line(0, 16, 4, 0, 0, None, elapsed=5) == \
        "stratbench: progress: 0/16 matches done, 4 in flight; 0:05 elapsed"
    assert progress_line(4, 16, 4, 58, 41208, 0.0312, elapsed=36) == (
        "stratbench: progress: 4/16 matches done, 4 in flight; 58 model call(s), 41,208 tokens, 0.0312 USD; 0:36 "
        "elapsed, about 1:48 left")
    assert progress_line(1, 3, 1, 9, 900, None, elapsed=3700).endswith("900 tokens, unpriced; 1:01:40 elapsed, "
                                                                       "about 2:03:20 left")


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_slow_model_run_shows_progress_before_its_first_match_ends(pytester, monkeypatch, workers):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-progress")
    pytester.makepyfile(test_ttt=SUITE)
    with FakeLLMServer(delay_s=0.4) as server:
        args = ["-p", "no:cacheprovider", "--model", "openai/m", "--api-base", server.api_base, "-n", workers,
                "--stratbench-bootstrap", "20", "--progress", "0.25"]
        result = pytester.runpytest_subprocess(*args)
        quiet = pytester.runpytest_subprocess(*args, "-q", "--report-dir", "quiet") if workers == "0" else result
    assert result.ret == 0 and quiet.ret == 0, result.stdout.str()[-3000:]
    # before the first match, what the run will spend (the loopback model has no price)
    assert any(line.startswith("stratbench: estimate: 2 match(es) with openai/m: about ") and "unpriced" in line
               for line in result.stdout.lines), result.stdout.str()[-2000:]
    lines = [line for line in result.stdout.lines if line.startswith("stratbench: progress:")]
    found = [LINE.match(line) for line in lines]
    assert lines and all(found), lines
    assert found[0].group(1) == "0" and found[0].group(2) == "2"  # before any match had ended: 0 of the 2
    assert any(m.group(1) == "0" and int(m.group(3)) >= 1 for m in found)  # the matches in play, before any ended
    if workers == "0":  # one process: each match said as it ends, ahead of its item (16 in flight)
        done = [line for line in result.stdout.lines if line.startswith("stratbench: done: ")]
        assert len(done) == 2 and all(re.fullmatch(r"stratbench: done: openai/m\+direct-vs-minimax(-second)?-s[01]: "
                                                    r"(openai/m\+direct (won|lost|drew)|.*scored)( \(.*\))?", line)
                                      for line in done), done
    if workers == "0":  # one process: the calls of the matches still in play count
        assert any(m.group(1) == "0" and m.group(5) and int(m.group(5)) > 0 for m in found)
        assert all(m.group(6) in (None, "unpriced") for m in found)  # the loopback model has no price
    if workers == "0":
        assert not any("stratbench: progress:" in line for line in quiet.stdout.lines)  # -q: none


def test_an_xdist_controller_tells_matches_from_other_tests_by_the_suite_files():
    from pathlib import Path

    from stratbench.run.suite_files import match_ids

    root = Path(__file__).resolve().parents[2]
    ids = ["suites/spin/test_tictactoe.py::test_tictactoe[random-vs-minimax-s0]",
           "tests/plugin/test_progress.py::test_a_slow_model_run_shows_progress_before_its_first_match_ends[0]",
           "tests/plugin/test_plugin_e2e.py::test_bad_options_are_usage_errors[x]",  # a suite only in a string
           "suites/spin/test_tictactoe.py::test_tictactoe"]
    assert match_ids(ids, root) == ids[:1]
