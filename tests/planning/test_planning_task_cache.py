"""A task's properties are computed once: its metrics and readability verdict, kept by content (manifest, cache)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from planning_toys import BLOCKS_DOMAIN, BLOCKS_P01, BLOCKS_P01_PLAN, BLOCKS_P02, write_dataset

from stratbench.games.spin.metrics import action_space
from stratbench.games.spin.planning import dataset, reading, task_cache
from stratbench.match.metric_budget import MetricBudget, MetricTimeout, current_budget

SUITE = (Path(__file__).resolve().parents[2] / "suites" / "spin" / "test_pddl.py").read_text()
BROKEN = """(define (domain d) (:requirements :typing) (:types a b - object c - (either a b))
 (:predicates (at ?x - c)) (:action go :parameters (?x - c) :precondition (at ?x) :effect (not (at ?x))))"""
BROKEN_PROBLEM = "(define (problem p) (:domain d) (:objects o - c) (:init (at o)) (:goal (not (at o))))"
"""Refused by the quick check (the normaliser)."""
PREFERRING = BLOCKS_P01.replace("(:goal", "(:constraints (preference p1 (always (clear a))))\n (:goal")
"""Passes the quick check; refused by the full one (unified-planning's reader)."""


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch) -> Iterator[Path]:
    """Points the task cache at an empty folder and forgets this process's verdicts and values (a new process)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("STRATBENCH_CACHE_DIR", str(folder))
    new_process()
    yield folder / "planning-tasks"
    new_process()


def new_process() -> None:
    """Forgets what this process decided, as another process (an xdist worker, a second run) starts without it."""
    action_space._KNOWN.clear()  # noqa: SLF001
    dataset._VERDICTS.clear()  # noqa: SLF001


class Calls:
    """Wraps a module's function, counting its calls."""

    def __init__(self, monkeypatch, module, name: str) -> None:
        self.count = 0
        original = getattr(module, name)

        def counted(*args, **kwargs):
            self.count += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


def toy(root: Path, problem: str = BLOCKS_P01) -> dataset.Instance:
    """A one-task dataset in SPIN-Bench's layout, with a manifest holding the reference plan (as a user's may)."""
    write_dataset(root, {"blocksworld": (BLOCKS_DOMAIN, {"p01": problem})})
    entry = {"name": "blocksworld/p01", "domain": "blocksworld", "instance": "p01",
             "reference_plan": BLOCKS_P01_PLAN.strip().splitlines()}
    (root / "manifest.json").write_text(json.dumps({"instances": [entry]}))
    action_space._manifest.cache_clear()  # noqa: SLF001
    [instance] = dataset.scan_directory(root)
    return instance


