"""CI's regression net: every committed reference recording replays offline, and replays identically.

Any change to a prompt, parser or rule that alters a recorded request makes
a match fail here, naming the cassette and the first request that differs.
Re-record on purpose with ``scripts/record-reference.sh``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest
from stratbench.llm.cassettes import safe_component
from stratbench.match.record import MatchRecord
from stratbench.reference import PROFILE_NAME, load_profile
from stratbench.report.memorisation import ALL_GAMES, ORIGINAL
from stratbench.run.results import without_volatile
from stratbench.testing.warm_pytest import run_pytest

REPO = Path(__file__).resolve().parents[2]
CASSETTES = REPO / "cassettes"


def _selection() -> tuple[str, list[str]]:
    profile = load_profile(CASSETTES / PROFILE_NAME)
    names = [model.split("/", 1)[-1] for model in profile.models]
    return " or ".join(names), [safe_component(name) for name in names]


def _run(tmp_path: Path, name: str, *args: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    report = tmp_path / name
    result = run_pytest(
        ["suites/", "-p", "no:cacheprovider", "-q", "--record-mode=none",
         "--stratbench-reference=replay", "--stratbench-bootstrap", "200", "--report-dir", str(report), *args],
        cwd=REPO, timeout=1500,
    )
    return result, report


def _records(report: Path) -> list[dict]:
    return [json.loads(line) for line in (report / "results.jsonl").read_text().splitlines()]


def test_the_profile_is_committed():
    assert (CASSETTES / PROFILE_NAME).is_file(), "cassettes/reference.json is the main job's reference run"


@pytest.mark.runs_first
@pytest.mark.slow
def test_every_reference_recording_replays_offline(tmp_path):
    selection, safe_names = _selection()
    result, report = _run(tmp_path, "replay", "-k", selection)  # one process: the tests' own run is the one under -n
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    records = _records(report)
    schema = jsonschema.Draft202012Validator(json.loads((REPO / "docs" / "match-record.schema.json").read_text()))
    misfits = [f"{r.get('match_id')}: {'/'.join(map(str, e.absolute_path))}: {e.message}"
               for r in records for e in schema.iter_errors(r)]
    assert misfits == [], misfits[:5]  # every record of the offline main job fits docs/match-record.schema.json
    assert all(MatchRecord.from_json(r).to_json() == r for r in records)
    used = {r["cassette"]["path"] for r in records if r["cassette"]}
    assert all(r["cassette"]["record_mode"] == "none" for r in records if r["cassette"])
    committed = {
        str(path.relative_to(REPO))
        for path in CASSETTES.rglob("*.yaml")
        if any(name in path.name for name in safe_names)
    }
    assert committed, "no reference cassettes are committed"
    assert used == committed, (
        f"never replayed (stale): {sorted(committed - used)[:5]}; replayed but not committed: {sorted(used - committed)[:5]}"
    )
    # the recorded memorisation probes (the profile's 'probes'): the gap section has the instruct model's rows
    profile = load_profile(CASSETTES / PROFILE_NAME)
    probes = [r for r in records if (r.get("game_options") or {}).get("obfuscation_tag")]
    assert probes and {r["game"] for r in probes} == set(profile.probe_games)
    report_data = json.loads((report / "results.json").read_text())
    (section,) = [s for s in report_data["sections"] if s["name"] == "memorisation"]
    pooled = {row[0]: row for row in section["rows"] if row[1] == ALL_GAMES and row[2] != ORIGINAL}
    direct = pooled["local/qwen2.5-coder-0.5b+direct"]
    assert direct[8] == 5 and -1.0 <= direct[9] <= 1.0  # TTT, Connect Four and three PDDL tasks, paired
    assert sum(row[4] for row in section["rows"] if row[1] != ALL_GAMES and row[2] != ORIGINAL) == len(probes)


@pytest.mark.slow
def test_replaying_twice_gives_the_same_results_json(tmp_path):
    selection, _ = _selection()
    first, one = _run(tmp_path, "one", "-k", f"tictactoe and ({selection} or random)")
    second, two = _run(tmp_path, "two", "-k", f"tictactoe and ({selection} or random)")
    assert first.returncode == 0 and second.returncode == 0, first.stdout[-3000:] + second.stdout[-3000:]
    a = json.loads((one / "results.json").read_text())
    b = json.loads((two / "results.json").read_text())
    assert a["matches"] and without_volatile(a) == without_volatile(b)
