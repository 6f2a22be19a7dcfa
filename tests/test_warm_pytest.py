"""The tests' pytest child runs, forked from a warm starter, behave as a fresh ``python -m pytest`` does."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from stratbench.testing.warm_pytest import WarmStarter, run_pytest

PACKAGE = Path(__file__).resolve().parents[1] / "plugin" / "stratbench"

PROBE = """
import os, sys

def test_where(tmp_path):
    with open(os.environ["PROBE_OUT"], "w") as out:
        out.write(os.getcwd() + "\\n" + os.environ.get("PROBE_VALUE", "-") + "\\n" + sys.path[0] + "\\n")
    print("stdout of the run")
    sys.stderr.write("stderr of the run\\n")

def test_fails():
    assert 1 == 2
"""


@pytest.fixture(scope="module")
def starter():
    warm = WarmStarter(env=dict(os.environ))
    yield warm
    warm.close()


@pytest.mark.slow
def test_a_forked_run_has_its_own_folder_environment_streams_and_status(starter, tmp_path):
    (tmp_path / "test_probe.py").write_text(PROBE)
    env = {**os.environ, "PROBE_OUT": str(tmp_path / "where.txt"), "PROBE_VALUE": "ünïcode ✓"}
    warm = starter.run(["-p", "no:cacheprovider", "-q", "-s"], cwd=tmp_path, env=env, timeout=120)
    cold = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-s"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert warm.returncode == cold.returncode == 1  # one test fails in both
    assert (tmp_path / "where.txt").read_text().splitlines() == [str(tmp_path), "ünïcode ✓", str(tmp_path)]
    for result in (warm, cold):
        assert "stdout of the run" in result.stdout and "1 failed, 1 passed" in result.stdout
        assert "assert 1 == 2" in result.stdout
    assert "stderr of the run" in warm.stdout + warm.stderr
    assert "already imported" not in warm.stdout + warm.stderr  # no assertion-rewriting warning for the starter's


def test_exit_statuses_pass_through(starter, tmp_path):
    (tmp_path / "test_ok.py").write_text("def test_ok():\n    pass\n")
    assert starter.run(["-p", "no:cacheprovider", "-q"], cwd=tmp_path, timeout=120).returncode == 0
    assert starter.run(["-p", "no:cacheprovider", "-q", "-k", "nothing"], cwd=tmp_path,
                       timeout=120).returncode == pytest.ExitCode.NO_TESTS_COLLECTED
    assert starter.run(["--no-such-option"], cwd=tmp_path, timeout=120).returncode == pytest.ExitCode.USAGE_ERROR


@pytest.mark.slow
def test_a_run_past_its_timeout_is_killed_and_the_starter_serves_the_next(starter, tmp_path):
    (tmp_path / "test_slow.py").write_text("import time\n\ndef test_slow():\n    time.sleep(60)\n")
    with pytest.raises(subprocess.TimeoutExpired):
        starter.run(["-p", "no:cacheprovider", "-q", "test_slow.py"], cwd=tmp_path, timeout=2)
    (tmp_path / "test_ok.py").write_text("def test_ok():\n    pass\n")
    assert starter.run(["-p", "no:cacheprovider", "-q", "test_ok.py"], cwd=tmp_path, timeout=120).returncode == 0


@pytest.mark.slow
def test_run_pytest_starts_a_fresh_interpreter_when_asked(tmp_path, monkeypatch):
    (tmp_path / "test_ok.py").write_text("import sys\n\ndef test_ok():\n    assert 'litellm' not in sys.modules\n")
    assert run_pytest(["-p", "no:cacheprovider", "-q"], cwd=tmp_path, timeout=120, cold=True).returncode == 0
    monkeypatch.setenv("STRATBENCH_COLD_PYTEST", "1")
    assert run_pytest(["-p", "no:cacheprovider", "-q"], cwd=tmp_path, timeout=120).returncode == 0


def _module_level_environment_reads(path: Path, root: Path = PACKAGE) -> list[str]:
    """``module:line`` of each read of the environment outside any function or class body's methods."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return
        text = ast.unparse(node) if isinstance(node, (ast.Call, ast.Subscript)) else ""
        if text.startswith(("os.environ.get(", "os.getenv(", "os.environ[")):
            found.append(f"{path.relative_to(root)}:{node.lineno}")
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def test_no_module_reads_the_environment_at_import():
    # A setting read at import is frozen in the warm starter (and in any process that imported the module first):
    # every environment variable the plugin honours is read when it is used.
    found = [hit for path in sorted(PACKAGE.rglob("*.py")) for hit in _module_level_environment_reads(path)]
    assert found == []


def test_the_environment_scan_sees_a_module_level_read(tmp_path):
    package = tmp_path / "pkg.py"
    package.write_text("import os\nDEPTH = int(os.environ.get('X', '3'))\n\ndef f():\n    return os.getenv('Y')\n")
    assert _module_level_environment_reads(package, tmp_path) == ["pkg.py:2"]