def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("STRATBENCH_CACHE_DIR", str(tmp_path / "mine"))
    assert task_cache.cache_dir() == tmp_path / "mine" / "planning-tasks"
    monkeypatch.delenv("STRATBENCH_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert task_cache.cache_dir() == tmp_path / "xdg" / "stratbench" / "planning-tasks"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert task_cache.cache_dir() == tmp_path / "home" / ".cache" / "stratbench" / "planning-tasks"


def test_a_key_changes_with_either_text_the_code_or_the_extra_parts():
    key = task_cache.task_key("k", "v1", "domain", "problem")
    assert key == task_cache.task_key("k", "v1", "domain", "problem")
    others = {task_cache.task_key("k", "v2", "domain", "problem"), task_cache.task_key("k", "v1", "domain!", "problem"),
              task_cache.task_key("k", "v1", "domain", "problem!"), task_cache.task_key("k", "v1", "domain", "problem", "x"),
              task_cache.task_key("k", "v1", "domainp", "roblem"), task_cache.task_key("j", "v1", "domain", "problem")}
    assert key not in others and len(others) == 6


def test_a_fact_is_stored_atomically_and_a_broken_file_is_no_fact(cache):
    task_cache.store("k-1", {"value": 3})
    assert task_cache.load("k-1") == {"value": 3}
    assert [p.name for p in cache.iterdir()] == ["k-1.json"]  # no temporary file left beside it
    (cache / "k-2.json").write_text('{"value": ')  # a file cut short: read as nothing, so recomputed
    assert task_cache.load("k-2") is None and task_cache.load("k-3") is None


def test_a_second_process_reuses_the_task_metrics_and_an_edited_task_is_computed_again(tmp_path, monkeypatch, cache):
    pairs = Calls(monkeypatch, action_space, "state_action_space")
    legal = Calls(monkeypatch, action_space, "legal_actions_per_step")
    instance = toy(tmp_path / "data")
    first = (action_space.task_state_action_space(instance), action_space.task_legal_actions(instance))
    assert first[0] > 0 and first[1] > 0 and (pairs.count, legal.count) == (1, 1)
    assert len(list(cache.glob("state_action_pairs-*.json"))) == len(list(cache.glob("legal_actions_per_step-*"))) == 1

    new_process()
    again = (action_space.task_state_action_space(instance), action_space.task_legal_actions(instance))
    assert again == first and (pairs.count, legal.count) == (1, 1)  # read from the cache, not computed

    edited = toy(tmp_path / "data", BLOCKS_P02)  # the same file, new content: a new key
    new_process()
    changed = (action_space.task_state_action_space(edited), action_space.task_legal_actions(edited))
    assert (pairs.count, legal.count) == (2, 2)
    assert changed[0] == action_space.state_action_space(reading.read_problem(BLOCKS_DOMAIN, BLOCKS_P02))
    assert len(list(cache.glob("state_action_pairs-*.json"))) == 2


def test_a_space_past_the_state_limit_is_kept_as_none(tmp_path, monkeypatch, cache):
    monkeypatch.setattr(action_space, "STATE_LIMIT", 3)  # blocksworld/p01 reaches more than 3 states
    pairs = Calls(monkeypatch, action_space, "state_action_space")
    instance = toy(tmp_path / "data")
    assert action_space.task_state_action_space(instance) is None
    new_process()
    assert action_space.task_state_action_space(instance) is None and pairs.count == 1
    [stored] = cache.glob("state_action_pairs-*.json")
    assert json.loads(stored.read_text()) == {"state_action_pairs": None}


def test_out_of_time_is_kept_as_not_computed_for_any_budget_no_larger(tmp_path, monkeypatch, cache):
    """Never a number: the verdict stands for budgets up to the one it ran out of; a larger one tries again."""
    calls = []

    def out_of_time(problem, limit=200, budget=None):
        calls.append(budget.seconds)
        raise MetricTimeout(budget.reason(action_space.WHAT))

    monkeypatch.setattr(action_space, "state_action_space", out_of_time)
    instance = toy(tmp_path / "data")

    def count_within(seconds):
        token = current_budget.set(MetricBudget(seconds))
        try:
            return action_space.task_state_action_space(instance)
        finally:
            current_budget.reset(token)

    with pytest.raises(MetricTimeout, match=r"ran past the 2 s metric budget"):
        count_within(2.0)
    [stored] = cache.glob("state_action_pairs-*.json")
    assert json.loads(stored.read_text()) == {"state_action_pairs": {"out_of_time_s": 2.0}}
    new_process()
    for seconds in (2.0, 1.0):  # no larger: not computed, with this budget's reason, and not tried again
        with pytest.raises(MetricTimeout, match=rf"ran past the {seconds:g} s metric budget"):
            count_within(seconds)
    assert calls == [2.0]
    with pytest.raises(MetricTimeout):
        count_within(5.0)  # a larger budget tries again
    assert calls == [2.0, 5.0]


def test_a_second_scan_reads_each_readability_verdict_and_an_edited_task_is_decided_again(tmp_path, monkeypatch):
    quick = Calls(monkeypatch, dataset, "_quick_check")
    full = Calls(monkeypatch, dataset, "_full_check")
    root = write_dataset(tmp_path / "data", {
        "blocksworld": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01, "p02": BLOCKS_P02}),
        "assembly": (BROKEN, {"p01": BROKEN_PROBLEM, "p02": BROKEN_PROBLEM}),
        "prefs": (BLOCKS_DOMAIN, {"p01": PREFERRING, "p02": BLOCKS_P01}),
    })
    first = {i.name: i.skip for i in dataset.scan_directory(root)}
    assert first["blocksworld/p01"] is None and first["blocksworld/p02"] is None and first["prefs/p02"] is None
    assert first["assembly/p01"].startswith("assembly/p01.pddl: unified-planning cannot read it: a type declared")
    assert first["assembly/p02"].startswith("assembly/p02.pddl: ")  # its own name, though the content is the same
    assert first["prefs/p01"] == "prefs/p01.pddl: unified-planning cannot read it: preferences in the problem"
    decided = (quick.count, full.count)
    # Quick: 4 contents (assembly's two are one). Full: blocksworld/p01; prefs/p01 fails, so every prefs task
    # (prefs/p02 is blocksworld/p01's content: decided already).
    assert decided == (4, 2)

    new_process()
    assert {i.name: i.skip for i in dataset.scan_directory(root)} == first
    assert (quick.count, full.count) == decided  # read from the cache, nothing parsed

    (root / "blocksworld" / "instances" / "p02.pddl").write_text(BLOCKS_P02.replace("(:init", "(:init (nonsense)"))
    new_process()
    edited = {i.name: i.skip for i in dataset.scan_directory(root)}
    assert edited["blocksworld/p02"].startswith("blocksworld/p02.pddl: unified-planning cannot read it: ")
    assert "nonsense" in edited["blocksworld/p02"]
    assert {k: v for k, v in edited.items() if k != "blocksworld/p02"} == {k: v for k, v in first.items()
                                                                         if k != "blocksworld/p02"}
    assert (quick.count, full.count) == (decided[0] + 1, decided[1])  # only the edited task decided again


