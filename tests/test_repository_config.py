"""The repository's own pytest configuration: runs with and without xdist."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ONE_TEST = "tests/test_readme.py::test_readme_starts_with_the_main_job_then_the_test_command"


def run_pytest(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    return subprocess.run([sys.executable, "-m", "pytest", ONE_TEST, "-p", "no:cacheprovider", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("extra", [[], ["-o", "addopts="]], ids=["ini-addopts", "no-addopts"])
def test_a_run_without_xdist_is_no_usage_error(extra):
    result = run_pytest("-p", "no:xdist", *extra)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "INTERNALERROR" not in result.stdout + result.stderr
    assert "1 passed" in result.stdout


@pytest.mark.slow
def test_under_n_the_workers_steal_work_unless_told_otherwise():
    pytest.importorskip("xdist")
    stealing = run_pytest("-n", "2", "-v")
    assert stealing.returncode == 0, stealing.stdout[-2000:]
    assert "WorkStealingScheduling" in stealing.stdout
    chosen = run_pytest("-n", "2", "-v", "--dist", "loadfile")
    assert chosen.returncode == 0, chosen.stdout[-2000:]
    assert "LoadFileScheduling" in chosen.stdout and "WorkStealing" not in chosen.stdout


@pytest.mark.slow
def test_a_run_of_the_tests_ends_with_its_20_slowest_unless_told_otherwise():
    default = run_pytest("-p", "no:xdist")
    assert default.returncode == 0, default.stdout[-2000:]
    assert "slowest 20 durations" in default.stdout
    chosen = run_pytest("-p", "no:xdist", "--durations", "3")
    assert "slowest 3 durations" in chosen.stdout and "slowest 20" not in chosen.stdout
