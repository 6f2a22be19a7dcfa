"""The options this family added: ``--max-concurrency`` reaches the LLM client; bad values get one line."""

from __future__ import annotations

import os

import pytest
from stratbench.registry import Registry
from stratbench.run.session import RunSettings, StratbenchSession
from stratbench.testing.warm_pytest import run_pytest


def test_max_concurrency_reaches_the_client(tmp_path):
    settings = RunSettings(models=["openai/m"], report_dir=tmp_path, cassette_dir=tmp_path, max_concurrency=16)
    session = StratbenchSession(settings, Registry(), is_controller=False)
    assert session.client.max_concurrency == 16
    assert StratbenchSession(RunSettings(report_dir=tmp_path, cassette_dir=tmp_path), Registry(),
                             is_controller=False).client.max_concurrency == 64


@pytest.mark.parametrize(("arguments", "message"), [
    (["--max-concurrency", "0"], "argument --max-concurrency: expected a whole number of at least 1, got '0'"),
    (["--sc2-maps", "nowhere"], "argument --sc2-maps: no such folder: 'nowhere'"),
])
def test_bad_values_are_refused_in_one_line(tmp_path, arguments, message):
    result = run_pytest([*arguments, "-p", "no:cacheprovider", "--collect-only",
                             "-q", str(tmp_path)], cwd=tmp_path, timeout=120,
                            env=dict(os.environ))
    assert result.returncode == 4
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