def test_reading_a_task_parses_it_once_per_process(monkeypatch):
    parses = Calls(monkeypatch, reading, "_parse")
    reading._read.cache_clear()  # noqa: SLF001
    task = reading.read_task(BLOCKS_DOMAIN, BLOCKS_P01)
    assert reading.read_problem(BLOCKS_DOMAIN, BLOCKS_P01) is task.problem
    assert reading.read_task(BLOCKS_DOMAIN, BLOCKS_P01) is task
    assert dataset._full_check(BLOCKS_DOMAIN, BLOCKS_P01) is None  # noqa: SLF001 - collection's full check
    assert parses.count == 1


@pytest.mark.slow
def test_the_committed_manifest_carries_the_task_metrics_and_they_equal_a_fresh_computation(monkeypatch):
    manifest = dataset.load_manifest()
    assert manifest["task_metrics"] == action_space.manifest_stamp()
    for entry in manifest["instances"]:
        assert action_space.PAIRS in entry and action_space.LEGAL in entry, entry["name"]
    for name in ("blocksworld/p01", "blocksworld/p08", "counters/p01"):  # small ones: counted, past the limit
        entry = next(e for e in manifest["instances"] if e["name"] == name)
        instance = dataset.resolve(name)
        problem = reading.read_problem(*dataset.domain_problem(instance))
        assert entry[action_space.PAIRS] == action_space.state_action_space(problem)
        assert entry[action_space.LEGAL] == action_space.legal_actions_per_step(problem, entry["reference_plan"])


def test_the_suite_reads_a_committed_tasks_metrics_from_the_manifest(monkeypatch, cache):
    def never(*args, **kwargs):
        raise AssertionError("computed, not read from the manifest")

    monkeypatch.setattr(action_space, "state_action_space", never)
    monkeypatch.setattr(action_space, "legal_actions_per_step", never)
    entries = {e["name"]: e for e in dataset.load_manifest()["instances"]}
    for name in ("freecell/p20", "sokoban/p01", "blocksworld/p01"):
        instance = dataset.resolve(name)
        assert action_space.task_state_action_space(instance) == entries[name][action_space.PAIRS]
        assert action_space.task_legal_actions(instance) == entries[name][action_space.LEGAL]
    assert not cache.exists()  # nothing computed, nothing stored


def test_a_manifest_value_is_not_used_for_an_edited_task_or_another_metric_version(tmp_path, monkeypatch):
    pairs = Calls(monkeypatch, action_space, "state_action_space")
    root = tmp_path / "data"
    (root / "blocksworld").mkdir(parents=True)
    source = dataset.resolve("blocksworld/p01")
    (root / "blocksworld" / "instances").mkdir()
    (root / "blocksworld" / "domain.pddl").write_text(source.domain_path.read_text())
    (root / "blocksworld" / "instances" / "p01.pddl").write_text(source.problem_path.read_text())
    manifest = dataset.load_manifest()
    entry = dict(next(e for e in manifest["instances"] if e["name"] == "blocksworld/p01"))
    entry[action_space.PAIRS] = 7  # not its count: seen only if the manifest is used

    def instance(stamp):
        (root / "manifest.json").write_text(json.dumps({"task_metrics": stamp, "instances": [entry]}))
        action_space._manifest.cache_clear()  # noqa: SLF001
        new_process()
        [found] = dataset.scan_directory(root)
        return found

    assert action_space.task_state_action_space(instance(action_space.manifest_stamp())) == 7 and pairs.count == 0
    stale = {**action_space.manifest_stamp(), "version": action_space.METRICS_VERSION - 1}
    assert action_space.task_state_action_space(instance(stale)) == 42 and pairs.count == 1
    (root / "blocksworld" / "instances" / "p01.pddl").write_text(source.problem_path.read_text() + "\n")
    before = pairs.count
    assert action_space.task_state_action_space(instance(action_space.manifest_stamp())) == 42
    assert pairs.count == before + 1  # the file's sha256 is no longer the entry's: computed


