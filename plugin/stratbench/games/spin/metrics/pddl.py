"""Per-match metrics of the ``pddl`` game: the plan's verdict and the task's facts.

The aggregates (Plan Accuracy, N-step, accuracy per domain and category,
error breakdown) are in :mod:`stratbench.games.spin.metrics.planning`.
"""

from __future__ import annotations

from typing import Any

from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome
from stratbench.core.types import Action
from stratbench.match.metric_budget import MetricTimeout, budget

__all__ = ["plan_validity"]


def plan_validity(game: Game, outcome: MatchOutcome, seed: int) -> dict[int, dict[str, Any]]:
    """Returns, for the planner (player 0), the verdict on its plan and the task's facts.

    Keys: ``valid``, ``error`` (None, ``parse_error``, ``no_answer``,
    ``unknown_action``, ``unknown_object``, ``wrong_arity``,
    ``type_mismatch``, ``inapplicable_action``, ``goal_not_satisfied``),
    ``error_class`` (None, ``BC``, ``GS``, ``Other``), ``reason``,
    ``plan_length``, ``failed_step``, ``unmet``, ``answer_form``,
    ``reference_length`` (S_i), ``legal_actions_per_step`` (mean applicable
    actions along the reference plan, SPIN-Bench Fig. 3a; None without a
    reference plan), ``state_action_pairs`` (the reachable state–action
    pairs, Fig. 3b; None past :data:`~stratbench.games.spin.metrics.action_space.STATE_LIMIT`
    states, and None, named in the record's ``metrics_not_computed`` with the
    reason, when the enumeration ran past the metric's time budget), ``task``, ``domain``, ``category``, ``tier``,
    ``normalised`` (the changes the reader made so unified-planning reads
    the task, one line each; empty for a task read as written).
    A forfeit (no answer at all) is ``no_answer``, class Other; under the
    paper protocol a forfeit means the released reader could not read the
    answer: ``parse_error``, class Other too.
    """
    from stratbench.games.spin.metrics.action_space import (  # lean: loads the planning stack
        task_legal_actions,
        task_state_action_space,
    )
    from stratbench.games.spin.planning.validation import PlanCheck  # lean: loads the planning stack

    instance = getattr(game, "instance", None)
    answer = _answer(outcome)
    if answer is None and getattr(game, "protocol", "default") == "paper" and outcome.forfeited_by == 0:
        reason = f"no $$ ... $$ JSON plan the released reader can read ({outcome.terminal})"
        check = PlanCheck(False, "parse_error", reason)
    elif answer is None:
        check = PlanCheck(False, "no_answer", f"no answer ({outcome.terminal})")
    else:
        check = game.check(answer)  # type: ignore[attr-defined]  # memoised: no second validation
    try:
        state_action_pairs = task_state_action_space(instance)
    except MetricTimeout as error:  # the match still scores: only Fig. 3b's count is missing, with why
        state_action_pairs = None
        budget().not_computed["state_action_pairs"] = str(error)
    return {
        0: {
            "valid": check.valid,
            "error": check.error,
            "error_class": check.error_class,
            "reason": check.reason,
            "plan_length": check.plan_length,
            "failed_step": check.step,
            "unmet": list(check.unmet),
            "answer_form": check.form,
            "reference_length": getattr(instance, "reference_length", None),
            "legal_actions_per_step": task_legal_actions(instance),
            "state_action_pairs": state_action_pairs,
            "task": getattr(instance, "name", None),
            "domain": getattr(instance, "domain", None),
            "category": getattr(instance, "category", None),
            "tier": getattr(instance, "tier", None),
            "normalised": list(getattr(game, "normalisation", ())),
        }
    }


def _answer(outcome: MatchOutcome) -> str | None:
    for joint in outcome.history:
        text = joint.get(0)
        if text is not None:
            action = Action.from_text(text)
            if action.id == "plan":
                return action.response
    return None
