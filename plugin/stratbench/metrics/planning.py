"""SPIN-Bench planning metrics as pure functions over result records.

Every function takes result records (``results.jsonl`` lines) and reads the
per-match planning metrics in ``record["metrics"]["0"]`` (written by
:func:`stratbench.metrics.pddl.plan_validity`): ``valid``,
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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

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


def plan_accuracy(records: Iterable[dict[str, Any]]) -> float | None:
    """Returns the share of tasks with a valid plan (micro-average), or None if no tasks.

    Examples:
        >>> recs = [{"game": "pddl", "metrics": {"0": {"valid": v}}} for v in (True, False, False, True)]
        >>> plan_accuracy(recs)
        0.5
    """
    rows = planning_rows(records)
    if not rows:
        return None
    return sum(1 for r in rows if r.get("valid")) / len(rows)


def n_step(records: Iterable[dict[str, Any]]) -> float | None:
    """Returns SPIN-Bench's N-step look-ahead, ``sum(C_i * S_i) / N``.

    S_i is the task's reference plan length; tasks without one are left out
    of both the sum and N. Returns None if no task has one.

    Examples:
        >>> recs = [{"game": "pddl", "metrics": {"0": {"valid": v, "reference_length": s}}}
        ...         for v, s in ((True, 10), (False, 30), (True, 4), (False, 6))]
        >>> n_step(recs)
        3.5
    """
    rows = [r for r in planning_rows(records) if r.get("reference_length") is not None]
    if not rows:
        return None
    return sum(r["reference_length"] for r in rows if r.get("valid")) / len(rows)


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


def error_breakdown(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Returns SPIN-Bench's error classes as shares of all tasks, and the detailed error counts.

    Returns:
        ``{"tasks", "valid", "BC", "GS", "Other", "errors"}``: the shares of
        valid plans and of each class over all tasks (None if no tasks), and
        a count per detailed error (``inapplicable_action``, ...).
    """
    rows = planning_rows(records)
    classes = Counter(r.get("error_class") for r in rows if not r.get("valid"))
    errors = Counter(str(r.get("error")) for r in rows if not r.get("valid"))
    total = len(rows)

    def share(count: int) -> float | None:
        return count / total if total else None

    return {
        "tasks": total,
        "valid": share(sum(1 for r in rows if r.get("valid"))),
        **{name: share(classes.get(name, 0)) for name in ERROR_CLASSES},
        "errors": dict(sorted(errors.items())),
    }


def planning_summary(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Returns every planning aggregate for one set of records (one agent's, typically)."""
    records = list(records)
    return {
        "tasks": len(planning_rows(records)),
        "plan_accuracy": plan_accuracy(records),
        "n_step": n_step(records),
        "n_step_tasks": sum(1 for r in planning_rows(records) if r.get("reference_length") is not None),
        "by_domain": accuracy_by(records, "domain"),
        "by_category": accuracy_by(records, "category"),
        "by_tier": accuracy_by(records, "tier"),
        "errors": error_breakdown(records),
    }


def _by_agent(records: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if record.get("game") != GAME or record.get("metrics", {}).get("0") is None:
            continue
        agent = record["sides"][record.get("subject", 0)]["agent"]
        grouped.setdefault(agent, []).append(record)
    return dict(sorted(grouped.items()))


def summaries_by_agent(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Returns :func:`planning_summary` per subject agent label."""
    return {agent: planning_summary(group) for agent, group in _by_agent(records).items()}


def by_domain(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Returns, per agent and domain: ``category``, ``tasks``, ``valid``, ``plan_accuracy``, ``n_step``, ``BC``,
    ``GS``, ``Other`` (shares of the domain's tasks; N-step over the domain's tasks)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for agent, group in _by_agent(records).items():
        domains: dict[str, list[dict[str, Any]]] = {}
        for record in group:
            domains.setdefault(str(record["metrics"]["0"].get("domain") or "unknown"), []).append(record)
        for domain, tasks in sorted(domains.items()):
            errors = error_breakdown(tasks)
            categories = {str(r["metrics"]["0"].get("category") or "unknown") for r in tasks}
            out.setdefault(agent, {})[domain] = {
                "category": ", ".join(sorted(categories)),
                "tasks": errors["tasks"],
                "valid": sum(1 for r in planning_rows(tasks) if r.get("valid")),
                "plan_accuracy": errors["valid"],
                "n_step": n_step(tasks),
                **{name: errors[name] for name in ERROR_CLASSES},
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
    import math

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
