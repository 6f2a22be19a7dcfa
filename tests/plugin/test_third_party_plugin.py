"""A third-party package adds an agent through a pytest11 entry point, and it plays a match.

The package is built as a real wheel and installed with pip into a target
directory; pytest then discovers it through its entry point like any
installed plugin.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

PLUGIN_MODULE = '''
"""firstlegal: an agent that always plays the first legal action."""
import pytest
from stratbench.core.types import Action


class FirstLegal:
    def __init__(self, context):
        self.player = context.player

    async def act(self, observation):
        return Action(observation.legal_actions[0])


@pytest.hookimpl
def pytest_stratbench_add_agents(registry):
    registry.add_agent("firstlegal/first", FirstLegal)
'''


def build_wheel(directory: Path) -> Path:
    """Writes a minimal, valid wheel for the ``firstlegal`` package."""
    wheel = directory / "firstlegal-1.0-py3-none-any.whl"
    dist = "firstlegal-1.0.dist-info"
    files = {
        "firstlegal.py": PLUGIN_MODULE,
        f"{dist}/METADATA": "Metadata-Version: 2.1\nName: firstlegal\nVersion: 1.0\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{dist}/entry_points.txt": "[pytest11]\nfirstlegal = firstlegal\n",
    }
    record_lines = [f"{name},," for name in files] + [f"{dist}/RECORD,,"]
    files[f"{dist}/RECORD"] = "\n".join(record_lines) + "\n"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return wheel


@pytest.mark.slow
def test_an_installed_package_adds_an_agent_that_plays(pytester, tmp_path, monkeypatch):
    target = tmp_path / "site"
    wheel = build_wheel(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
        check=True,
    )
    assert (target / "firstlegal-1.0.dist-info" / "entry_points.txt").is_file()
    pytester.makepyfile(test_ttt="""
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=2)
def test_tictactoe(match):
    match.play()
""")
    monkeypatch.setenv("PYTHONPATH", str(target))
    result = pytester.runpytest_subprocess("-v", "-p", "no:cacheprovider", "--stratbench-agent", "firstlegal/first")
    result.stdout.fnmatch_lines(["*firstlegal-1.0*", "*test_tictactoe?firstlegal/first-vs-minimax-s0? LOST 0.00*"])
    records = [json.loads(line) for line in (pytester.path / "reports/latest/results.jsonl").read_text().splitlines()]
    subject_moves = [r["sides"][r["subject"]]["agent"] for r in records]
    assert subject_moves == ["firstlegal/first", "firstlegal/first"]
    first = records[0]
    assert first["sides"][first["subject"]]["players"] == [0]
    transcript = json.loads((pytester.path / "reports/latest" / first["transcript"]).read_text())
    actions = [e["action"] for e in transcript["events"] if e["kind"] == "action" and e["player"] == 0]
    assert actions[0] == "0"  # the first legal cell on an empty board
