"""Faults of the files a run writes: an unreadable line, a read-only file or folder, a full disk.

Each is one line naming the file and the problem, never a traceback, and no
record written before the fault is lost. Tests run as root, so a read-only
file is made with ``chattr +i`` (file permissions do not stop root); a test
skips when the filesystem under its temporary folder has no such attribute.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from stratbench.run.results import without_volatile

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], matches=4, seats="half")
def test_tictactoe(match):
    match.play()
"""

TWO_TESTS = SUITE + """

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], matches=2, seats="half")
def test_against_random(match):
    match.play()
"""


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _chattr(flag: str, path: Path) -> None:
    subprocess.run(["chattr", flag, str(path)], check=True, capture_output=True)


@pytest.fixture
def immutable():
    """Makes paths immutable (``chattr +i``) and always lifts it again, so the temporary folder can go."""
    made: list[Path] = []

    def make(path: Path) -> None:
        if shutil.which("chattr") is None:
            pytest.skip("chattr is not installed")
        try:
            _chattr("+i", path)
        except subprocess.CalledProcessError as error:
            pytest.skip(f"this filesystem has no immutable attribute ({error.stderr.decode().strip()})")
        made.append(path)

    yield make
    for path in made:
        _chattr("-i", path)


def _no_traceback(result) -> None:
    text = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in text and "INTERNALERROR" not in text


@pytest.mark.slow
def test_an_unwritable_cassette_folder_errors_only_its_matches_one_line_each(pytester, fake_llm, immutable):
    pytester.makepyfile(test_ttt=TWO_TESTS)
    locked = pytester.path / "cassettes" / "test_ttt" / "test_against_random"
    locked.mkdir(parents=True)
    immutable(locked)

    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--model", "openai/m", "--api-base",
                                           fake_llm.api_base, "--record-mode", "all", "--report-dir", "out",
                                           "--stratbench-bootstrap", "20")

    _no_traceback(result)
    records = {r["match_id"]: r for r in _lines(pytester.path / "out" / "results.jsonl")}
    errored = {k: r for k, r in records.items() if r["status"] != "scored"}
    assert sorted(errored) == [f"test_ttt.py::test_against_random[openai/m+direct-vs-random-{form}]"
                               for form in ("s1", "second-s0")]  # seats="half": seed 0 is the model's second seat
    for match_id, record in errored.items():
        cassette = locked / (match_id.split("[")[1].rstrip("]").replace("/", "_") + ".yaml")
        reason = f"CassetteWriteError: cannot write the cassette {cassette} (Operation not permitted)"
        assert (record["status"], record["fault"], record["reason"]) == ("errored", "harness", reason)
        assert result.stdout.lines.count(f"{reason} [fault: harness]") == 1  # the match's one failure line
    assert len(records) == 12  # every other match (LLM or not, in either test) scored
    recorded = pytester.path / "cassettes" / "test_ttt" / "test_tictactoe"
    assert len(list(recorded.glob("*.yaml"))) == 4
    assert list(locked.iterdir()) == []  # no temporary file left behind
    assert result.ret == 1


def _comparable(report: Path) -> tuple[dict, dict]:
    data = json.loads((report / "results.json").read_text())
    latest = {r["match_id"]: r for r in _lines(report / "results.jsonl")}
    return without_volatile(data), without_volatile(latest)


def _played(result) -> list[str]:
    return [line for line in result.stdout.lines if "test_ttt.py::test_tictactoe[" in line and "%]" in line]


@pytest.mark.slow
def test_resume_skips_an_unreadable_line_naming_it_and_plays_its_match_again(pytester, fake_llm):
    pytester.makepyfile(test_ttt=SUITE)
    args = ["-p", "no:cacheprovider", "--model", "openai/m", "--api-base", fake_llm.api_base,
            "--stratbench-bootstrap", "20"]
    assert pytester.runpytest_subprocess(*args, "--report-dir", "full").ret == 0
    shutil.copytree(pytester.path / "full", pytester.path / "cut")
    results = pytester.path / "cut" / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    lines[1] = "garbage{\n"  # the second of four records
    results.write_text("".join(lines))
    requests = len(fake_llm.requests)

    resumed = pytester.runpytest_subprocess(*args, "--report-dir", "cut", "--resume", "-v")

    assert resumed.ret == 0
    _no_traceback(resumed)
    warning = (f"stratbench: warning: --resume: {results}:2: not JSON (Expecting value): skipped; the match a "
               f"skipped line held is played again (the file is kept beside the new one)")
    assert resumed.stdout.lines.count(warning) == 1
    assert len(_played(resumed)) == 1
    assert len(fake_llm.requests) == requests  # the match played again replayed its cassette
    assert _comparable(pytester.path / "cut") == _comparable(pytester.path / "full")
    aside = list((pytester.path / "cut").glob("results.*.jsonl"))
    assert len(aside) == 1 and aside[0].read_text().splitlines()[1] == "garbage{"


