"""The README's two commands and CI stay in step."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bash_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", text, re.DOTALL)]


def test_readme_starts_with_the_main_job_then_the_test_command():
    blocks = _bash_blocks((ROOT / "README.md").read_text())
    main_job, tests = blocks[0], blocks[1]
    assert main_job.startswith("python3 -m venv .venv") and main_job.endswith("pytest suites/")
    assert tests.startswith("python3 -m venv .venv") and "pip install -e '.[test]'" in tests
    assert tests.endswith("pytest tests/ -n 2")


def test_ci_runs_the_readme_test_command_verbatim():
    tests = _bash_blocks((ROOT / "README.md").read_text())[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert f'TEST_COMMAND="{tests}"' in ci
    assert '"$status" -eq 5' in ci  # collecting nothing is a failure
