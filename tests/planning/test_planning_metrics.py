"""Planning aggregates on hand-made records: accuracy, N-step, groups, error breakdown."""

import pytest

from stratbench.games.spin.metrics.planning import (
    accuracy_by,
    error_breakdown,
    n_step,
    plan_accuracy,
    planning_summary,
    summaries_by_agent,
)


def record(valid, length=None, error_class=None, error=None, domain="blocksworld", category="sequential",
           tier="easy", agent="m+direct", game="pddl"):
    metrics = {"valid": valid, "reference_length": length, "error_class": error_class, "error": error,
               "domain": domain, "category": category, "tier": tier}
    return {"game": game, "subject": 0, "sides": [{"agent": agent}], "metrics": {"0": metrics}}


RECORDS = [
    record(True, 10, domain="blocksworld"),
    record(False, 30, "BC", "inapplicable_action", domain="blocksworld"),
    record(True, 4, domain="grid", category="spatial", tier="hard"),
    record(False, 6, "GS", "goal_not_satisfied", domain="grid", category="spatial", tier="hard"),
    record(False, 8, "Other", "parse_error", domain="grid", category="spatial"),
    record(False, 2, "BC", "unknown_object", domain="sugar", category="resource", tier="medium"),
    record(True, 100, game="tictactoe"),  # another game: ignored
]


def test_plan_accuracy_is_a_micro_average():
    # 2 valid of 6 tasks, although the per-domain mean would be (1/2 + 1/3 + 0) / 3.
    assert plan_accuracy(RECORDS) == pytest.approx(2 / 6)


def test_n_step_weights_solved_tasks_by_reference_length():
    assert n_step(RECORDS) == pytest.approx((10 + 4) / 6)


def test_n_step_leaves_out_tasks_without_a_reference_length():
    records = [record(True, 10), record(True, None), record(False, 5)]
    assert n_step(records) == pytest.approx(10 / 2)
    assert n_step([record(True, None)]) is None


def test_empty_input_gives_none():
    assert plan_accuracy([]) is None and n_step([]) is None
    assert error_breakdown([])["BC"] is None


def test_accuracy_per_domain_and_category():
    by_domain = accuracy_by(RECORDS, "domain")
    assert by_domain["blocksworld"] == {"tasks": 2, "valid": 1, "accuracy": 0.5}
    assert by_domain["grid"]["accuracy"] == pytest.approx(1 / 3)
    assert by_domain["sugar"]["accuracy"] == 0.0
    by_category = accuracy_by(RECORDS, "category")
    assert list(by_category) == ["resource", "sequential", "spatial"]
    assert by_category["spatial"]["tasks"] == 3


def test_missing_group_values_are_unknown():
    assert accuracy_by([record(True, tier=None)], "tier") == {"unknown": {"tasks": 1, "valid": 1, "accuracy": 1.0}}


def test_error_breakdown_shares_sum_to_one_with_accuracy():
    breakdown = error_breakdown(RECORDS)
    assert breakdown["tasks"] == 6
    assert breakdown["BC"] == pytest.approx(2 / 6)
    assert breakdown["GS"] == pytest.approx(1 / 6)
    assert breakdown["Other"] == pytest.approx(1 / 6)
    assert breakdown["valid"] + breakdown["BC"] + breakdown["GS"] + breakdown["Other"] == pytest.approx(1.0)
    assert breakdown["errors"] == {
        "goal_not_satisfied": 1, "inapplicable_action": 1, "parse_error": 1, "unknown_object": 1,
    }


def test_summaries_by_agent_split_the_records():
    records = RECORDS + [record(True, 3, agent="planner")]
    summaries = summaries_by_agent(records)
    assert sorted(summaries) == ["m+direct", "planner"]
    assert summaries["planner"]["plan_accuracy"] == 1.0 and summaries["planner"]["n_step"] == 3.0
    assert summaries["m+direct"] == planning_summary(RECORDS)


def test_a_task_whose_states_cannot_be_computed_is_left_out_of_the_state_action_space(tmp_path):
    """An effect reading a numeric fluent the task never assigns (VAL allows it until read): not enumerated."""
    from types import SimpleNamespace

    from stratbench.games.spin.metrics.action_space import task_state_action_space
    from wild_toys import UNDEFINED_DOMAIN, UNDEFINED_PROBLEM

    (tmp_path / "domain.pddl").write_text(UNDEFINED_DOMAIN)
    (tmp_path / "p01.pddl").write_text(UNDEFINED_PROBLEM)
    instance = SimpleNamespace(domain_path=str(tmp_path / "domain.pddl"), problem_path=str(tmp_path / "p01.pddl"))
    assert task_state_action_space(instance) is None
