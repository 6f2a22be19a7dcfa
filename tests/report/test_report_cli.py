"""The ``stratbench`` command line, run as a user runs it: in a subprocess."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from report_records import league, record, write_jsonl
from stratbench.cli import build_parser
from stratbench.cli import main as cli_main
from stratbench.report.analysis import analyse, manifest_for
from stratbench.report.render import write_reports
from stratbench.run.results import ResultStore
from stratbench.testing.warm_pytest import run_module

GAMEBENCH_MATCHES = Path(__file__).resolve().parents[3] / "shared" / "data" / "gamebench" / "matches.json"
BASE = {"llm": 1.0, "minimax": 2.0, "random": -1.5}


def stratbench(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_module("stratbench.cli", [*map(str, args)], cwd=cwd, timeout=120)


def _table(text: str) -> dict[str, dict[str, str]]:
    """Parses the first plain-text table of ``stratbench rate``: agent -> column -> cell."""
    lines = text.splitlines()
    header = lines[0].split()
    assert set(lines[1]) <= {"-", " "}
    rows = {}
    for line in lines[2:]:
        if not line.strip():
            break
        cells = line.split()
        rows[cells[0]] = dict(zip(header[1:], cells[1:]))
    return rows


@pytest.mark.slow
@pytest.mark.skipif(not GAMEBENCH_MATCHES.is_file(), reason="needs ../shared/data/gamebench/matches.json")
def test_rate_gamebench_prints_the_corrected_table_1():
    result = stratbench("rate", GAMEBENCH_MATCHES, "--compat", "gamebench")
    assert result.returncode == 0, result.stderr
    table = _table(result.stdout)
    # Corrected Table 1 (GameBench digest §A7.3), columns by game id.
    expected = {
        ("human", "Overall"): "1.76", ("gpt-4", "sea_battle"): "-7.38", ("random", "air_land_sea"): "-2.67",
        ("gpt-4-rap", "arctic_scavengers"): "2.51", ("human", "codenames"): "-0.89", ("gpt-4", "hive"): "-4.42",
        ("gpt-3-cot", "are_you_the_traitor"): "2.42", ("human", "santorini"): "3.63", ("gpt-4", "Overall"): "-0.89",
        ("human", "air_land_sea"): "1.26*", ("gpt-4-rap", "sea_battle"): "1.41*",
    }
    for (agent, column), value in expected.items():
        assert table[agent][column] == value, (agent, column)
    assert list(table) == ["human", "gpt-4-cot", "gpt-3-cot", "gpt-4-rap", "gpt-3", "random", "gpt-4"]
    assert "mode gamebench, seed 0" in result.stdout and "alpha=0.001; ties drop" in result.stdout


@pytest.mark.slow
def test_rate_reads_our_results_and_orders_agents(tmp_path):
    path = write_jsonl(tmp_path / "results.jsonl", league(BASE, matches=10))
    result = stratbench("rate", path, "--resamples", "100", "--intervals")
    assert result.returncode == 0, result.stderr
    table = _table(result.stdout)
    assert list(table) == ["minimax", "llm", "random"]
    assert re.search(r"^minimax\s+[-\d.]+ \[[-\d.]+, [-\d.]+\]", result.stdout, re.MULTILINE)
    assert "mean of 100 game-balanced bootstrap resamples" in result.stdout


def test_rate_never_averages_plan_validity_with_win_shares(tmp_path):
    records = league(BASE, games=("tictactoe",), matches=6)
    records += [record(f"suites/test_p.py::test_pddl[random-p{k}]", ("random",), (1.0,), game="pddl", seed=k)
                for k in range(3)]
    path = write_jsonl(tmp_path / "results.jsonl", records)
    result = stratbench("rate", path, "--resamples", "50")
    assert result.returncode == 0, result.stderr
    rule = "Overall: the mean over two-sided games scored in win shares (0..1, summing to 1): tictactoe; " \
           "not averaged (other scales): pddl"
    assert rule in result.stdout
    table = result.stdout.split(rule + "\n", 1)[1].splitlines()
    assert table[0].split() == ["Agent", "Overall", "pddl", "tictactoe"]
    random_ttt = [r["scores"][k] for r in records if r["game"] == "tictactoe"
                  for k, side in enumerate(r["sides"]) if side["agent"] == "random"]
    mean = f"{sum(random_ttt) / len(random_ttt):.2f} ({len(random_ttt)})"
    # pddl's plan validity (1.00) is not averaged into random's overall, which equals its tictactoe mean.
    assert re.search(rf"^random\s+{re.escape(mean)}\s+1\.00 \(3\)\s+{re.escape(mean)}$", "\n".join(table),
                     re.MULTILINE), table


def test_a_reader_closing_the_output_early_ends_the_command_quietly_with_141(tmp_path):
    """``stratbench rate ... | head``: the command ends as SIGPIPE would (128 + 13), with nothing on stderr."""
    path = write_jsonl(tmp_path / "results.jsonl", league(BASE, matches=10))
    process = subprocess.Popen([sys.executable, "-m", "stratbench.cli", "rate", str(path), "--resamples", "20"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # the reader is gone before the first line is written
    _, err = process.communicate(timeout=120)
    assert (process.returncode, err.decode()) == (141, "")


def test_the_command_line_leaves_the_process_sigpipe_handling_alone(tmp_path, capsys):
    """Run in-process (``stratbench play`` runs pytest, tests call it), SIGPIPE's default action would end
    the whole process on any socket a peer closes; the command line never changes it."""
    path = write_jsonl(tmp_path / "results.jsonl", league(BASE, matches=10))
    before = signal.getsignal(signal.SIGPIPE)
    assert cli_main(["rate", str(path), "--resamples", "20"]) == 0
    assert "random" in capsys.readouterr().out
    assert signal.getsignal(signal.SIGPIPE) is before is not signal.SIG_DFL


@pytest.mark.slow
def test_report_writes_the_three_files_and_transcript_pages(tmp_path):
    store = ResultStore(tmp_path / "run", "run-1")
    for r in league(BASE, games=("tictactoe",), matches=3):
        store.append(r, [{"kind": "action", "t": 0.0, "player": 0, "action": "4"}])
    out = tmp_path / "out"
    result = stratbench("report", tmp_path / "run", "--out", out, "--resamples", "100")
    assert result.returncode == 0, result.stderr
    for name in ("report.html", "report.md", "results.json"):
        assert (out / name).is_file() and f"wrote {out / name}" in result.stdout
    assert len(list((out / "transcripts").glob("*.html"))) == 9
    data = json.loads((out / "results.json").read_text())
    assert data["n_matches"] == 9 and data["manifest"]["command_line"][:2] == ["stratbench", "report"]


def _shards_with_one_conflict(tmp_path: Path) -> tuple[list[dict], Path, Path, dict]:
    """Two shards sharing three matches: two stored identically (another run), one with another outcome."""
    records = league(BASE, games=("tictactoe",), matches=4)  # 12 matches
    first, second = tmp_path / "shard1", tmp_path / "shard2"
    write_jsonl(first / "results.jsonl", records[:8])
    changed = {**records[6], "scores": list(reversed(records[6]["scores"])), "run_id": "run-2"}
    if changed["scores"] == records[6]["scores"]:
        changed["scores"] = [0.5, 0.5]
    again = {**records[5], "run_id": "run-2", "duration_s": 9.5}  # the same match, replayed elsewhere
    write_jsonl(second / "results.jsonl", [again, changed, *records[7:]])
    return records, first, second, changed


def test_merge_refuses_conflicting_shards_naming_the_match_and_both_files(tmp_path):
    records, first, second, changed = _shards_with_one_conflict(tmp_path)
    result = stratbench("merge", tmp_path / "merged", first, second)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"stratbench merge: conflict: {changed['match_id']}: {first / 'results.jsonl'} and "
        f"{second / 'results.jsonl'} differ in scores",
        "stratbench merge: 1 conflict(s), nothing written; choose a side with --prefer first, --prefer last "
        "or --prefer PATH",
    ]
    assert not (tmp_path / "merged").exists()


@pytest.mark.parametrize("prefer", ["first", "last", "shard2", "shard1", "shard2-file"])
def test_merge_prefer_chooses_the_side_of_a_conflict(tmp_path, prefer):
    records, first, second, changed = _shards_with_one_conflict(tmp_path)
    choice = {"shard1": str(first), "shard2": str(second), "shard2-file": str(second / "results.jsonl")}.get(prefer, prefer)
    result = stratbench("merge", tmp_path / "merged", first, second, "--prefer", choice, "--no-report")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (f"merged 12 matches from 2 shard(s) into {tmp_path / 'merged' / 'results.jsonl'}; "
                                     f"1 conflict(s) resolved by --prefer {choice}")
    winner = first if prefer in ("first", "shard1") else second
    assert result.stderr.strip().endswith(f"; kept {winner / 'results.jsonl'}")
    merged = {r["match_id"]: r for r in map(json.loads, (tmp_path / "merged" / "results.jsonl").read_text().splitlines())}
    assert sorted(merged) == sorted(r["match_id"] for r in records)
    expected = records[6]["scores"] if winner == first else changed["scores"]
    assert merged[changed["match_id"]]["scores"] == expected
    assert merged[records[5]["match_id"]]["run_id"] == "run-1"  # identical duplicates: the first copy stays


@pytest.mark.slow
def test_merge_keeps_identical_duplicates_without_a_conflict(tmp_path):
    records = league(BASE, games=("tictactoe",), matches=2)
    first = write_jsonl(tmp_path / "a" / "results.jsonl", records)
    second = write_jsonl(tmp_path / "b" / "results.jsonl", [{**r, "run_id": "other", "started_at": "later"}
                                                           for r in records])
    result = stratbench("merge", tmp_path / "merged", first.parent, second, "--no-report")
    assert result.returncode == 0 and result.stderr == ""
    assert not (tmp_path / "merged" / "results.json").exists()
    assert result.stdout.strip() == f"merged {len(records)} matches from 2 shard(s) into {tmp_path / 'merged' / 'results.jsonl'}"
    again = stratbench("merge", tmp_path / "merged", first)
    assert again.returncode == 2 and "exists; merge into a new directory" in again.stderr


@pytest.mark.slow
def test_gate_answers_fail_1_pass_0_and_inconclusive_6(tmp_path):
    baseline = write_jsonl(tmp_path / "base" / "results.jsonl", league(BASE, seed=1, matches=60))
    worse = write_jsonl(tmp_path / "worse" / "results.jsonl", league({**BASE, "llm": -1.5}, seed=2, matches=60))
    noise = write_jsonl(tmp_path / "noise" / "results.jsonl", league(BASE, seed=3))
    failed = stratbench("gate", worse.parent, baseline, "--resamples", "300")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert failed.stdout.startswith("stratbench gate: FAILED\n")
    assert "  FAIL  llm: tictactoe: LLR -" in failed.stdout
    assert len(failed.stdout.splitlines()) <= 24
    # the same outcomes, every unit equal: at the default -50 that takes about 140 units per test to say so;
    # a coarse gate (-200) says it within the 60 units of each
    again = stratbench("gate", baseline, baseline.parent, "--resamples", "300", "--elo0", "-200")
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.startswith("stratbench gate: passed\n")
    unsure = stratbench("gate", noise, baseline.parent, "--resamples", "300")
    assert unsure.returncode == 6, unsure.stdout + unsure.stderr
    assert unsure.stdout.startswith("stratbench gate: INCONCLUSIVE (not yet decided)\n")
    assert re.search(r"^  more  llm: tictactoe: LLR .*; about \d+ more unit\(s\)$", unsure.stdout, re.M)
    assert stratbench("gate", noise, baseline, "--resamples", "300", "--gate-inconclusive", "pass").returncode == 0
    assert stratbench("gate", noise, baseline, "--resamples", "300", "--gate-inconclusive", "fail").returncode == 1


@pytest.mark.slow
def test_gate_reads_rendered_results_json_and_maps_renamed_agents(tmp_path):
    renamed = [
        {**r, "sides": [{**s, "agent": "llm-v2" if s["agent"] == "llm" else s["agent"]} for s in r["sides"]],
         "match_id": r["match_id"].replace("[llm-", "[llm-v2-")}
        for r in league({**BASE, "llm": -1.5}, seed=2, matches=60)
    ]
    for name, records in (("base", league(BASE, seed=1, matches=60)), ("new", renamed)):
        write_reports(analyse(records, resamples=300, manifest=manifest_for(records)), tmp_path / name)
    mapped = stratbench("gate", tmp_path / "new", tmp_path / "base", "--map", "llm-v2=llm")
    assert mapped.returncode == 1 and "  FAIL  llm-v2 vs llm: tictactoe: LLR -" in mapped.stdout


@pytest.mark.slow
def test_gate_that_compares_nothing_is_one_line_exit_4_never_a_pass(tmp_path):
    baseline = write_jsonl(tmp_path / "base" / "results.jsonl", league(BASE, seed=1))
    unrelated = write_jsonl(tmp_path / "other" / "results.jsonl", league({"x": 0.0, "y": 1.0}, seed=1))
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"agents": [], "matches": []}))
    for current, base, reason in (
        (unrelated, baseline, "no agent under test appears in both runs (compare a renamed model with an agent map "
                              "NEW=OLD)"),
        (baseline, empty, "no agent under test appears in both runs (compare a renamed model with an agent map "
                          "NEW=OLD)"),
    ):
        result = stratbench("gate", current, base, "--resamples", "300")
        assert result.returncode == 4, result.stdout + result.stderr
        assert result.stdout == "" and result.stderr == f"stratbench gate: nothing compared: {reason}\n"


@pytest.mark.slow
def test_gate_head_to_head_within_one_run(tmp_path):
    rows = []
    for k in range(30):  # new wins with either colour against old
        rows.append(record(f"t.py::t[new-vs-old-s{2 * k}]", ("new", "old"), (1.0, 0.0), seed=2 * k))
        rows.append(record(f"t.py::t[new-vs-old-s{2 * k + 1}]", ("old", "new"), (0.0, 1.0), seed=2 * k + 1,
                           subject=1))
    run = write_jsonl(tmp_path / "run" / "results.jsonl", rows)
    result = stratbench("gate", run, "--map", "new=old", "--resamples", "100")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "  ok    new vs old head to head: tictactoe: LLR +" in result.stdout
    alone = stratbench("gate", run, "--resamples", "100")
    assert alone.returncode == 4
    assert alone.stderr == "stratbench gate: nothing compared: a head-to-head gate needs an agent map NEW=OLD\n"


def _bad_inputs(tmp: Path) -> dict[str, tuple[list[object], str]]:
    empty = tmp / "empty.jsonl"
    empty.write_text("")
    garbage = tmp / "garbage.jsonl"
    garbage.write_text("this is not json\n")
    no_records = write_jsonl(tmp / "header.jsonl", [{"type": "header", "run_id": "x"}])
    broken = write_jsonl(tmp / "broken.jsonl", [record("m1"), {**record("m2"), "scores": "1-0"}])
    good = write_jsonl(tmp / "good" / "results.jsonl", [record("m1"), record("m2", ("b", "a"))])
    not_report = tmp / "not-report.json"
    not_report.write_text('{"hello": 1}')
    missing = tmp / "missing.jsonl"
    a_file = tmp / "a-file"
    a_file.write_text("x")
    no_results = tmp / "no-results"
    no_results.mkdir()
    bad_shape = tmp / "bad-shape.json"
    bad_shape.write_text('{"matches": "x", "agents": 5}')
    a_list = tmp / "a-list.json"
    a_list.write_text("[1, 2]")
    bad_row = tmp / "bad-row.json"
    bad_row.write_text('{"matches": [{"match_id": "m", "game": "g", "agents": ["a"]}]}')
    bad_line = tmp / "bad-line.jsonl"
    bad_line.write_text(json.dumps(record("m1")) + "\n{oops\n" + json.dumps(record("m2")) + "\n")
    return {
        "rate-missing": (["rate", missing], f"stratbench rate: {missing}: no such file"),
        "rate-empty": (["rate", empty], f"stratbench rate: {empty}: line 1: file is empty"),
        "report-missing": (["report", tmp / "nowhere"], f"stratbench report: {tmp / 'nowhere'}: no results.jsonl found"),
        "report-empty": (["report", empty], f"stratbench report: {empty}: empty file, no match records"),
        "report-not-json": (["report", garbage], f"stratbench report: {garbage}: not a results.jsonl*"),
        "report-no-records": (["report", no_records], f"stratbench report: {no_records}: no match records*"),
        "report-bad-record": (["report", broken], f"stratbench report: {broken}: record 2: not a match record*"),
        "merge-empty": (["merge", tmp / "out", empty], f"stratbench merge: {empty}: empty file, no match records"),
        "merge-missing": (["merge", tmp / "out", good, missing], f"stratbench merge: {missing}: no results.jsonl found"),
        "merge-no-results": (["merge", tmp / "out", no_results], f"stratbench merge: {no_results}: no results.jsonl found"),
        "merge-bad-line": (["merge", tmp / "out", good, bad_line], f"stratbench merge: {bad_line}:2: not JSON (*)"),
        "merge-out-is-file": (["merge", a_file, good], f"stratbench merge: OUT {a_file}: is a file, not a directory"),
        "merge-out-under-file": (["merge", a_file / "sub" / "out", good],
                                 f"stratbench merge: OUT {a_file / 'sub' / 'out'}: {a_file} is a file, not a directory"),
        "merge-bad-prefer": (["merge", tmp / "out", good, "--prefer", tmp / "elsewhere"],
                             f"stratbench merge: --prefer {tmp / 'elsewhere'}: not one of the merged inputs "
                             f"({good}); use first, last or one of them"),
        "gate-missing": (["gate", good.parent, missing], f"stratbench gate: {missing}: no results.jsonl found"),
        "gate-empty": (["gate", empty, good], f"stratbench gate: {empty}: empty file, no match records"),
        "gate-not-report": (["gate", good, not_report], f"stratbench gate: {not_report}: not a stratbench results.json*"),
        "gate-bad-map": (["gate", good, good, "--map", "foo"], "stratbench gate: --map 'foo': expected NEW=OLD"),
        "gate-bad-shape": (["gate", good, bad_shape], f"stratbench gate: BASELINE {bad_shape}: 'matches' is not a list"),
        "gate-not-object": (["gate", good, a_list], f"stratbench gate: {a_list}: not a stratbench results.json*"),
        "gate-bad-row": (["gate", good, bad_row], f"stratbench gate: BASELINE {bad_row}: matches[0]: no 'scores'"),
        "gate-bad-margins": (["gate", good, good, "--elo0", "0", "--elo1", "-10"],
                             "stratbench gate: --elo0 0 must be below --elo1 -10 (H0 the regression, H1 none)"),
        "gate-huge-margin": (["gate", good, good, "--elo0", "-400"],
                             "stratbench gate: --elo0 -400: a bound lies within +-245 Elo*"),
        "sprt-huge-margin": (["sprt", "--pentanomial", "0,3,37,0,0", "--elo0", "-200000", "--elo1", "0"],
                             "stratbench sprt: --elo0 -200000: a bound lies within +-800 logistic Elo*"),
        "sprt-huge-normalized": (["sprt", "--wdl", "3,4,5", "--elo0", "-5", "--elo1", "1e308", "--elo-model",
                                  "normalized"], "stratbench sprt: --elo1 1e+308: a bound lies within +-245 Elo*"),
    }


BAD_INPUTS = [
    "rate-missing", "rate-empty", "report-missing", "report-empty", "report-not-json",
    "report-no-records", "report-bad-record", "merge-empty", "merge-missing", "merge-no-results", "merge-bad-line",
    "merge-out-is-file", "merge-out-under-file", "merge-bad-prefer", "gate-missing", "gate-empty", "gate-not-report",
    "gate-bad-map", "gate-bad-shape", "gate-not-object", "gate-bad-row", "gate-bad-margins", "gate-huge-margin",
    "sprt-huge-margin", "sprt-huge-normalized",
]


@pytest.mark.slow
@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_exits_2_with_one_line(tmp_path, case):
    cases = _bad_inputs(tmp_path)
    assert sorted(cases) == sorted(BAD_INPUTS)
    args, message = cases[case]
    result = stratbench(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert re.fullmatch(re.escape(message).replace(r"\*", ".*"), lines[0]), lines[0]


@pytest.mark.slow
def test_merge_writes_the_reports_of_the_merged_records(tmp_path):
    records = league(BASE, games=("tictactoe",), matches=2)
    half = len(records) // 2
    first = write_jsonl(tmp_path / "a" / "results.jsonl", records[:half])
    second = write_jsonl(tmp_path / "b" / "results.jsonl", records[half:])
    result = stratbench("merge", tmp_path / "merged", first, second, "--resamples", "30")
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "merged" / "results.json").read_text())
    expected = json.loads(json.dumps(analyse(records, resamples=30)))
    assert data["ratings"] == expected["ratings"] and len(data["matches"]) == len(records)
    assert data["manifest"]["run_ids"] == sorted({r["run_id"] for r in records})
    assert (tmp_path / "merged" / "report.md").is_file() and (tmp_path / "merged" / "report.html").is_file()


@pytest.mark.slow
def test_merge_says_when_the_reports_cannot_be_written(tmp_path):
    records = league(BASE, games=("tictactoe",), matches=1)
    shard = write_jsonl(tmp_path / "a" / "results.jsonl", records)
    (tmp_path / "merged" / "results.json").mkdir(parents=True)  # in the way of the report
    result = stratbench("merge", tmp_path / "merged", shard, "--resamples", "30")
    assert result.returncode == 2
    assert result.stderr.startswith(f"stratbench merge: OUT {tmp_path / 'merged'}: merged results.jsonl written, "
                                    "but not the reports (")
    assert len((tmp_path / "merged" / "results.jsonl").read_text().splitlines()) == len(records)  # kept


@pytest.mark.parametrize("value", ["-1", "nan", "inf"])
def test_a_gate_tolerance_below_zero_or_not_a_number_is_refused(value, capsys):
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["gate", "a", "b", "--tolerance", value])
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"stratbench gate: error: argument --tolerance: expected a number of at least 0, got '{value}'")
