"""SPIN-Bench classical planning: one item per subject per task of the dataset.

Each task is the ``pddl`` game in one variant (``<domain>/<instance>``): the
committed default dataset, or ``--pddl-dir DIR`` in SPIN-Bench's layout
(``<domain>/domain.pddl``, ``<domain>/instances/*.pddl``), where each task
unified-planning cannot read, even after the reader's normalisation of what
VAL accepts (odd names, ``either`` types, names declared twice...), is
skipped with its own reason, and a domain folder without instances is one
skipped item saying so. The subject gets
SPIN-Bench's E.1 prompt once and answers with a plan; a valid plan scores 1,
anything else 0, and the plan is never retried (single-shot). Per task: the
verdict, the failure (first inapplicable step and its unmet preconditions,
unmet goals, unknown names, parse error) and its class (BC, GS, Other),
plus the reference plan length for N-step.

With no ``--model`` (and no ``--stratbench-agent``) only the floor runs,
``random_planner`` (a goal-blind walk of random applicable actions, its
length drawn from 1..50; it never stops because the goal holds), and on a
smoke subset: the first instance of each domain, so that ``pytest suites/`` stays
fast. Any subject on the command line gets the whole dataset; the ceiling
is ``--stratbench-agent planner`` (unified-planning's planners, 100%).

``--protocol paper`` reads each answer as SPIN-Bench's released code does:
only the ``$$ ... $$`` JSON's ``plan`` string; any other answer fails the task
(class Other), unretried. The prompt stays E.1, with the released system
prompt, at temperature 0 (docs/PROTOCOLS.md lists every difference).
"""

import pytest


@pytest.mark.stratbench(
    game="pddl",
    baselines=["random_planner"],
    matches=1,
    illegal_tolerance=1,
    fallback="forfeit",
)
def test_pddl(match):
    match.play()
