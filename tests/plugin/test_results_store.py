"""The results store, worker journals and their folding, fault classification and unscored records in reports."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
from stratbench.core.agent import AgentSpec
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.match.play import MatchTimeout, fault_of, within
from stratbench.match.record import unscored_record
from stratbench.report.analysis import analyse, malformed
from stratbench.report.render import render_markdown
from stratbench.testing.written import readable_text
from stratbench.run.results import (
    ResultStore,
    WorkerJournal,
    fold_worker_journals,
    read_records,
    resumable_records,
    summarize_by_agent,
    unscored_by_agent,
)


def _spec(seed: int = 0) -> MatchSpec:
    return MatchSpec(game="tictactoe", sides=(AgentSpec(kind="random"), AgentSpec(kind="minimax")), seed=seed,
                     subject=0, id=f"random-vs-minimax-s{seed}")


def _scored(match_id: str, run_id: str, scores=(0.0, 1.0)) -> dict:
    return {"type": "match", "status": "scored", "match_id": match_id, "run_id": run_id, "game": "tictactoe",
            "settings_hash": "abc", "sides": [{"agent": "random"}, {"agent": "minimax"}], "scores": list(scores),
            "subject": 0, "result": "lost"}


def _unscored(match_id: str, status: str, fault: str | None, run_id: str = "r1") -> dict:
    return unscored_record(_spec(), SuiteSpec("tictactoe"), match_id, status=status, reason=f"why {match_id}",
                           fault=fault, run_id=run_id, settings_hash="abc", versions={}).to_json()


def test_an_unscored_record_carries_the_ids_and_no_scores():
    record = _unscored("t.py::x[a]", "errored", "provider")
    assert (record["status"], record["fault"], record["scores"], record["result"]) == (
        "errored", "provider", None, "errored")
    assert [s["agent"] for s in record["sides"]] == ["random", "minimax"] and record["seed"] == 0
    assert _unscored("t.py::x[b]", "skipped", "harness")["fault"] is None  # a skip has no fault
    with pytest.raises(ValueError, match="skipped or errored, not 'scored'"):
        unscored_record(_spec(), SuiteSpec("tictactoe"), "x", status="scored", reason="", run_id="r",
                        settings_hash=None, versions={})


def test_transcripts_of_each_run_stay_with_its_results_file(tmp_path):
    first = ResultStore(tmp_path, "run-1")
    first.append(_scored("t.py::m", "run-1"), [{"kind": "action", "action": "first"}])
    second = ResultStore(tmp_path, "run-2")
    second.append(_scored("t.py::m", "run-2"), [{"kind": "action", "action": "second"}])
    for name, action in (("results.run-1.jsonl", "first"), ("results.jsonl", "second")):
        (record,) = read_records(tmp_path / name)
        events = json.loads((tmp_path / record["transcript"]).read_text())["events"]
        assert events == [{"kind": "action", "action": action}]


def test_a_killed_controllers_journals_are_folded_into_its_results_file(tmp_path):
    store = ResultStore(tmp_path, "20260101T000000-a")
    store.append(_scored("t.py::received", "20260101T000000-a"))
    journal = WorkerJournal(tmp_path, "20260101T000000-a", "gw0")
    journal.started(_unscored("t.py::received", "errored", "harness"))
    journal.finished(_scored("t.py::received", "20260101T000000-a"), None)
    journal.started(_unscored("t.py::finished-only", "errored", "harness"))
    journal.finished(_scored("t.py::finished-only", "20260101T000000-a"), [{"kind": "end"}])
    journal.started(_unscored("t.py::never-finished", "errored", "harness"))

    added = fold_worker_journals(tmp_path, skip_run="20260102T000000-b")

    records = {r["match_id"]: r for r in read_records(tmp_path / "results.jsonl")}
    assert len(read_records(tmp_path / "results.jsonl")) == 3 and len(added) == 2
    assert records["t.py::finished-only"]["status"] == "scored"
    assert (tmp_path / records["t.py::finished-only"]["transcript"]).is_file()
    lost = records["t.py::never-finished"]
    assert (lost["status"], lost["fault"], lost["reason"]) == (
        "errored", "harness", "the run stopped while this match was being played")
    assert not (tmp_path / ".workers" / "20260101T000000-a").exists()
    assert [r["match_id"] for r in resumable_records(tmp_path)] == ["t.py::received", "t.py::finished-only"]


def test_a_journal_of_a_run_that_never_wrote_results_gets_its_own_file(tmp_path):
    ResultStore(tmp_path, "20260101T000000-a").append(_scored("t.py::old", "20260101T000000-a"))
    WorkerJournal(tmp_path, "20260103T000000-c", "gw1").finished(_scored("t.py::new", "20260103T000000-c"), None)
    fold_worker_journals(tmp_path)
    assert [r["match_id"] for r in read_records(tmp_path / "results.jsonl")] == ["t.py::new"]
    assert [r["match_id"] for r in read_records(tmp_path / "results.20260101T000000-a.jsonl")] == ["t.py::old"]


def test_faults_are_told_apart():
    from stratbench.llm.cassettes import CassetteMissError
    from stratbench.llm.client import LLMAuthError, LLMError

    class ContextWindowExceededError(Exception):
        pass

    assert fault_of(LLMError("m: InternalServerError after 5 attempt(s)")) == "provider"
    assert fault_of(LLMAuthError("m: the provider rejected the credentials")) == "provider"
    assert fault_of(CassetteMissError("no cassette")) == "harness"
    assert fault_of(KeyError("x")) == "harness"
    try:
        try:
            raise ContextWindowExceededError("too long")
        except ContextWindowExceededError as cause:
            raise LLMError("m: ContextWindowExceededError after 1 attempt(s)") from cause
    except LLMError as error:
        assert fault_of(error) == "model"
    assert fault_of(MatchTimeout(5, waiting_on_model=True)) == "provider"
    assert fault_of(MatchTimeout(5, waiting_on_model=False)) == "harness"


def test_a_match_stuck_outside_the_model_times_out_as_a_harness_fault():
    async def stuck() -> None:
        await asyncio.sleep(30)

    with pytest.raises(MatchTimeout, match=r"--match-timeout 0.05 s \(not waiting on a model call\)") as caught:
        asyncio.run(within(stuck(), 0.05))
    assert caught.value.waiting_on_model is False and fault_of(caught.value) == "harness"


def test_reports_rate_scored_records_and_list_the_others_per_agent():
    records = [_scored("t.py::a", "r1", (1.0, 0.0)), _scored("t.py::b", "r1", (0.0, 1.0)),
               _unscored("t.py::c", "errored", "provider"), _unscored("t.py::d", "skipped", None)]
    assert all(malformed(r) is None for r in records)
    data = analyse(records, resamples=20)
    assert data["n_matches"] == 2 and data["average_scores"]["overall"]["random"]["n"] == 2
    assert [(m["match_id"], m["status"], m["fault"]) for m in data["unscored"]] == [
        ("t.py::c", "errored", "provider"), ("t.py::d", "skipped", None)]
    assert data["unscored_by_agent"] == unscored_by_agent(records) == [
        {"agent": "minimax", "skipped": 1, "errored": 1, "faults": {"provider": 1}},
        {"agent": "random", "skipped": 1, "errored": 1, "faults": {"provider": 1}},
    ]
    assert "1 errored and 1 skipped match(es) are not rated" in " ".join(data["notes"])
    assert [row["matches"] for row in summarize_by_agent(records)] == [2, 2]
    markdown = render_markdown(data)
    assert "| random | 1 | 1 | provider 1 |" in markdown and "| errored | provider | why t.py::c |" in markdown


@pytest.mark.slow
def test_stratbench_report_rebuilds_a_directory_with_unscored_records_and_per_run_transcripts(tmp_path):
    store = ResultStore(tmp_path, "r1")
    store.append(_scored("t.py::a", "r1", (1.0, 0.0)), [{"kind": "action", "t": 0, "action": "a1"}])
    store.append(_scored("t.py::b", "r1", (0.0, 1.0)), [{"kind": "action", "t": 0, "action": "b1"}])
    store.append(_unscored("t.py::c", "errored", "provider"), [{"kind": "error", "t": 0, "error": "boom"}])
    result = subprocess.run([sys.executable, "-m", "stratbench.cli", "report", str(tmp_path), "--resamples", "20"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "report.html").read_text()
    assert 'id="unscored-table"' in html and "why t.py::c" in html
    pages = {p.name: readable_text(p) for p in (tmp_path / "transcripts").glob("*.html")}
    assert len(pages) == 3 and any("boom" in text for text in pages.values())
    assert any("a1" in text for text in pages.values())
