"""The README's two commands and CI stay in step."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bash_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", text, re.DOTALL)]


def test_readme_starts_with_the_main_job_then_the_test_command():
    blocks = _bash_blocks((ROOT / "README.md").read_text())
    main_job, tests = blocks[0], blocks[1]
    assert main_job.startswith("sh scripts/install-system-packages.sh && python3 -m venv .venv")
    assert main_job.endswith("pip install -e '.[all]' && pytest suites/")
    assert tests.startswith("python3 -m venv .venv") and "pip install -e '.[test]'" in tests
    assert tests.endswith("pytest tests/ -n 2")


def test_ci_runs_the_readme_test_command_verbatim():
    tests = _bash_blocks((ROOT / "README.md").read_text())[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert f'TEST_COMMAND="{tests}"' in ci
    assert '"$status" -eq 5' in ci  # collecting nothing is a failure


def test_ci_installs_the_system_packages_the_main_job_installs():
    main_job = _bash_blocks((ROOT / "README.md").read_text())[0]
    assert main_job.startswith("sh scripts/install-system-packages.sh && ")
    ci = (ROOT / ".ci" / "run").read_text()
    assert "sh scripts/install-system-packages.sh" in ci  # the same script, so CI cannot miss a package
    script = (ROOT / "scripts" / "install-system-packages.sh").read_text()
    assert 'PACKAGES="stockfish"' in script and "apt-get install -y -qq $PACKAGES" in script


def test_the_readme_parallel_command_needs_only_core_dependencies():
    readme = (ROOT / "README.md").read_text()
    assert "pytest suites/ --model gpt-4o -n 2 --stratbench-concurrency 32" in readme
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = [re.split(r"[<>=!; ]", dep, maxsplit=1)[0] for dep in project["dependencies"]]
    assert "pytest-xdist" in core  # -n comes from pytest-xdist; '.[all]' must not need the test extra
