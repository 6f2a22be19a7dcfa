"""--stratbench-shard I/N and stratbench merge: three shards merge into the results of one unsharded run."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pytest
from stratbench.run.results import without_volatile
from stratbench.run.shards import Shard, parse_shard
from stratbench.testing.warm_pytest import run_module

SUITE_A = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=6)
def test_tictactoe(match):
    match.play()
"""
SUITE_B = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=["minimax"], matches=5)
def test_tictactoe_again(match):
    match.play()


def test_not_a_match():
    assert True
"""


def test_the_shards_split_every_item_once_in_any_collection_order():
    ids = [f"suites/test_{k % 3}.py::test[m{k}]" for k in range(17)]
    splits = {}
    for attempt in range(5):
        shuffled = random.Random(attempt).sample(ids, len(ids))
        shards = [Shard(i, 3).split(shuffled, str)[0] for i in (1, 2, 3)]
        assert sorted(x for shard in shards for x in shard) == sorted(ids)  # each item once
        assert sorted(len(shard) for shard in shards) == [5, 6, 6]
        for shard in shards:  # kept in the collection order
            assert shard == [x for x in shuffled if x in shard]
        splits[attempt] = [sorted(shard) for shard in shards]
    assert all(split == splits[0] for split in splits.values())


def test_one_shard_keeps_everything():
    ids = ["b", "a", "c"]
    assert Shard(1, 1).split(ids, str) == (ids, [])


@pytest.mark.parametrize("text", ["3/2", "0/2", "1", "a/b", "1/0", "-1/2", "2/"])
def test_a_bad_shard_is_named(text):
    with pytest.raises(argparse.ArgumentTypeError) as raised:
        parse_shard(text)
    assert str(raised.value) == f"expected I/N, shard I of N with 1 <= I <= N, got {text!r}"


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _comparable(report: Path) -> tuple[dict, dict]:
    data = json.loads((report / "results.json").read_text())
    latest = {r["match_id"]: r for r in _lines(report / "results.jsonl")}
    return without_volatile(data), without_volatile(latest)


@pytest.mark.slow  # five runs of two small suites and one merge
def test_three_shards_merge_into_the_unsharded_run(pytester):
    pytester.makepyfile(test_a=SUITE_A, test_b=SUITE_B)
    args = ["-p", "no:cacheprovider", "--stratbench-bootstrap", "50"]
    full = pytester.runpytest_subprocess(*args, "test_a.py", "test_b.py", "--report-dir", "full")
    assert full.ret == 0
    total = len(_lines(pytester.path / "full" / "results.jsonl"))
    assert total == 11  # 6 + 5 matches; the plain test has no record

    runs = [
        ("1/3", ["test_a.py", "test_b.py"]),
        ("2/3", ["test_b.py", "test_a.py", "-n", "2"]),  # another collection order, and xdist
        ("3/3", ["test_b.py", "test_a.py"]),
    ]
    played: list[set[str]] = []
    for shard, extra in runs:
        result = pytester.runpytest_subprocess(*args, *extra, "--stratbench-shard", shard,
                                               "--report-dir", f"shard{shard[0]}")
        assert result.ret == 0, result.stdout.str()
        played.append({r["match_id"] for r in _lines(pytester.path / f"shard{shard[0]}" / "results.jsonl")})
    assert min(map(len, played)) >= 3  # 12 items dealt out in turn: 4 each, one of them not a match
    assert set().union(*played) == {r["match_id"] for r in _lines(pytester.path / "full" / "results.jsonl")}
    assert sum(len(ids) for ids in played) == total  # no match in two shards

    merged = run_module("stratbench.cli", ["merge", "merged", "shard1", "shard2", "shard3", "--resamples", "50"],
                        cwd=pytester.path, timeout=300)
    assert merged.returncode == 0, merged.stderr
    out = pytester.path / "merged"
    assert merged.stdout.splitlines()[0] == f"merged {total} matches from 3 shard(s) into merged/results.jsonl"
    for name in ("results.json", "report.md", "report.html"):
        assert (out / name).is_file()
    assert _comparable(out) == _comparable(pytester.path / "full")
    data = json.loads((out / "results.json").read_text())
    assert len(data["manifest"]["run_ids"]) == 3  # one per shard: the volatile part that differs
    for record in _lines(out / "results.jsonl"):  # every transcript came along
        assert (out / record["transcript"]).is_file()


@pytest.mark.slow
def test_a_shard_deselects_the_other_shards_items(pytester):
    pytester.makepyfile(test_a=SUITE_A)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-bootstrap", "20",
                                           "--stratbench-shard", "2/3", "--collect-only", "-q")
    assert result.ret == 0
    lines = [line for line in result.stdout.lines if "::" in line]
    assert len(lines) == 2  # 6 matches: shard 2 of 3 gets positions 1 and 4 of the node-id order
    every = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q")
    ids = sorted(line for line in every.stdout.lines if "::" in line)
    assert sorted(lines) == ids[1::3]
