"""SPIN-Bench planning metrics as pure functions over result records.

Every function takes result records (``results.jsonl`` lines) and reads the
per-match planning metrics in ``record["metrics"]["0"]`` (written by
:func:`stratbench.games.spin.metrics.pddl.plan_validity`): ``valid``,
``reference_length``, ``error_class``, ``error``, ``domain``, ``category``,
``tier``. Records of other games are ignored.

* **Plan Accuracy** is a micro-average: valid plans over all tasks (SPIN-Bench
  reports k/1280; it is not a mean of per-domain accuracies).
* **N-step look-ahead** is ``sum(C_i * S_i) / N`` (SPIN-Bench Appendix B.2).
  The paper does not define S_i beyond "the required number of steps"; we
  define it as the length of the dataset's reference plan (found by a
  planner, recorded in the manifest). Tasks without a reference length (an
  external dataset without a manifest) are left out of N-step.
* **Error breakdown** gives BC, GS and Other as shares of all tasks (Table 2),
  so accuracy + BC + GS + Other = 1.

**Tasks that errored or were skipped.** A task whose match errored (the
model's provider or the harness failed, so no plan was judged) produced no
plan, and SPIN-Bench counts a task without a valid plan as not correct over
all its tasks (its denominator is the 1,280 tasks, and an answer it could not
read is still a failed task): so an errored task counts in every denominator
here as not valid (C_i = 0 in N-step), in a class of its own, ``errored``
(accuracy + BC + GS + Other + errored = 1). A skipped task was never posed
(unified-planning could not read it, or the run left it out): it counts in
no denominator and is only counted beside (``skipped``). The functions take
these records as ``unscored``; without them the results are as before.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from stratbench.games.spin.planning.dataset import CATEGORIES
from stratbench.report.unplayed import UNPLAYED, subject_agent
from stratbench.run.results import ERRORED, SKIPPED, status_of

__all__ = [
    "PAPER_RESULTS",
    "PAPER_TASKS",
    "accuracy_by",
    "action_space_by_domain",
    "by_domain",
    "detailed_errors",
    "error_breakdown",
    "n_step",
    "plan_accuracy",
    "planning_rows",
    "pearson",
    "planning_summary",
    "spearman",
    "state_action_space_by_domain",
    "summaries_by_agent",
    "unplayed_tasks",
]

GAME = "pddl"
ERROR_CLASSES = ("BC", "GS", "Other")
PAPER_TASKS = 1280
PAPER_RESULTS: dict[str, tuple[float, float, float | None, float | None, float | None]] = {
    "o1": (58.59, 16.09, 17.97, 17.89, 5.55),
    "o4-mini": (46.79, 11.52, None, None, None),
    "o3-mini": (51.25, 13.04, None, None, None),
    "DeepSeek R1": (44.30, 10.71, 48.28, 3.65, 1.87),
    "Claude 3.5 Sonnet": (20.55, 4.44, 28.59, 44.77, 6.09),
    "o1-mini": (13.20, 1.95, 68.91, 5.94, 11.95),
    "Llama4 Maverick": (13.05, 1.69, None, None, None),
    "GPT-4o": (8.75, 0.60, 81.56, 3.59, 6.09),
    "Llama-3.3-70b": (5.78, 0.32, None, None, None),
    "GPT-4-turbo": (5.62, 0.13, None, None, None),
    "Claude 3.5 Haiku": (4.22, 0.30, 72.03, 15.23, 1.76),
}
"""SPIN-Bench's published numbers over its 1,280 tasks: Plan Acc (%) and N-Step (Table 1), BC, GS, Other (%)
(Table 2; None where the paper gives no breakdown). The paper's Haiku and R1 rows do not sum to 100."""


def unplayed_tasks(unscored: Iterable[dict[str, Any]]) -> list[dict[str, str]]:
    """Returns ``{"agent", "domain", "status"}`` for each errored or skipped ``pddl`` record.

    Examples:
        >>> unplayed_tasks([{"game": "pddl", "status": "errored", "variant": "grid/p01", "sides": [{"agent": "m"}]}])
        [{'agent': 'm', 'domain': 'grid', 'status': 'errored'}]
    """
    return [
        {"agent": subject_agent(record), "domain": str(record.get("variant") or "unknown").split("/")[0],
         "status": status_of(record)}
        for record in unscored if record.get("game") == GAME and status_of(record) in UNPLAYED
    ]


def _count(tasks: list[dict[str, str]], status: str) -> int:
    return sum(1 for task in tasks if task["status"] == status)


