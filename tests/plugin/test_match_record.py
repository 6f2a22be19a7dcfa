"""The match record: one typed, versioned MatchRecord, its committed JSON Schema, and reading records back."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from stratbench.match.record import (
    RECORD_VERSION,
    MatchRecord,
    RecordError,
    unstarted_record,
)
from stratbench.match.record_schema import record_schema, schema_text
from stratbench.run.results import carried_records
from stratbench.testing.warm_pytest import run_pytest

REPO = Path(__file__).resolve().parents[2]
SCHEMA_FILE = REPO / "docs" / "match-record.schema.json"

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=1)
def test_played(match):
    match.play()

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=1)
def test_skipped(match):
    pytest.skip("no engine here")

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=1)
def test_broken(match):
    raise RuntimeError("a bug in the suite")
"""


def schema_errors(record: dict) -> list[str]:
    """Returns every way a record breaks the committed schema (empty when it is valid)."""
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in validator.iter_errors(record)]


@pytest.fixture(scope="module")
def played_records(tmp_path_factory) -> list[dict]:
    """The records of a small real run: a model (a loopback fake) and a baseline against minimax at tic-tac-toe,
    one skipped and one errored match."""

    from stratbench.testing.fake_llm import FakeLLMServer

    root = tmp_path_factory.mktemp("run")
    (root / "test_suite.py").write_text(SUITE)
    with FakeLLMServer() as server:
        result = run_pytest(
            ["test_suite.py", "-p", "no:cacheprovider", "-q", "--model",
             "openai/fake", "--api-base", server.api_base, "--stratbench-bootstrap", "10", "--report-dir", "out"],
            cwd=root, timeout=600)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]  # the broken test fails
    return [json.loads(line) for line in (root / "out" / "results.jsonl").read_text().splitlines()]


def test_the_committed_schema_is_the_generated_one():
    assert SCHEMA_FILE.read_text() == schema_text(), (
        "docs/match-record.schema.json is stale: python -m stratbench.match.record_schema > "
        "docs/match-record.schema.json")
    jsonschema.Draft202012Validator.check_schema(record_schema())


@pytest.mark.slow
def test_every_record_of_a_run_fits_the_schema_and_reads_back_unchanged(played_records):
    by_status = {s: [r for r in played_records if r["status"] == s] for s in ("scored", "skipped", "errored")}
    assert [len(by_status[s]) for s in ("scored", "skipped", "errored")] == [2, 1, 1]
    modelled = [r for r in by_status["scored"] if any(side["model"] for side in r["sides"])]
    assert len(modelled) == 1 and all(r["cassette"] and r["decision_cost"] and r["transcript"] for r in modelled)
    for record in played_records:
        assert record["version"] == RECORD_VERSION == 1
        assert schema_errors(record) == [], record["match_id"]
        assert MatchRecord.from_json(record).to_json() == record


def test_the_schema_refuses_what_the_record_type_refuses(played_records):
    scored = next(r for r in played_records if r["status"] == "scored")
    skipped = next(r for r in played_records if r["status"] == "skipped")
    assert schema_errors({k: v for k, v in scored.items() if k != "scores"}) == [": 'scores' is a required property"]
    assert schema_errors({**scored, "reason": "x"}) == [": False schema does not allow 'x'"]
    assert schema_errors({**skipped, "turns": 3}) == [": False schema does not allow 3"]
    assert schema_errors({**scored, "version": 2}) == ["version: 2 is greater than the maximum of 1"]
    assert schema_errors({**scored, "tokens": "many"}) == ["tokens: 'many' is not of type 'integer'"]


