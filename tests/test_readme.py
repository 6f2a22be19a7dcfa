"""The README: its two commands stay in step with CI, its first screen says how to start, its links resolve."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bash_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", text, re.DOTALL)]


def test_readme_starts_with_the_main_job_then_the_test_command():
    blocks = _bash_blocks((ROOT / "README.md").read_text())
    main_job, tests = blocks[0], blocks[1]
    assert main_job.startswith("sh scripts/install-system-packages.sh && python3 -m venv .venv")
    assert main_job.endswith("pip install -e '.[all]' && pytest suites/")
    assert tests.startswith("python3 -m venv .venv") and "pip install --no-compile -e '.[test]'" in tests
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


FIRST_SCREEN = 40  # lines GitHub shows before a reader scrolls


def _first_screen() -> str:
    return "\n".join((ROOT / "README.md").read_text().splitlines()[:FIRST_SCREEN])


def test_the_first_screen_holds_both_commands_your_model_and_the_gate():
    from stratbench.report.gate import PYTEST_EXIT

    screen = _first_screen()
    main_job, tests = _bash_blocks((ROOT / "README.md").read_text())[:2]
    assert main_job in screen and tests in screen
    lines = screen.splitlines()
    assert any(re.fullmatch(r"export [A-Z]+_API_KEY=\.\.\.", line) for line in lines)
    model_lines = [line for line in lines if line.startswith("pytest suites/") and "--model " in line]
    assert any("-n 2" in line and "--record-mode" not in line for line in model_lines)
    assert any("--record-mode=none" in line for line in model_lines)
    gate = [i for i, line in enumerate(lines) if "--baseline " in line]
    assert gate and lines[gate[0]].startswith("pytest suites/")
    assert "--stratbench-gate-map " in " ".join(lines[gate[0]:gate[0] + 2])
    stated = {word: int(code) for code, word in
              re.findall(r"(\d) \((pass|fail|inconclusive|nothing compared)\)", " ".join(lines))}
    assert stated == {key: PYTEST_EXIT[key] for key in ("pass", "fail", "inconclusive", "nothing compared")}


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.DOTALL)
    return {_slug(heading) for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


def _links(path: Path) -> list[tuple[str, str]]:
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.DOTALL)
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    return [tuple(target.partition("#")[::2]) for target in targets if "://" not in target]


# The pages this layout of the docs writes: links into them must name a heading they have.
ANCHORS_CHECKED = ("README.md", "docs/BENCHMARKS.md", "docs/REFERENCE.md", "docs/OPTIONS.md", "docs/ARCHITECTURE.md")


@pytest.mark.parametrize("page", ["README.md", "docs/REFERENCE.md", "docs/OPTIONS.md", "docs/BENCHMARKS.md",
                                  "docs/BENCHMARKS-HISTORY.md"])
def test_every_relative_link_resolves(page):
    source = ROOT / page
    broken = []
    for target, anchor in _links(source):
        path = (source.parent / target).resolve() if target else source
        if not path.is_file():
            broken.append(f"{target}: no such file")
        elif anchor and str(path.relative_to(ROOT)) in ANCHORS_CHECKED and anchor not in _anchors(path):
            broken.append(f"{target}#{anchor}: no such heading")
    assert not broken, f"{page}: {broken}"


def test_every_docs_page_the_readme_names_exists():
    named = set(re.findall(r"docs/[\w./-]+\.md", (ROOT / "README.md").read_text()))
    assert {"docs/OPTIONS.md", "docs/REFERENCE.md", "docs/BENCHMARKS.md", "docs/ARCHITECTURE.md"} <= named
    assert [name for name in sorted(named) if not (ROOT / name).is_file()] == []