def planning_rows(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Returns the per-match planning metrics of the ``pddl`` records, in order."""
    rows = []
    for record in records:
        if record.get("game") != GAME:
            continue
        metrics = record.get("metrics", {}).get("0")
        if metrics is not None:
            rows.append(metrics)
    return rows


def plan_accuracy(records: Iterable[dict[str, Any]], errored: int = 0) -> float | None:
    """Returns the share of tasks with a valid plan (micro-average), or None if no tasks.

    ``errored`` tasks (no plan judged) count as tasks without a valid plan.

    Examples:
        >>> recs = [{"game": "pddl", "metrics": {"0": {"valid": v}}} for v in (True, False, False, True)]
        >>> plan_accuracy(recs)
        0.5
        >>> plan_accuracy(recs, errored=4)
        0.25
    """
    rows = planning_rows(records)
    if not rows and not errored:
        return None
    return sum(1 for r in rows if r.get("valid")) / (len(rows) + errored)


def n_step(records: Iterable[dict[str, Any]], errored: int = 0) -> float | None:
    """Returns SPIN-Bench's N-step look-ahead, ``sum(C_i * S_i) / N``.

    S_i is the task's reference plan length; tasks without one are left out
    of both the sum and N. Returns None if no task has one. ``errored``
    tasks (whose S_i their records do not carry) count in N with C_i = 0.

    Examples:
        >>> recs = [{"game": "pddl", "metrics": {"0": {"valid": v, "reference_length": s}}}
        ...         for v, s in ((True, 10), (False, 30), (True, 4), (False, 6))]
        >>> n_step(recs)
        3.5
    """
    rows = [r for r in planning_rows(records) if r.get("reference_length") is not None]
    if not rows:
        return None
    return sum(r["reference_length"] for r in rows if r.get("valid")) / (len(rows) + errored)


def accuracy_by(records: Iterable[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    """Returns ``{value: {"tasks", "valid", "accuracy"}}`` grouped by a metric (``domain``, ``category``, ``tier``).

    Tasks whose ``key`` is missing are grouped under ``"unknown"``.
    """
    groups: dict[str, list[bool]] = {}
    for row in planning_rows(records):
        groups.setdefault(str(row.get(key) or "unknown"), []).append(bool(row.get("valid")))
    return {
        value: {"tasks": len(flags), "valid": sum(flags), "accuracy": sum(flags) / len(flags)}
        for value, flags in sorted(groups.items())
    }


def error_breakdown(records: Iterable[dict[str, Any]], errored: int = 0) -> dict[str, Any]:
    """Returns SPIN-Bench's error classes as shares of all tasks, and the detailed error counts.

    Returns:
        ``{"tasks", "valid", "BC", "GS", "Other", "errored", "errors"}``: the
        shares of valid plans, of each class and of ``errored`` tasks over all
        tasks, errored ones included (None if no tasks), and a count per
        detailed error (``inapplicable_action``, ...).
    """
    rows = planning_rows(records)
    classes = Counter(r.get("error_class") for r in rows if not r.get("valid"))
    errors = Counter(str(r.get("error")) for r in rows if not r.get("valid"))
    total = len(rows) + errored

    def share(count: int) -> float | None:
        return count / total if total else None

    return {
        "tasks": total,
        "valid": share(sum(1 for r in rows if r.get("valid"))),
        **{name: share(classes.get(name, 0)) for name in ERROR_CLASSES},
        "errored": share(errored),
        "errors": dict(sorted(errors.items())),
    }


def planning_summary(records: Iterable[dict[str, Any]], unscored: Iterable[dict[str, Any]] = ()) -> dict[str, Any]:
    """Returns every planning aggregate for one set of records (one agent's, typically).

    ``tasks`` counts the scored and the errored tasks (the denominator);
    ``errored`` and ``skipped`` count those in ``unscored``.
    """
    records = list(records)
    unplayed = unplayed_tasks(unscored)
    errored = _count(unplayed, ERRORED)
    return {
        "tasks": len(planning_rows(records)) + errored,
        "valid": sum(1 for r in planning_rows(records) if r.get("valid")),
        "errored": errored,
        "skipped": _count(unplayed, SKIPPED),
        "plan_accuracy": plan_accuracy(records, errored),
        "n_step": n_step(records, errored),
        "n_step_tasks": sum(1 for r in planning_rows(records) if r.get("reference_length") is not None),
        "by_domain": accuracy_by(records, "domain"),
        "by_category": accuracy_by(records, "category"),
        "by_tier": accuracy_by(records, "tier"),
        "errors": error_breakdown(records, errored),
    }


def _by_agent(records: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if record.get("game") != GAME or record.get("metrics", {}).get("0") is None:
            continue
        agent = record["sides"][record.get("subject", 0)]["agent"]
        grouped.setdefault(agent, []).append(record)
    return dict(sorted(grouped.items()))


def summaries_by_agent(
    records: Iterable[dict[str, Any]], unscored: Iterable[dict[str, Any]] = ()
) -> dict[str, dict[str, Any]]:
    """Returns :func:`planning_summary` per subject agent label (an agent with only errored or skipped tasks too)."""
    groups = _by_agent(records)
    unplayed = _unplayed_by_agent(unscored)
    return {agent: planning_summary(groups.get(agent, []), unplayed.get(agent, []))
            for agent in sorted({*groups, *unplayed})}


def _unplayed_by_agent(unscored: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for record in unscored:
        if record.get("game") == GAME:
            grouped.setdefault(subject_agent(record), []).append(record)
    return grouped


def by_domain(
    records: Iterable[dict[str, Any]], unscored: Iterable[dict[str, Any]] = ()
) -> dict[str, dict[str, dict[str, Any]]]:
    """Returns, per agent and domain: ``category``, ``tasks`` (scored and errored), ``valid``, ``errored``,
    ``skipped``, ``plan_accuracy``, ``n_step``, ``BC``, ``GS``, ``Other`` and ``errored_share`` (shares of the
    domain's tasks; N-step over the domain's tasks)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    groups = _by_agent(records)
    unplayed = {agent: unplayed_tasks(group) for agent, group in _unplayed_by_agent(unscored).items()}
    for agent in sorted({*groups, *unplayed}):
        domains: dict[str, list[dict[str, Any]]] = {}
        for record in groups.get(agent, []):
            domains.setdefault(str(record["metrics"]["0"].get("domain") or "unknown"), []).append(record)
        missing: dict[str, list[dict[str, str]]] = {}
        for task in unplayed.get(agent, []):
            missing.setdefault(task["domain"], []).append(task)
        for domain in sorted({*domains, *missing}):
            tasks = domains.get(domain, [])
            errored = _count(missing.get(domain, []), ERRORED)
            errors = error_breakdown(tasks, errored)
            categories = {str(r["metrics"]["0"].get("category") or "unknown") for r in tasks} \
                or {CATEGORIES.get(domain.lower(), "unknown")}
            out.setdefault(agent, {})[domain] = {
                "category": ", ".join(sorted(categories)),
                "tasks": errors["tasks"],
                "valid": sum(1 for r in planning_rows(tasks) if r.get("valid")),
                "errored": errored,
                "skipped": _count(missing.get(domain, []), SKIPPED),
                "plan_accuracy": errors["valid"],
                "n_step": n_step(tasks, errored),
                **{name: errors[name] for name in ERROR_CLASSES},
                "errored_share": errors["errored"],
            }
    return out


def detailed_errors(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Returns, per agent, how many failed tasks got each detailed verdict (``goal_not_satisfied``, ...)."""
    return {agent: error_breakdown(group)["errors"] for agent, group in _by_agent(records).items()}


def action_space_by_domain(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Returns, per agent and domain, ``tasks``, ``plan_accuracy`` and the mean ``legal_actions`` per step.

    Only tasks with a ``legal_actions_per_step`` count (SPIN-Bench Fig. 3a plots
    accuracy against it per domain).
    """
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for agent, group in _by_agent(records).items():
        domains: dict[str, list[dict[str, Any]]] = {}
        for row in planning_rows(group):
            if row.get("legal_actions_per_step") is not None:
                domains.setdefault(str(row.get("domain") or "unknown"), []).append(row)
        for domain, rows in sorted(domains.items()):
            out.setdefault(agent, {})[domain] = {
                "tasks": len(rows),
                "plan_accuracy": sum(1 for r in rows if r.get("valid")) / len(rows),
                "legal_actions": sum(float(r["legal_actions_per_step"]) for r in rows) / len(rows),
            }
    return out


def state_action_space_by_domain(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Returns, per agent and domain, ``tasks``, ``plan_accuracy`` and ``log10_pairs``, the mean log10 of the tasks'
    reachable state–action pairs (SPIN-Bench Fig. 3b).

    Only tasks with a ``state_action_pairs`` count (not too large to enumerate, at least one pair) count.

    Examples:
        >>> rows = [{"game": "pddl", "sides": [{"agent": "a"}], "metrics": {"0": {"domain": "d", "valid": v,
        ...          "state_action_pairs": n}}} for v, n in ((True, 10), (False, 1000), (True, None))]
        >>> state_action_space_by_domain(rows)
        {'a': {'d': {'tasks': 2, 'plan_accuracy': 0.5, 'log10_pairs': 2.0}}}
    """
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for agent, group in _by_agent(records).items():
        domains: dict[str, list[dict[str, Any]]] = {}
        for row in planning_rows(group):
            if row.get("state_action_pairs"):
                domains.setdefault(str(row.get("domain") or "unknown"), []).append(row)
        for domain, rows in sorted(domains.items()):
            out.setdefault(agent, {})[domain] = {
                "tasks": len(rows),
                "plan_accuracy": sum(1 for r in rows if r.get("valid")) / len(rows),
                "log10_pairs": sum(math.log10(r["state_action_pairs"]) for r in rows) / len(rows),
            }
    return out


def pearson(xs: list[float], ys: list[float]) -> float | None:
    """Returns Pearson's correlation of two equally long lists, or None if either is constant or has < 2 values.

    Examples:
        >>> pearson([1, 2, 3], [6, 4, 2])
        -1.0
    """
    n = len(xs)
    if n < 2 or n != len(ys):
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sxy / (sxx * syy) ** 0.5


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1  # ties share their mean rank
        start = end + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Returns Spearman's rank correlation (Pearson's on mean ranks), or None as :func:`pearson`.

    Examples:
        >>> spearman([1, 2, 30], [5, 4, 1])
        -1.0
    """
    if len(xs) != len(ys):
        return None
    return pearson(_ranks(xs), _ranks(ys))