def test_a_record_newer_than_this_code_is_refused_naming_the_field(played_records):
    with pytest.raises(RecordError) as refused:
        MatchRecord.from_json({**played_records[0], "version": RECORD_VERSION + 1})
    assert str(refused.value) == ("field 'version': 2 is newer than this stratbench reads (1); "
                                  "upgrade stratbench to read it")


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: {k: v for k, v in r.items() if k != "scores"}, "missing field 'scores'"),
    (lambda r: {**r, "sides": [{k: v for k, v in r["sides"][0].items() if k != "agent"}, r["sides"][1]]},
     "missing field 'sides[0].agent'"),
    (lambda r: {**r, "turns": None}, "field 'turns': expected an integer, got null"),
    (lambda r: {**r, "usage": [{**r["usage"][0], "calls": "2"}, r["usage"][1]]},
     "field 'usage[0].calls': expected an integer, got a string"),
    (lambda r: {**r, "status": "won"}, "field 'status': 'won' is not one of 'scored', 'skipped', 'errored'"),
    (lambda r: {**r, "colour": "red"}, "unknown field 'colour' (this stratbench reads record version 1)"),
    (lambda r: {**r, "reason": "why"}, "field 'reason' is not stored for a scored match"),
])
def test_a_record_missing_a_field_or_of_the_wrong_shape_is_refused_in_one_line(played_records, change, message):
    scored = next(r for r in played_records if r["status"] == "scored")
    with pytest.raises(RecordError) as refused:
        MatchRecord.from_json(change(scored))
    assert str(refused.value) == message


def test_a_record_written_before_versioning_reads_as_version_1(played_records):
    for record in played_records:
        older = {k: v for k, v in record.items() if k != "version"}
        read = MatchRecord.from_json(older)
        assert read.version == 1
        assert read.to_json() == record  # stored again, it gains the field and nothing else


def test_resume_carries_records_as_typed_and_skips_a_newer_one(tmp_path, played_records):
    scored = [r for r in played_records if r["status"] == "scored"]
    newer = {**scored[1], "version": 2}
    older = {k: v for k, v in scored[0].items() if k != "version"}
    third = {**scored[0], "match_id": scored[0]["match_id"] + "-again"}
    lines = [older, newer, third]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    unreadable: list[str] = []
    carried = carried_records(tmp_path, "run-2", unreadable)
    assert [r["match_id"] for r in carried] == [scored[0]["match_id"], third["match_id"]]
    assert carried[0] == {**scored[0], "run_id": "run-2", "played_run_id": scored[0]["run_id"]}
    assert unreadable == [f"{tmp_path / 'results.jsonl'}: {scored[1]['match_id']}: field 'version': 2 is "
                          f"newer than this stratbench reads (1); upgrade stratbench to read it"]
    with pytest.raises(ValueError, match="version"):
        carried_records(tmp_path, "run-2")


def test_a_match_whose_worker_died_before_it_began_is_a_valid_errored_record():
    record = unstarted_record("t.py::test_x[a-vs-b-s0]", "a-vs-b-s0", "run-1", "the xdist worker crashed").to_json()
    assert schema_errors(record) == []
    assert (record["status"], record["result"], record["fault"], record["game"], record["sides"]) == (
        "errored", "errored", "harness", None, [])
    assert MatchRecord.from_json(record).to_json() == record


@pytest.mark.slow
@pytest.mark.parametrize("command", ["report", "rate"])
def test_report_and_rate_refuse_a_results_file_from_a_newer_stratbench(tmp_path, played_records, command):
    import subprocess
    import sys

    scored = [r for r in played_records if r["status"] == "scored"]
    older = {k: v for k, v in scored[0].items() if k != "version"}
    results = tmp_path / "results.jsonl"
    results.write_text(json.dumps(older) + "\n" + json.dumps({**scored[1], "version": 2}) + "\n")
    ran = subprocess.run([sys.executable, "-m", "stratbench.cli", command, str(results)],
                         capture_output=True, text=True, timeout=300)
    where = f"{results}: record 2" if command == "report" else f"{results}: line 2"
    assert (ran.returncode, ran.stderr, ran.stdout) == (
        2, f"stratbench {command}: {where}: field 'version': 2 is newer than this stratbench reads (1); "
           f"upgrade stratbench to read it\n", "")
    results.write_text(json.dumps(older) + "\n")  # written before versioning: read as it always was
    ran = subprocess.run([sys.executable, "-m", "stratbench.cli", command, str(results)],
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
