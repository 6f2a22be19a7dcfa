"""Programmatic agents for the ``pddl`` game: ``planner`` and ``random_planner``.

``planner`` solves the task with unified-planning's planners
(:func:`stratbench.games.spin.planning.planners.solve`: Fast Downward if installed,
then pyperplan, tamer and ENHSP, the first valid plan wins; in a child
process that the match's time limit kills) and answers with
the plan in SPIN-Bench's ``$$ {"plan": ...} $$`` format, in the task's
original names (whatever the reader renamed); the engine that
solved it is logged in the transcript (a ``planner`` event) and named in a
comment line before the ``$$`` block. It is the ceiling: the dataset builder
keeps only tasks it solves.

``random_planner`` is the floor: it draws a length uniformly from
``1..max_steps`` (default 50) with an rng seeded by the match's rng and the
task's name (so tasks of one run get different lengths), applies that many
uniformly random applicable actions (unified-planning's sequential
simulator; fewer only at a dead end) and answers with the walk. It never
looks at the goal: stopping as soon as the goal holds would make it a
search that solves easy tasks, not a floor. Its plans are always executable,
so it fails only on unmet goals. The generic ``random`` agent cannot play
planning tasks, which have no predefined legal actions.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

from stratbench.core.agent import AgentContext
from stratbench.core.match_work import offload
from stratbench.core.types import Action, HarnessError, Observation
from stratbench.games.spin.planning.plan_parsing import render_plan

if TYPE_CHECKING:
    from stratbench.games.spin.planning.reading import ReadTask

__all__ = ["PlannerAgent", "RandomPlannerAgent"]

_RANDOM_MAX_STEPS = 50


def _answer(steps: tuple[tuple[str, tuple[str, ...]], ...], note: str) -> str:
    plan = render_plan(steps)
    return f"; {note}\n$$\n{json.dumps({'plan': plan})}\n$$"


def _task(observation: Observation) -> ReadTask:
    from stratbench.games.spin.planning.reading import (  # lean: the PDDL reader loads at the first turn
        PDDLReadError,
        read_task,
    )

    try:
        return read_task(observation.data["domain_pddl"], observation.data["problem_pddl"])
    except PDDLReadError as error:
        raise HarnessError(f"{observation.data.get('task')}: unified-planning cannot read it: {error.reason}") from None


class _PlanningAgent:
    supported_games = ("pddl",)
    name = ""

    def __init__(self, context: AgentContext) -> None:
        if context.game.info.name not in self.supported_games:
            raise ValueError(f"agent {self.name!r} plays only pddl planning tasks, not {context.game.info.name!r}")
        self.context = context
        self.params = dict(context.spec.params)


class PlannerAgent(_PlanningAgent):
    """Answers with a plan from unified-planning's planners."""

    name = "planner"

    async def act(self, observation: Observation) -> Action:
        """Solves the task in the observation's data and returns the plan.

        The search runs in a child process (:mod:`stratbench.games.spin.planning.planner_process`):
        the match's time limit kills it with every process it started.
        """
        from stratbench.games.spin.planning.planner_process import (  # lean: the planners load at the first plan
            solve_in_child,
        )
        from stratbench.games.spin.planning.planners import DEFAULT_ENGINES  # lean: the planners load at the first plan

        engines = tuple(self.params.get("engines", DEFAULT_ENGINES))
        task = await offload(_task, observation)  # off the loop: reading waits for unified-planning's lock
        data = observation.data
        solution = await solve_in_child(data["domain_pddl"], data["problem_pddl"], engines)
        if solution is None:
            self.context.transcript.add("planner", engine=None, solved=False)
            raise HarnessError(f"{observation.data.get('task')}: no planner among {', '.join(engines)} solved it")
        self.context.transcript.add(
            "planner", engine=solution.engine, version=solution.engine_version, seconds=round(solution.seconds, 4),
            steps=len(solution.steps), solved=True,
        )
        note = f"solved by {solution.engine} {solution.engine_version}"
        return Action("plan", _answer(task.original_steps(solution.steps), note))


class RandomPlannerAgent(_PlanningAgent):
    """Answers with a goal-blind random walk of a random length (at most ``max_steps``)."""

    name = "random_planner"

    async def act(self, observation: Observation) -> Action:
        """Walks randomly from the initial state, ignoring the goal, and returns the walk as the plan."""
        from stratbench.games.spin.planning.planners import blind_walk  # lean: the planners load at the first plan

        max_steps = int(self.params.get("max_steps", _RANDOM_MAX_STEPS))
        # The match rng is seeded by the match seed alone, so every task of a run would draw the same
        # length from it; mixing in the task's name gives each task its own, still replayable, walk.
        rng = random.Random(f"{observation.data.get('task')}:{self.context.rng.getrandbits(64)}")
        task = await offload(_task, observation)
        steps = task.original_steps(await offload(blind_walk, task.problem, rng, max_steps))
        self.context.transcript.add("random_walk", steps=len(steps), max_steps=max_steps)
        return Action("plan", _answer(steps, f"random walk of {len(steps)} applicable actions"))
