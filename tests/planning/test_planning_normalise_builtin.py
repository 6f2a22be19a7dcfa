"""The built-in domains under the normaliser and the relaxed validation: nothing about their verdicts changes.

* VAL's semantics for undefined numeric fluents (unified-planning's validator with its support check off,
  without quality metrics) give the same verdicts as unified-planning's own validator wherever both apply.
* Rewriting a built-in task into the constructs unified-planning refuses (dotted names, a self-subtype, a
  function sharing a predicate's name, an initial value of an undeclared function), then normalising it back,
  leaves the set of valid plans alone: reference plans stay valid, mutated plans stay invalid, for the same
  reason at the same step.

Both run on a sample per domain (reading a task takes about 0.2 s); ``bench/pddl_read.py`` compares the
verdicts on every built-in task.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratbench.games.spin.planning import dataset
from stratbench.games.spin.planning.planners import random_walk
from stratbench.games.spin.planning.plan_parsing import parse_plan_text
from stratbench.games.spin.planning.reading import read_task
from stratbench.games.spin.planning.sexpr import parse, render
from stratbench.games.spin.planning.validation import check_steps

Steps = tuple[tuple[str, tuple[str, ...]], ...]


@lru_cache(maxsize=1)
def sample() -> tuple[dict, ...]:
    """Returns the manifest entries of one task per built-in domain, its middle one."""
    manifest = dataset.load_manifest()
    if manifest is None:
        pytest.skip("the default dataset is not built")
    by_domain: dict[str, list[dict]] = {}
    for entry in manifest["instances"]:
        by_domain.setdefault(entry["domain"], []).append(entry)
    return tuple(entries[len(entries) // 2] for entries in by_domain.values())


def texts(entry: dict) -> tuple[str, str]:
    return dataset.domain_problem(dataset.resolve(entry["name"]))


def plans(entry: dict, task) -> list[Steps]:
    """Returns the reference plan and four mutations of it: shortened, a step repeated, reversed, a random walk."""
    reference = parse_plan_text("\n".join(entry["reference_plan"]))
    walk = random_walk(task.problem, random.Random(entry["name"]), min(len(reference), 8))
    return [reference, reference[:-1], reference[:1] + reference, tuple(reversed(reference)),
            task.original_steps(walk)]


def verdict(check) -> tuple:
    return check.valid, check.error, check.step, check.unmet, check.reason


@pytest.mark.parametrize("entry", sample(), ids=lambda e: e["name"])
def test_val_semantics_give_unified_planning_validators_verdicts_on_builtin_tasks(entry):
    task = read_task(*texts(entry))
    assert task.changes == ()  # the built-in domains are read as written
    verdicts = []
    for steps in plans(entry, task):
        stock = check_steps(task, steps, relaxed=False)
        assert verdict(check_steps(task, steps, relaxed=True)) == verdict(stock)
        verdicts.append(stock.valid)
    assert verdicts[0] is True  # the reference plan
    assert False in verdicts[1:]  # and some mutation is refused: the comparison covers both verdicts


def wild(domain_text: str, problem_text: str) -> tuple[str, str]:
    """Rewrites a task into constructs unified-planning refuses, keeping its meaning for VAL.

    Every object and constant gets a dot (``a`` -> ``a.w``), the domain too; the first type is also declared
    a subtype of itself; a function is declared with the first predicate's name (or a predicate with the first
    function's); the initial state gives a value to a function that is never declared.
    """
    domain, problem = parse(domain_text), parse(problem_text)
    objects = set()
    for tree, head in ((domain, ":constants"), (problem, ":objects")):
        for section in tree[2:]:
            if section[0] == head:
                objects |= {item for item in section[1:] if isinstance(item, str) and item != "-"}
    types = set()
    for section in domain[2:]:
        if section[0] == ":types":
            types = {item for item in section[1:] if isinstance(item, str)}
    objects -= types | {"-"}

    def dotted(node, after_action=False):
        if isinstance(node, list):
            return [dotted(part, index == 1 and node[0] == ":action") for index, part in enumerate(node)]
        return f"{node}.w" if node in objects and not after_action else node

    domain, problem = dotted(domain), dotted(problem)
    name = domain[1][1]
    domain[1][1] = problem[2][1] = f"{name}.v1"
    sections = {section[0]: section for section in domain[2:]}
    if ":types" in sections and len(sections[":types"]) > 1:
        first = sections[":types"][1]
        sections[":types"][1:1] = [first, "-", first]
    if ":predicates" in sections:
        twice, section, after = sections[":predicates"][1][0], ":functions", sections[":predicates"]
    else:
        twice, section, after = sections[":functions"][1][0], ":predicates", sections.get(":types", domain[2])
    if section in sections:
        sections[section].append([twice])
    else:
        domain.insert(domain.index(after) + 1, [section, [twice]])
    for section in problem[2:]:
        if section[0] == ":init":
            section.append(["=", ["never-declared"], "1"])
    return render(domain), render(problem)


def wild_steps(steps: Steps, objects: set[str]) -> Steps:
    return tuple((name, tuple(f"{a}.w" if a in objects else a for a in args)) for name, args in steps)


@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_normalising_never_changes_which_plans_are_valid(data):
    entry = data.draw(st.sampled_from(sample()), label="task")
    task = read_task(*texts(entry))
    wild_task = read_task(*wild(*texts(entry)))
    assert any(change.startswith("renamed") for change in wild_task.changes)
    assert any("subtype of itself" in change for change in wild_task.changes)
    assert any("'never-declared'" in change for change in wild_task.changes)
    objects = {o.name for o in task.problem.all_objects}
    candidates = plans(entry, task)
    steps = data.draw(st.sampled_from(candidates), label="plan")
    original = check_steps(task, steps)
    renamed = check_steps(wild_task, wild_steps(steps, objects))
    assert (renamed.valid, renamed.error, renamed.step) == (original.valid, original.error, original.step)
    assert renamed.reason.replace(".w", "") == original.reason
    if steps == candidates[0]:
        assert renamed.valid, json.dumps(entry["reference_plan"])