@pytest.mark.slow  # two pytest runs in subprocesses
def test_a_second_run_over_the_same_pddl_dir_decides_nothing_again(pytester, tmp_path, monkeypatch):
    """The expensive steps count their calls into a file; the second run's records equal the first's, with none."""
    pytester.makepyfile(test_pddl=SUITE)
    pytester.makeconftest('''
import os
from stratbench.games.spin.metrics import action_space
from stratbench.games.spin.planning import dataset

def counted(module, name):
    original = getattr(module, name)
    def call(*args, **kwargs):
        with open(os.environ["CALLS_FILE"], "a") as out:
            out.write(name + "\\n")
        return original(*args, **kwargs)
    setattr(module, name, call)

for module, name in ((action_space, "state_action_space"), (action_space, "legal_actions_per_step"),
                     (dataset, "_quick_check"), (dataset, "_full_check")):
    counted(module, name)
''')
    data = write_dataset(pytester.path / "data", {
        "blocksworld": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01, "p02": BLOCKS_P02}),
        "assembly": (BROKEN, {"p01": BROKEN_PROBLEM}),
    })
    (data / "manifest.json").write_text(json.dumps({"instances": [
        {"name": "blocksworld/p01", "domain": "blocksworld", "instance": "p01",
         "reference_plan": BLOCKS_P01_PLAN.strip().splitlines()}]}))
    runs = []
    for number in (1, 2):
        calls = tmp_path / f"calls-{number}"
        monkeypatch.setenv("CALLS_FILE", str(calls))
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rs", "--pddl-dir", str(data),
                                               "--report-dir", f"reports-{number}")
        assert result.ret == 0, result.stdout.str()
        assert result.parseoutcomes() == {"scored": 2, "skipped": 1}
        rows = (pytester.path / f"reports-{number}" / "results.jsonl").read_text().splitlines()
        records = sorted((r["test_id"], r["status"], r.get("scores"), r.get("metrics"), r.get("metrics_not_computed"))
                         for r in map(json.loads, rows))
        runs.append((sorted(calls.read_text().split()) if calls.exists() else [], records))
    (first_calls, first), (second_calls, second) = runs
    # Quick: every task; full: blocksworld/p01 (it passes, so blocksworld/p02 needs none); Fig. 3a for the task with
    # a reference plan, Fig. 3b for both readable tasks.
    assert first_calls == ["_full_check", "_quick_check", "_quick_check", "_quick_check",
                           "legal_actions_per_step", "state_action_space", "state_action_space"]
    assert second_calls == [] and second == first
    metrics = {r[0]: r[3]["0"] for r in first if r[1] == "scored"}
    assert metrics["random_planner-blocksworld/p01-s0"]["legal_actions_per_step"] > 0
    assert metrics["random_planner-blocksworld/p01-s0"]["state_action_pairs"] == 42


def test_metrics_only_fills_the_manifest_and_drops_values_of_another_version(tmp_path):
    from stratbench.games.spin.planning.build_dataset import build_metrics

    root = write_dataset(tmp_path / "data", {"blocksworld": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01}),
                                             "prefs": (BLOCKS_DOMAIN, {"p01": BLOCKS_P02})})
    plan = BLOCKS_P01_PLAN.strip().splitlines()
    entries = [{"name": "blocksworld/p01", "domain": "blocksworld", "instance": "p01", "reference_plan": plan},
               {"name": "prefs/p01", "domain": "prefs", "instance": "p01", action_space.PAIRS: 7,
                action_space.LEGAL: 1.5}]
    stale = {**action_space.manifest_stamp(), "version": action_space.METRICS_VERSION - 1}
    (root / "manifest.json").write_text(json.dumps({"task_metrics": stale, "domains": {}, "instances": entries}))
    with pytest.raises(ValueError, match="no tasks of nowhere"):
        build_metrics(["nowhere"], root, log=lambda *_: None)
    build_metrics(["blocksworld"], root, log=lambda *_: None)
    written = json.loads((root / "manifest.json").read_text())
    assert written["task_metrics"] == action_space.manifest_stamp()
    by_name = {e["name"]: e for e in written["instances"]}
    problem = reading.read_problem(BLOCKS_DOMAIN, BLOCKS_P01)
    assert by_name["blocksworld/p01"][action_space.PAIRS] == action_space.state_action_space(problem)
    assert by_name["blocksworld/p01"][action_space.LEGAL] == action_space.legal_actions_per_step(problem, plan)
    # Computed under another version and not recomputed: dropped, not passed off as current.
    assert action_space.PAIRS not in by_name["prefs/p01"] and action_space.LEGAL not in by_name["prefs/p01"]
    assert [p.name for p in root.iterdir() if p.name.startswith(".")] == []  # no partial manifest left
