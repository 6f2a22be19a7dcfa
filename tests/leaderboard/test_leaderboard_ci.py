"""The leaderboard workflow in docs/ci follows the gate workflow, uses only options that exist, and publishes
the site built over the runs it keeps."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path
from typing import Any

import yaml
from board_runs import three_runs
from stratbench.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "docs" / "ci" / "stratbench-leaderboard.yml"
GATE = ROOT / "docs" / "ci" / "stratbench-gate.yml"


def _workflow() -> dict[str, Any]:
    return yaml.safe_load(WORKFLOW.read_text())


def _steps() -> list[dict[str, Any]]:
    (job,) = _workflow()["jobs"].values()
    return job["steps"]


def _step(name_part: str) -> dict[str, Any]:
    return next(step for step in _steps() if name_part in step.get("name", ""))


def test_it_runs_after_the_gate_workflow_and_may_publish():
    workflow = _workflow()
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers["workflow_run"]["workflows"] == [yaml.safe_load(GATE.read_text())["name"]]
    (job,) = workflow["jobs"].values()
    assert "conclusion == 'success'" in job["if"]  # only runs whose gate passed are appended
    assert workflow["permissions"] == {"contents": "write", "pages": "write", "id-token": "write",
                                       "actions": "read"}
    assert [s.get("uses", "").split("@")[0] for s in _steps()[-2:]] == ["actions/upload-pages-artifact",
                                                                       "actions/deploy-pages"]
    assert _steps()[-2]["with"]["path"] == "public"


def test_it_downloads_the_artifact_the_gate_uploads():
    gate_upload = next(s for s in yaml.safe_load(GATE.read_text())["jobs"]["gate"]["steps"]
                       if s.get("uses", "").startswith("actions/upload-artifact"))
    download = _step("Download the gated run")
    assert download["with"]["name"] == gate_upload["with"]["name"] == "stratbench-reports"
    append = _step("Append the run")["run"]
    assert "results/runs/" in append and 'git push origin "HEAD:$RESULTS_BRANCH"' in append


def test_the_build_step_uses_leaderboard_options_that_exist(tmp_path):
    run = _step("Build the leaderboard")["run"]
    line = next(text for text in run.splitlines() if text.startswith("stratbench leaderboard"))
    words = shlex.split(line.replace("$UPGRADES", "--map a=b").replace('${BASELINE:+--baseline "$BASELINE"}',
                                                                         "--baseline random"))
    args = build_parser().parse_args(words[1:])
    assert args.command == "leaderboard" and args.runs == [Path("public/runs")] and args.out == Path("public")
    assert args.map == ["a=b"] and args.baseline == "random"


def test_the_published_layout_links_into_the_runs_it_holds(tmp_path):
    """The step's layout, played here: the runs under public/runs, the site at public/."""
    runs = three_runs(tmp_path / "results" / "runs")
    public = tmp_path / "public"
    shutil.copytree(tmp_path / "results" / "runs", public / "runs")
    assert main(["leaderboard", str(public / "runs"), "--out", str(public), "--baseline", "random",
                 "--resamples", "50"]) == 0
    index = (public / "index.html").read_text()
    assert [name for name in runs if f'<a href="runs/{name}/report.html">report.html</a>' in index] == list(runs)