@pytest.mark.parametrize(("flag", "resume"), [("+i", False), ("+i", True), ("+a", False)])
def test_an_unwritable_results_file_is_refused_at_start_up_and_nothing_is_played(pytester, fake_llm, flag, resume):
    pytester.makepyfile(test_ttt=SUITE)
    report = pytester.path / "out"
    report.mkdir()
    results = report / "results.jsonl"
    results.write_text('{"match_id": "earlier", "run_id": "r0"}\n')
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    try:
        _chattr(flag, results)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"this filesystem has no {flag} attribute ({error.stderr.decode().strip()})")
    try:
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--model", "openai/m", "--api-base",
                                               fake_llm.api_base, "--report-dir", "out",
                                               *(["--resume"] if resume else []))
    finally:
        _chattr(flag.replace("+", "-"), results)

    assert result.ret == 4
    assert [line for line in result.stderr.lines if line] == [
        f"ERROR: stratbench: --report-dir {report}: cannot write its results file {results} (Operation not permitted)"]
    _no_traceback(result)
    assert fake_llm.requests == []
    assert sorted(p.name for p in report.iterdir()) == ["results.jsonl"]  # not moved aside, nothing added
    assert results.read_text() == '{"match_id": "earlier", "run_id": "r0"}\n'


FAULT_AFTER_TWO_RECORDS = """
import os
import subprocess
from pathlib import Path

stored = []


def pytest_stratbench_match_recorded(record):
    # after the second record: the disk fills up (results.jsonl now leads to /dev/full, the file written so far
    # waits beside it) or the file turns read-only
    stored.append(record["match_id"])
    fault = os.environ.get("RESULTS_FAULT")
    if len(stored) != 2 or not fault:
        return
    results = Path(os.environ["RESULTS_FILE"])
    if fault == "full":
        os.replace(results, results.with_name("written-before-the-fault.jsonl"))
        results.symlink_to("/dev/full")
    else:
        subprocess.run(["chattr", "+i", str(results)], check=True)
"""


def _can_make_immutable(path: Path) -> bool:
    if shutil.which("chattr") is None:
        return False
    path.write_text("")
    try:
        _chattr("+i", path)
    except subprocess.CalledProcessError:
        return False
    _chattr("-i", path)
    path.unlink()
    return True


@pytest.mark.slow  # four runs of a small suite
@pytest.mark.parametrize("workers", [0, 2])
@pytest.mark.parametrize(("fault", "error"), [("full", "No space left on device"),
                                              ("read-only", "Operation not permitted")])
def test_a_results_store_that_fails_mid_run_stops_it_losing_nothing_and_resume_completes_it(
        pytester, fake_llm, monkeypatch, fault, error, workers):
    pytester.makepyfile(test_ttt=SUITE)
    pytester.makeconftest(FAULT_AFTER_TWO_RECORDS)
    report = pytester.path / "out"
    results = report / "results.jsonl"
    if fault == "read-only" and not _can_make_immutable(pytester.path / "probe"):
        pytest.skip("this filesystem has no immutable attribute (chattr +i)")
    args = ["-p", "no:cacheprovider", "--model", "openai/m", "--api-base", fake_llm.api_base,
            "--stratbench-bootstrap", "20", "--stratbench-concurrency", "1", *(["-n", str(workers)] if workers else [])]
    clean = pytester.runpytest_subprocess(*args, "--report-dir", "clean")
    assert clean.ret == 0
    (pytester.path / "cassettes").rename(pytester.path / "cassettes-of-the-clean-run")  # the next run records anew
    calls_of_a_clean_run = len(fake_llm.requests)
    fake_llm.requests.clear()

    monkeypatch.setenv("RESULTS_FAULT", fault)
    monkeypatch.setenv("RESULTS_FILE", str(results))
    try:
        stopped = pytester.runpytest_subprocess(*args, "--report-dir", "out")
    finally:  # the disk is mended: the file written before the fault is back, writable
        if fault == "full":
            results.unlink()
            (report / "written-before-the-fault.jsonl").rename(results)
        elif results.exists():
            _chattr("-i", results)
    monkeypatch.delenv("RESULTS_FAULT")

    assert stopped.ret == pytest.ExitCode.INTERRUPTED
    _no_traceback(stopped)
    reason = (f"stratbench: cannot write {results} ({error}); the run stops here: the records written before "
              f"are kept, and --resume finishes the run (matches played since replay their cassettes)")
    said = [line for line in stopped.stdout.lines if "cannot write" in line]
    assert len(said) == 1 and f"Interrupted: {reason} !" in said[0]
    written = _lines(results)
    assert len(written) == 2 and all(r["status"] == "scored" for r in written)  # both records kept as written

    resumed = pytester.runpytest_subprocess(*args, "--report-dir", "out", "--resume")

    assert resumed.ret == 0
    # every model call was made once: matches played before the fault replayed their cassettes (or, under
    # xdist, came from the worker journals), the others were played now
    assert len(fake_llm.requests) == calls_of_a_clean_run
    assert len(_lines(results)) == 8 and "resumed: " in resumed.stdout.str()
    assert _comparable(report) == _comparable(pytester.path / "clean")
