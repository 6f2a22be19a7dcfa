"""The planning suite end to end: --pddl-dir, skips, the planner ceiling, an LLM through the fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from planning_toys import BLOCKS_DOMAIN, BLOCKS_P01, BLOCKS_P01_PLAN, write_dataset
from stratbench.games.spin.metrics.planning import summaries_by_agent
from wild_toys import WILD_TASKS

SUITE = (Path(__file__).resolve().parents[2] / "suites" / "spin" / "test_pddl.py").read_text()
BROKEN = """(define (domain d) (:requirements :typing) (:types a b - object c - (either a b))
 (:predicates (at ?x - c)) (:action go :parameters (?x - c) :precondition (at ?x) :effect (not (at ?x))))"""


def records(pytester):
    path = pytester.path / "reports" / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def make_dataset(pytester) -> Path:
    problem = "(define (problem p) (:domain d) (:objects o - c) (:init (at o)) (:goal (not (at o))))"
    return write_dataset(
        pytester.path / "data",
        {
            "blocksworld": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01}),
            "assembly": (BROKEN, {"p01": problem, "p02": problem}),
        },
    )


@pytest.mark.slow
def test_planner_scores_every_readable_task_and_unreadable_domains_are_skipped(pytester):
    pytester.makepyfile(test_pddl=SUITE)
    data = make_dataset(pytester)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rs", "-v", "--pddl-dir", str(data), "--stratbench-agent", "planner",
        "--report-dir", "reports",
    )
    result.stdout.fnmatch_lines([
        "*test_pddl?planner-blocksworld/p01-s0? SCORE 1.00*",
        "*SKIPPED [[]2[]] test_pddl.py:*assembly/p01.pddl: unified-planning cannot read it: a type declared as a "
        "subtype of an 'either' type*",
        "*SKIPPED [[]2[]] test_pddl.py:*assembly/p02.pddl: unified-planning cannot read it: *",
    ])
    assert result.ret == 0, result.stdout.str()
    result.assert_outcomes(skipped=4)  # 2 instances x 2 subjects (planner, random_planner)
    by_agent = {r["sides"][0]["agent"]: r for r in records(pytester)}
    planner = by_agent["planner"]["metrics"]["0"]
    assert planner["valid"] and planner["task"] == "blocksworld/p01" and planner["category"] == "sequential"
    assert by_agent["planner"]["scores"] == [1.0]
    floor = by_agent["random_planner"]["metrics"]["0"]
    assert floor["error"] in (None, "goal_not_satisfied")


@pytest.mark.slow
def test_a_model_gets_the_e1_prompt_once_and_its_plan_is_validated(pytester, fake_llm):
    pytester.makepyfile(test_pddl=SUITE)
    tasks = {"blocksworld": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01, "p02": BLOCKS_P01})}
    data = write_dataset(pytester.path / "data", tasks)
    plans = iter([BLOCKS_P01_PLAN, "(unstack a b)"])

    def responder(body):
        return "Reasoning: ...\n$$\n" + json.dumps({"plan": next(plans)}) + "\n$$"

    fake_llm.responder = responder
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-v", "--pddl-dir", str(data), "--model", "openai/m", "--api-base",
        fake_llm.api_base, "--record-mode=once", "--stratbench-cassette-dir", str(pytester.path / "cassettes"),
        "--report-dir", "reports", "-k", "openai",
        "--stratbench-concurrency", "1",  # the responder answers in request order: p01's plan, then p02's
    )
    assert result.ret == 0, result.stdout.str()
    assert len(fake_llm.requests) == 2  # single-shot: one request per task, no retry
    prompt = fake_llm.requests[0].body["messages"][-1]["content"]
    assert prompt.startswith("Solve this planning problem:") and BLOCKS_P01.strip() in prompt
    metrics = {r["variant"]: r["metrics"]["0"] for r in records(pytester)}
    assert metrics["blocksworld/p01"]["valid"] is True
    failed = metrics["blocksworld/p02"]
    assert (failed["valid"], failed["error"], failed["error_class"]) == (False, "goal_not_satisfied", "GS")
    assert failed["unmet"] == ["(on b c)", "(on a b)"]


@pytest.mark.slow
def test_tasks_in_constructs_unified_planning_refused_play_under_pddl_dir_and_are_counted(pytester):
    pytester.makepyfile(test_pddl=SUITE)
    data = write_dataset(
        pytester.path / "wild", {name: (domain, {"p01": problem}) for name, (domain, problem, _) in WILD_TASKS.items()}
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rs", "-v", "--pddl-dir", str(data), "--stratbench-agent", "planner",
        "--report-dir", "reports",
    )
    assert result.ret == 0, result.stdout.str()
    played = records(pytester)
    assert len(played) == 2 * len(WILD_TASKS)  # the planner and the random_planner floor, on every task
    planner = {r["variant"]: r for r in played if r["sides"][0]["agent"] == "planner"}
    assert sorted(planner) == sorted(f"{name}/p01" for name in WILD_TASKS)
    assert all(r["scores"] == [1.0] and r["metrics"]["0"]["valid"] for r in planner.values())
    # The record says what the reader changed; a task read as written says nothing.
    assert planner["dotted/p01"]["metrics"]["0"]["normalised"][0].startswith("renamed 3 objects")
    assert planner["undefined-numeric/p01"]["metrics"]["0"]["normalised"] == []
    assert planner["derived/p01"]["metrics"]["0"]["normalised"][0].startswith("compiled away 4 derived predicates")
    # The plan was given in the names the task is written in.
    transcript = pytester.path / "reports" / planner["dotted/p01"]["transcript"]
    assert "(move c0.0 c0.1)" in transcript.read_text() and "(move c0.1 c1/1)" in transcript.read_text()
    report = (pytester.path / "reports" / "report.md").read_text()
    # Plan validity is never averaged into the win-share overall.
    assert f"| planner | – | 1.00 ({len(WILD_TASKS)}) |" in report
    n = len(WILD_TASKS)
    assert f"| planner | run | {n} | {n} | 0 | 0 | 100.00 |" in report  # the planning section counts every task
    summary = summaries_by_agent(played)["planner"]
    assert (summary["tasks"], summary["plan_accuracy"]) == (len(WILD_TASKS), 1.0)


@pytest.mark.slow
def test_the_paper_protocol_reads_only_the_dollar_json_under_pddl_dir(pytester, fake_llm):
    pytester.makepyfile(test_pddl=SUITE)
    problems = {name: BLOCKS_P01.replace("toy-p01", f"toy-{name}") for name in ("p01", "p02", "p03")}
    data = write_dataset(pytester.path / "data", {"blocksworld": (BLOCKS_DOMAIN, problems)})
    answers = {"p01": "Reasoning: ...\n$$\n" + json.dumps({"plan": BLOCKS_P01_PLAN}) + "\n$$",
               "p02": "Plan:\n```\n" + BLOCKS_P01_PLAN + "\n```",  # the default would read it
               "p03": "$$ " + json.dumps({"plan": BLOCKS_P01_PLAN}) + " $$"}  # no newline after the first $$

    def responder(body):
        return answers[body["messages"][-1]["content"].split("(define (problem toy-")[1].split(")")[0]]

    fake_llm.responder = responder
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-v", "--pddl-dir", str(data), "--model", "openai/m", "--api-base",
        fake_llm.api_base, "--record-mode=once", "--stratbench-cassette-dir", str(pytester.path / "cassettes"),
        "--report-dir", "reports", "-k", "openai", "--protocol", "paper",
    )
    assert result.ret == 0, result.stdout.str()
    assert len(fake_llm.requests) == 3  # single-shot under the paper protocol too
    assert {r.body["messages"][0]["content"] for r in fake_llm.requests} == {
        "You are a helpful, creative, and smart assistant."}
    by_task = {r["variant"]: r for r in records(pytester)}
    assert {r["protocol"] for r in by_task.values()} == {"paper"}
    assert by_task["blocksworld/p01"]["scores"] == [1.0] and by_task["blocksworld/p01"]["metrics"]["0"]["valid"]
    for unreadable in ("blocksworld/p02", "blocksworld/p03"):
        metrics = by_task[unreadable]["metrics"]["0"]
        assert by_task[unreadable]["scores"] == [0.0]
        assert (metrics["valid"], metrics["error"], metrics["error_class"]) == (False, "parse_error", "Other")


@pytest.mark.slow
def test_tasks_the_planner_errors_on_count_as_not_valid_and_skipped_ones_beside_in_the_report(pytester):
    from wild_toys import DERIVED_DOMAIN, DERIVED_PROBLEM

    pytester.makepyfile(test_pddl=SUITE)
    unreachable = BLOCKS_P01.replace("toy-p01", "toy-p02").replace("(and (on b c) (on a b))", "(on a a)")
    recursive = DERIVED_DOMAIN.replace(  # negated in its own recursion: not stratified, so unread
        "(:derived (low ?x - block) (ontable ?x))",
        "(:derived (low ?x - block) (not (exists (?z - block) (and (on ?x ?z) (low ?z)))))",
    )
    data = write_dataset(pytester.path / "data", {
        "blocksworld": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01, "p02": unreachable}),
        "recursive": (recursive, {"p01": DERIVED_PROBLEM}),
    })
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rs", "--pddl-dir", str(data), "--stratbench-agent", "planner",
        "--report-dir", "reports", "-k", "planner and not random",
    )
    planner = {r["variant"]: r for r in records(pytester) if r["sides"][0]["agent"] == "planner"}
    assert {v: r["status"] for v, r in planner.items()} == {
        "blocksworld/p01": "scored", "blocksworld/p02": "errored", "recursive/p01": "skipped"}, result.stdout.str()
    assert "no planner among" in planner["blocksworld/p02"]["reason"]
    report = (pytester.path / "reports" / "report.md").read_text()
    # 1 valid of 2 tasks (the errored one counts as not valid); the skipped one is beside, in no denominator.
    assert "| planner | run | 2 | 1 | 1 | 1 | 50.00 |" in report
    assert "| planner | blocksworld | sequential | 2 | 1 | 1 | 0 | 50.00 |" in report
    assert "| planner | recursive | unknown | 0 | 0 | 0 | 1 | – |" in report
    assert "| planner | run | 50.00 | – |" in report  # SPIN-Bench Table 1, every column: the same Plan Acc
