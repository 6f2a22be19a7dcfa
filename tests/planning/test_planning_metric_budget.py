"""A metric's time budget: the state–action-space enumeration stops inside a slow state; the match still scores."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from planning_toys import write_dataset

from stratbench.match.score import score_match
from stratbench.match.metric_budget import MetricTimeout, budget
from stratbench.games.spin.metrics.action_space import state_action_space
from stratbench.games.spin.planning.reading import read_task
from stratbench.registry import Registry

SUITE = (Path(__file__).resolve().parents[2] / "suites" / "spin" / "test_pddl.py").read_text()

ARITY, OBJECTS = 6, 12
_PARAMS = " ".join(f"?p{i}" for i in range(ARITY))
SLOW_DOMAIN = f"""(define (domain wide) (:requirements :strips :typing) (:types obj)
 (:predicates (done ?a - obj) (link {" ".join(f"?p{i} - obj" for i in range(ARITY))}))
 (:action touch :parameters ({_PARAMS} - obj) :precondition (link {_PARAMS}) :effect (done ?p0)))"""
"""One action of six parameters whose one precondition binds them all: listing a state's applicable actions
tries every one of 12^6 (about three million) groundings, minutes per state."""
SLOW_PROBLEM = f"""(define (problem p01) (:domain wide) (:objects {" ".join(f"o{i}" for i in range(OBJECTS))} - obj)
 (:init (link {" ".join(["o0"] * ARITY)})) (:goal (done o0)))"""
SLOW_PLAN = f"(touch {' '.join(['o0'] * ARITY)})"
"""The one-step plan that solves it. Only two states are reachable: the enumeration is slow, not large."""

REASON = ("the state–action space (Fig. 3b) not computed: it ran past the 1 s metric budget "
          "(--stratbench-metric-timeout)")


def test_the_enumeration_stops_inside_one_state_when_its_budget_is_spent():
    """Two states in all: the stop cannot come from the check between states, only from the one inside a state."""
    from stratbench.match.metric_budget import MetricBudget

    ticks = itertools.count()
    spent = MetricBudget(1.0, clock=lambda: next(ticks) * 0.001)  # 1 ms per look at the clock: 1000 looks
    with pytest.raises(MetricTimeout, match=r"^the state–action space \(Fig\. 3b\) not computed: it ran past the "
                                            r"1 s metric budget \(--stratbench-metric-timeout\)$"):
        state_action_space(read_task(SLOW_DOMAIN, SLOW_PROBLEM).problem, budget=spent)
    assert 1000 < next(ticks) < 1010  # it stopped at the first look past the budget, far short of 12^6 groundings


def test_time_spent_waiting_for_unified_plannings_lock_is_not_the_enumerations():
    """Another match planning with the lock for longer than the budget does not leave this task uncounted."""
    from planning_toys import BLOCKS_DOMAIN, BLOCKS_P01

    from stratbench.match.metric_budget import MetricBudget

    readings = iter([0.0])  # the metric starts at 0 s; it gets the lock at 5 s, past its 1 s budget
    waited = MetricBudget(1.0, clock=lambda: next(readings, 5.0))
    assert state_action_space(read_task(BLOCKS_DOMAIN, BLOCKS_P01).problem, budget=waited) > 0


def test_a_metric_out_of_time_is_named_with_its_reason_and_the_others_still_count():
    def slow(game, outcome, seed):
        while True:
            budget().check("the slow metric")

    registry = Registry()
    registry.metrics["g"] = {"fast": lambda game, outcome, seed: {0: {"moves": 3}}, "slow": slow}
    game = SimpleNamespace(info=SimpleNamespace(name="g"))
    metrics, not_computed = score_match(registry, game, None, 0, {}, timeout_s=0.2)
    assert metrics == {"0": {"moves": 3}}
    assert not_computed == {"slow": "the slow metric not computed: it ran past the 0.2 s metric budget "
                                    "(--stratbench-metric-timeout)"}


@pytest.mark.slow  # a pytest run in a subprocess, with a metric budget of 1 s
def test_a_slow_state_action_space_is_not_computed_and_the_match_scores(pytester, fake_llm):
    pytester.makepyfile(test_pddl=SUITE)
    data = write_dataset(pytester.path / "data", {"wide": (SLOW_DOMAIN, {"p01": SLOW_PROBLEM})})
    fake_llm.responder = lambda body: "$$\n" + json.dumps({"plan": SLOW_PLAN}) + "\n$$"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-v", "--pddl-dir", str(data), "--model", "openai/m", "--api-base",
        fake_llm.api_base, "--report-dir", "reports", "-k", "openai", "--stratbench-metric-timeout", "1",
    )
    assert result.ret == 0, result.stdout.str()
    results = pytester.path / "reports/results.jsonl"
    [record] = [json.loads(line) for line in results.read_text().splitlines()]
    assert (record["status"], record["scores"]) == ("scored", [1.0])
    metrics = record["metrics"]["0"]
    assert metrics["valid"] is True and metrics["state_action_pairs"] is None
    assert record["metrics_not_computed"] == {"state_action_pairs": REASON}
    # Listing the first state's actions alone takes minutes; the match, its scoring included, was recorded
    # (the record written) well before that: loosely, within a minute of its start.
    assert results.stat().st_mtime - record["started_at"] < 60
    report = (pytester.path / "reports/report.md").read_text()
    assert f"| openai/m+direct | wide/p01 | {REASON} |" in report  # under Fig. 3b, where the count would be
    assert f"1 metric value(s) not computed within their time budget, their matches scored without them " \
           f"({record['match_id']}: {REASON})." in report
