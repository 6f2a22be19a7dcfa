"""Unusable report or cassette directories are refused before any match is played."""

from __future__ import annotations

import pytest

from stratbench.run.startup import directory_problem

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=1)
def test_tictactoe(match):
    match.play()
"""


@pytest.fixture
def suite(pytester):
    pytester.makepyfile(test_ttt=SUITE)
    (pytester.path / "a-file").write_text("not a directory")
    return pytester


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--report-dir", "a-file", "stratbench: --report-dir {root}/a-file: is a file, not a directory"),
        ("--report-dir", "a-file/reports",
         "stratbench: --report-dir {root}/a-file/reports: lies under {root}/a-file, which is a file, not a directory"),
        ("--report-dir", "/sys/stratbench-reports",
         "stratbench: --report-dir /sys/stratbench-reports: cannot write there (Operation not permitted)"),
        ("--stratbench-cassette-dir", "a-file",
         "stratbench: --stratbench-cassette-dir {root}/a-file: is a file, not a directory"),
    ],
)
def test_an_unusable_directory_is_one_line_exit_4_and_nothing_played(suite, option, value, message):
    if value.startswith("/sys") and directory_problem("x", __import__("pathlib").Path(value), write=True) is None:
        pytest.skip("this machine lets the test write under /sys")
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", option, value)
    assert result.ret == 4
    expected = message.format(root=suite.path)
    assert expected in result.stderr.str()
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
    assert "INTERNALERROR" not in result.stdout.str()
    assert not (suite.path / "reports").exists()  # nothing played, nothing written


def test_a_cassette_directory_that_is_a_file_is_refused_when_recording(suite, fake_llm):
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "--model", "openai/m",
                                        "--api-base", fake_llm.api_base, "--stratbench-cassette-dir", "a-file")
    assert result.ret == 4
    assert f"--stratbench-cassette-dir {suite.path}/a-file: is a file" in result.stderr.str()
    assert fake_llm.requests == []


def test_a_missing_directory_is_fine_and_created_only_when_written(tmp_path):
    assert directory_problem("--report-dir", tmp_path / "new" / "reports", write=True) is None
    assert (tmp_path / "new" / "reports").is_dir()
    assert list((tmp_path / "new" / "reports").iterdir()) == []  # the write check leaves nothing behind
    assert directory_problem("--stratbench-cassette-dir", tmp_path / "absent", write=False) is None
    assert not (tmp_path / "absent").exists()
