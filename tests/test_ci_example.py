"""The CI gate recipe in docs/ci uses only options that exist, and does what its README says."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import yaml
from stratbench.cli import build_parser
from stratbench.options import add_options

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / "docs" / "ci" / "stratbench-gate.yml"


class _OptionNames:
    """Collects the option names stratbench adds to pytest's parser."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def getgroup(self, *args: Any) -> _OptionNames:
        return self

    def addoption(self, *names: str, **kwargs: Any) -> None:
        self.names.update(names)

    def addini(self, *args: Any, **kwargs: Any) -> None:
        pass


def _steps() -> list[dict[str, Any]]:
    workflow = yaml.safe_load(WORKFLOW.read_text())
    (job,) = workflow["jobs"].values()
    return job["steps"]


def _run_text(name_part: str) -> str:
    return next(step["run"] for step in _steps() if name_part in step.get("name", ""))


def _command(text: str, program: list[str]) -> list[str]:
    words = shlex.split(text.replace("\\\n", " "), comments=False)
    start = next(i for i in range(len(words)) if words[i:i + len(program)] == program)
    end = next((i for i in range(start, len(words)) if words[i] in ("||", "&&", ";") or "\n" in words[i]),
               len(words))
    return words[start:end]


def _flags(words: list[str]) -> set[str]:
    return {word.split("=", 1)[0] for word in words if word.startswith("--")}


def test_the_workflow_runs_on_pull_requests_and_may_comment():
    workflow = yaml.safe_load(WORKFLOW.read_text())
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert "pull_request" in triggers
    assert workflow["permissions"]["pull-requests"] == "write"


def test_the_workflow_installs_stockfish_and_stratbench_like_the_readme():
    install = _run_text("Install")
    assert "apt-get install -y stockfish" in install and "pip install -e '.[all]'" in install


def test_the_pytest_step_gates_with_options_that_exist():
    recorder = _OptionNames()
    add_options(recorder)
    run = _run_text("gate against the baseline")
    words = _command(run, ["pytest"])
    assert {"--baseline", "--stratbench-gate-map", "--model", "--report-dir"} <= _flags(words)
    assert _flags(words) <= recorder.names
    assert "-n" in words  # pytest-xdist, a core dependency
    assert 'echo "status=$?" >> "$GITHUB_OUTPUT"' in run


def test_the_explanation_step_uses_stratbench_gate_with_its_map_option():
    text = _run_text("Explain")
    words = _command(text, ["stratbench", "gate"])
    args = build_parser().parse_args(words[1:])  # exits (SystemExit) on an unknown option
    assert args.command == "gate" and str(args.current) == "reports/ci" and str(args.baseline) == "$BASELINE"
    assert args.map == ["$MODEL+direct=$BASELINE_AGENT"]
    assert '>> "$GITHUB_STEP_SUMMARY"' in text and "cat reports/ci/report.md" in text


def test_the_comment_and_the_final_status():
    comment = _run_text("Comment")
    assert re.search(r'gh pr comment "\$\{\{ github\.event\.pull_request\.number }}" '
                     r"--body-file reports/ci/comment-short\.md", comment)
    assert _steps()[-1]["run"] == 'exit "${{ steps.run.outputs.status }}"'


def test_the_readme_and_the_workflow_map_the_same_labels():
    workflow = yaml.safe_load(WORKFLOW.read_text())
    (job,) = workflow["jobs"].values()
    assert job["env"]["BASELINE_AGENT"].endswith("+direct")
    assert '--stratbench-gate-map "$MODEL+direct=$BASELINE_AGENT"' in _run_text("gate against the baseline")
    readme = (ROOT / "README.md").read_text()
    assert "## Gate a model upgrade in CI" in readme and "docs/ci/" in readme


SHARDS_WORKFLOW = ROOT / "docs" / "ci" / "stratbench-shards.yml"


def _shard_steps(job: str) -> list[dict[str, Any]]:
    return yaml.safe_load(SHARDS_WORKFLOW.read_text())["jobs"][job]["steps"]


def test_the_shard_matrix_covers_every_shard_once_with_options_that_exist():
    workflow = yaml.safe_load(SHARDS_WORKFLOW.read_text())
    shards = workflow["jobs"]["play"]["strategy"]["matrix"]["shard"]
    assert shards == list(range(1, int(workflow["env"]["SHARDS"]) + 1))
    assert workflow["jobs"]["play"]["strategy"]["fail-fast"] is False
    run = next(step["run"] for step in _shard_steps("play") if step.get("name") == "Play this shard")
    words = _command(run, ["pytest"])
    recorder = _OptionNames()
    add_options(recorder)
    assert {"--stratbench-shard", "--model", "--report-dir"} <= _flags(words) <= recorder.names
    assert words[words.index("--stratbench-shard") + 1] == "${{ matrix.shard }}/$SHARDS"


def test_the_merge_job_merges_every_shard_after_they_ran():
    workflow = yaml.safe_load(SHARDS_WORKFLOW.read_text())
    merge = workflow["jobs"]["merge"]
    assert merge["needs"] == "play" and merge["if"] == "always()"
    run = next(step["run"] for step in _shard_steps("merge") if step.get("name", "").startswith("Merge"))
    args = build_parser().parse_args(_command(run, ["stratbench", "merge"])[1:])
    assert args.command == "merge" and args.report and str(args.out) == "reports/merged"
    upload = next(step for step in _shard_steps("play") if step.get("uses", "").startswith("actions/upload"))
    download = next(step for step in _shard_steps("merge") if step.get("uses", "").startswith("actions/download"))
    assert download["with"]["pattern"] == upload["with"]["name"].replace("${{ matrix.shard }}", "*")
    assert [str(p) for p in args.dirs] == ["shards/stratbench-shard-*/reports/shard-*"]


def test_the_ci_readme_states_the_gates_exit_statuses_as_the_code_uses_them():
    from stratbench.report.gate import CLI_EXIT, PYTEST_EXIT

    text = (ROOT / "docs" / "ci" / "README.md").read_text()
    rows = dict(re.findall(r"^\| (pass|fail|inconclusive|nothing compared) \| (\d+) \|", text, re.M))
    assert rows == {"pass": "0", "fail": "1", "inconclusive": "6", "nothing compared": "4"}
    for answer, status in rows.items():
        assert CLI_EXIT[answer] == PYTEST_EXIT[answer] == int(status)
    assert "pass (exit 0)" in WORKFLOW.read_text() and "inconclusive (6" in WORKFLOW.read_text()
